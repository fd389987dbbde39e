# core sources: the few parts of core/ that are not header-only (the log's sink, the page-level
# memory calls).
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/log.cpp
                            ${CMAKE_CURRENT_LIST_DIR}/memory_pages.cpp)
