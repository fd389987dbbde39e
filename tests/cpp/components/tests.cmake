# components tests: host backends and the GPU against a breadth-first oracle (components_oracle.hpp).
dyng_add_test(test_components cpu ${CMAKE_CURRENT_LIST_DIR}/test_components.cpp)
dyng_add_gpu_test(test_components_cuda ${CMAKE_CURRENT_LIST_DIR}/test_components_cuda.cpp)
