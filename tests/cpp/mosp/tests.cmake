# mosp tests: host backends, update against a fresh compute and the definitions.
dyng_add_test(test_mosp cpu ${CMAKE_CURRENT_LIST_DIR}/test_mosp.cpp)
