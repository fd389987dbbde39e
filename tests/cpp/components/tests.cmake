# components tests: host backends against a breadth-first oracle (components_oracle.hpp).
dyng_add_test(test_components cpu ${CMAKE_CURRENT_LIST_DIR}/test_components.cpp)
