# graph sources: owned by the graph area. One file per concern; each instantiates its members for
# the compiled id/offset combinations (core/graph_types.hpp).
target_sources(dyng PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/graph_access.cpp
  ${CMAKE_CURRENT_LIST_DIR}/graph_apply.cpp
  ${CMAKE_CURRENT_LIST_DIR}/graph_build.cpp
  ${CMAKE_CURRENT_LIST_DIR}/graph_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/graph_revert.cpp)
