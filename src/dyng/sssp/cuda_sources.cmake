# sssp on the GPU (CUDA builds): the entry points on device-resident graphs (sssp_cuda.hpp:
# checks against the host graph, copies between host and device results) and the GPU algorithms
# on device views (detail/cuda_views.hpp) with their kernels (detail/cuda/*.cuh). Needs
# backend/cuda/sources.cmake (checker, allocator). compute and update are separate translation
# units: each instantiates its own search kernels (update's are the seeded ones), and two files
# build in parallel.
target_sources(dyng PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sssp_cuda_entry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sssp_cuda.cu
  ${CMAKE_CURRENT_LIST_DIR}/sssp_cuda_update.cu)
