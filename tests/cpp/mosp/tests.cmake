# mosp tests: host backends, update against a fresh compute and the definitions; the GPU
# backend against the host.
dyng_add_test(test_mosp cpu ${CMAKE_CURRENT_LIST_DIR}/test_mosp.cpp)
dyng_add_gpu_test(test_mosp_cuda ${CMAKE_CURRENT_LIST_DIR}/test_mosp_cuda.cpp)
