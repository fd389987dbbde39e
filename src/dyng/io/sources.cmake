# io sources: owned by the io area. The text formats of spec section 7, all read through one
# block scanner (text_blocks) and one tokenizer (text_scan.hpp), all written through one
# atomic-file helper (atomic_file, with write_target and write_group).
target_sources(dyng PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/text_blocks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/edge_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/edge_finish.cpp
  ${CMAKE_CURRENT_LIST_DIR}/id_compaction.cpp
  ${CMAKE_CURRENT_LIST_DIR}/edge_sort.cpp
  ${CMAKE_CURRENT_LIST_DIR}/edge_list_read.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matrix_market_read.cpp
  ${CMAKE_CURRENT_LIST_DIR}/small_readers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/write_target.cpp
  ${CMAKE_CURRENT_LIST_DIR}/write_group.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atomic_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/writers.cpp)
