# components sources (host backends; the CUDA backend has no cuda_sources.cmake yet).
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/components_cpu.cpp)
