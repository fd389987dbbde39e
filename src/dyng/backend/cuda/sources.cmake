# CUDA backend plumbing: the one error checker and the pooled device allocator that every GPU
# kernel of libdyng uses. Included by src/CMakeLists.txt when DYNG_ENABLE_CUDA is ON.
target_sources(dyng PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cuda_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_allocator.cu)
# Static runtime: the plugin module then needs only the driver, not a matching libcudart.
target_link_libraries(dyng PUBLIC CUDA::cudart_static)
# .cu files use the same language level as the C++ sources (sssp.hpp needs C++20).
target_compile_features(dyng PRIVATE cuda_std_20)
