# sssp tests: kernels on hand-made views, the public API on graph_t, the GPU bucket width rule,
# and the GPU kernels against the serial oracle.
dyng_add_test(test_sssp_kernels cpu ${CMAKE_CURRENT_LIST_DIR}/test_sssp_kernels.cpp)
dyng_add_test(test_sssp_graph cpu ${CMAKE_CURRENT_LIST_DIR}/test_sssp_graph.cpp)
dyng_add_test(test_sssp_search_rows cpu ${CMAKE_CURRENT_LIST_DIR}/test_sssp_search_rows.cpp)
dyng_add_test(test_sssp_bucket_width cpu ${CMAKE_CURRENT_LIST_DIR}/test_sssp_bucket_width.cpp)
dyng_add_gpu_test(test_sssp_cuda ${CMAKE_CURRENT_LIST_DIR}/test_sssp_cuda.cpp)
dyng_add_gpu_test(test_sssp_cuda_update ${CMAKE_CURRENT_LIST_DIR}/test_sssp_cuda_update.cpp)
