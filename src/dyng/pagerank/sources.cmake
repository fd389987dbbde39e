# pagerank sources (host backends; no CUDA backend yet).
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/pagerank_cpu.cpp)
