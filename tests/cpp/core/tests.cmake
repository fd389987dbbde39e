# core tests: the shared dynamic-update policy; zero-page arrays and the memory checks.
dyng_add_test(test_dynamic_update cpu ${CMAKE_CURRENT_LIST_DIR}/test_dynamic_update.cpp)
dyng_add_test(test_zeroed_array cpu ${CMAKE_CURRENT_LIST_DIR}/test_zeroed_array.cpp)
