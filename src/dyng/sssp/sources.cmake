# sssp sources
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/sssp_cpu.cpp)
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/sssp_shard.cpp)
