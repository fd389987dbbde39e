# CUDA sssp: the host API (sssp_cuda.hpp) and its kernels (detail/cuda/*.cuh), compiled into
# libdyng when DYNG_ENABLE_CUDA is ON. Needs backend/cuda/sources.cmake (checker, allocator).
# compute and update are separate translation units: each instantiates its own search kernels
# (update's are the seeded ones), and two files build in parallel.
target_sources(dyng PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sssp_cuda.cu
  ${CMAKE_CURRENT_LIST_DIR}/sssp_cuda_update.cu)
