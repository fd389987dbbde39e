# pagerank on the GPU (CUDA builds): the pull power iteration with degree-aware row sums and the
# update's frontier rounds.
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/pagerank_cuda.cu)
