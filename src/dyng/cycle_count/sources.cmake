# cycle_count sources (host backends)
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cycle_count_cpu.cpp)
