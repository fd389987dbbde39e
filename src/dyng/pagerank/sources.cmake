# pagerank sources (host backends; the CUDA backend is in cuda_sources.cmake).
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/pagerank_cpu.cpp)
