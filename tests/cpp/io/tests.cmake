# io tests: the block scanner, the edge and Matrix Market readers and their inner pieces, the
# small formats, the atomic writers and their write groups (spec section 7), on files made in a
# scratch folder.
dyng_add_test(test_io_readers cpu ${CMAKE_CURRENT_LIST_DIR}/test_io_readers.cpp)
dyng_add_test(test_io_formats cpu ${CMAKE_CURRENT_LIST_DIR}/test_io_formats.cpp)
dyng_add_test(test_io_pieces cpu ${CMAKE_CURRENT_LIST_DIR}/test_io_pieces.cpp)
dyng_add_test(test_io_write_groups cpu ${CMAKE_CURRENT_LIST_DIR}/test_io_write_groups.cpp)
dyng_add_test(test_io_line_breaks cpu ${CMAKE_CURRENT_LIST_DIR}/test_io_line_breaks.cpp)
dyng_add_test(test_io_damage cpu ${CMAKE_CURRENT_LIST_DIR}/test_io_damage.cpp)
dyng_add_test(test_io_source_range cpu ${CMAKE_CURRENT_LIST_DIR}/test_io_source_range.cpp)
