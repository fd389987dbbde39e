# pagerank tests: host backends and the GPU against a dense power-iteration oracle
# (pagerank_oracle.hpp).
dyng_add_test(test_pagerank cpu ${CMAKE_CURRENT_LIST_DIR}/test_pagerank.cpp)
dyng_add_gpu_test(test_pagerank_cuda ${CMAKE_CURRENT_LIST_DIR}/test_pagerank_cuda.cpp)
