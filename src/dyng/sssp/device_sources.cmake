# sssp on device-resident graphs (CUDA builds): checks against the host graph and host/device
# copies around the GPU algorithms of cuda_sources.cmake.
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/sssp_device.cpp)
