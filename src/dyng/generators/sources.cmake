# generators sources: the original tools' seeded batch generators (host only)
target_sources(dyng PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/mosp_changes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cycle_enum_batch.cpp)
