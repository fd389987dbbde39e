# triangle_delta tests: host backends against a brute force over vertex triples, update against a
# fresh compute.
dyng_add_test(test_triangle_delta cpu ${CMAKE_CURRENT_LIST_DIR}/test_triangle_delta.cpp)
dyng_add_gpu_test(test_triangle_delta_cuda ${CMAKE_CURRENT_LIST_DIR}/test_triangle_delta_cuda.cpp)
