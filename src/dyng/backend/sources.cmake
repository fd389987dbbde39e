target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/execution.cpp ${CMAKE_CURRENT_LIST_DIR}/profile.cpp)
