# triangle_delta sources (host backends)
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/triangle_delta_cpu.cpp)
