# triangle_delta on the GPU (CUDA builds): the row-intersection kernels and their launches.
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/triangle_delta_cuda.cu)
