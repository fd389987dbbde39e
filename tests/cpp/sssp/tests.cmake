# sssp tests: kernels on hand-made views, and the public API on graph_t.
dyng_add_test(sssp_kernel_test cpu sssp/sssp_kernel_test.cpp)
dyng_add_test(sssp_graph_test cpu sssp/sssp_graph_test.cpp)
# Timing driver for tuning (run by hand, not registered with ctest).
add_executable(sssp_timing ${CMAKE_CURRENT_LIST_DIR}/sssp_timing.cpp)
target_link_libraries(sssp_timing PRIVATE dyng::dyng)
