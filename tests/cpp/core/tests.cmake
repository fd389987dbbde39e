# core tests: the shared dynamic-update policy; zero-page arrays and the memory checks; the
# replay of libstdc++'s random distributions; calls stopped through their caller's flag.
dyng_add_test(test_dynamic_update cpu ${CMAKE_CURRENT_LIST_DIR}/test_dynamic_update.cpp)
dyng_add_test(test_zeroed_array cpu ${CMAKE_CURRENT_LIST_DIR}/test_zeroed_array.cpp)
dyng_add_test(test_stdlib_random cpu ${CMAKE_CURRENT_LIST_DIR}/test_stdlib_random.cpp)
dyng_add_test(test_interrupts cpu ${CMAKE_CURRENT_LIST_DIR}/test_interrupts.cpp)
