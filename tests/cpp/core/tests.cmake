# core tests: the shared dynamic-update policy.
dyng_add_test(test_dynamic_update cpu ${CMAKE_CURRENT_LIST_DIR}/test_dynamic_update.cpp)
