# sssp on device-resident graphs (CUDA builds): result buffers, checks and growth around the GPU
# algorithms of cuda_sources.cmake.
target_sources(dyng PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sssp_device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sssp_device_kernels.cu)
