# cycle_count tests: host backends against plain enumeration, update against a fresh compute, and
# both stopping when their caller asks.
dyng_add_test(test_cycle_count cpu ${CMAKE_CURRENT_LIST_DIR}/test_cycle_count.cpp)
dyng_add_test(test_cycle_count_cancel cpu ${CMAKE_CURRENT_LIST_DIR}/test_cycle_count_cancel.cpp)
dyng_add_gpu_test(test_cycle_count_cuda ${CMAKE_CURRENT_LIST_DIR}/test_cycle_count_cuda.cpp)
