# graph tests: construction, apply() semantics, relayout against a model.
dyng_add_test(test_graph_build cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_build.cpp)
dyng_add_test(test_graph_build_model cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_build_model.cpp)
dyng_add_test(test_graph_apply cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_apply.cpp)
dyng_add_test(test_graph_relayout cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_relayout.cpp)
dyng_add_test(test_row_edits cpu ${CMAKE_CURRENT_LIST_DIR}/test_row_edits.cpp)
# Benchmark of apply() against a full rebuild (not a test; run it by hand).
add_executable(dyng_bench_graph_apply ${PROJECT_SOURCE_DIR}/bench/cpp/graph_apply.cpp)
target_link_libraries(dyng_bench_graph_apply PRIVATE dyng::dyng)
# Benchmark of from_edges on a dumped edge list (not a test; run it by hand).
add_executable(dyng_bench_graph_build ${PROJECT_SOURCE_DIR}/bench/cpp/graph_build.cpp)
target_link_libraries(dyng_bench_graph_build PRIVATE dyng::dyng)
