# CUDA backend plumbing: the one error checker and the pooled device allocator that every GPU
# kernel of libdyng uses, the reusable scratch of repeated small calls, the profiler's events
# and NVTX ranges, and the host-side stop check (Ctrl-C). Included by src/CMakeLists.txt when DYNG_ENABLE_CUDA is ON.
target_sources(dyng PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cuda_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_scope.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_stop.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_allocator.cu
  ${CMAKE_CURRENT_LIST_DIR}/device_workspace.cpp)
# The runtime chosen by CMAKE_CUDA_RUNTIME_LIBRARY (cmake/dyng_options.cmake): static for the
# plugin wheels, which then need only the driver.
target_link_libraries(dyng PUBLIC ${DYNG_CUDART_TARGET})
# .cu files use the same language level as the C++ sources (sssp.hpp needs C++20).
target_compile_features(dyng PRIVATE cuda_std_20)
