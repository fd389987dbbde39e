# dynamic_bfs tests: host backends against the relaxation oracle (bfs_oracle.hpp).
dyng_add_test(test_dynamic_bfs cpu ${CMAKE_CURRENT_LIST_DIR}/test_dynamic_bfs.cpp)
dyng_add_gpu_test(test_dynamic_bfs_cuda ${CMAKE_CURRENT_LIST_DIR}/test_dynamic_bfs_cuda.cpp)
