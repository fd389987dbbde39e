# generators tests: the original tools' batch generators against batches dyng 0.2.0 produced, and
# their invariants on random graphs.
dyng_add_test(test_generators_legacy cpu ${CMAKE_CURRENT_LIST_DIR}/test_generators_legacy.cpp)
