# cycle_count on the GPU (CUDA builds): the path-search kernels and their launches.
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cycle_count_cuda.cu)
