# pagerank tests: host backends against a dense power-iteration oracle (pagerank_oracle.hpp).
dyng_add_test(test_pagerank cpu ${CMAKE_CURRENT_LIST_DIR}/test_pagerank.cpp)
