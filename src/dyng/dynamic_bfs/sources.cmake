# dynamic_bfs sources (host backends).
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/dynamic_bfs_cpu.cpp)
