# mosp on the GPU (CUDA builds): device results, the combined graph's kernels, the path costs.
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/mosp_cuda.cu)
