# core sources: the few parts of core/ that are not header-only (the log's sink).
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/log.cpp)
