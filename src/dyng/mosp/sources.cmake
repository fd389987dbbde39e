# mosp sources
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/mosp_cpu.cpp)
