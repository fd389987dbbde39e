# dynamic_bfs on the GPU (CUDA builds): device results, the frontier search and the repair.
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/dynamic_bfs_cuda.cu)
