# graph tests: construction, apply() semantics and its revert, relayout against a model, device
# copies.
dyng_add_test(test_graph_build cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_build.cpp)
dyng_add_test(test_graph_build_model cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_build_model.cpp)
dyng_add_test(test_graph_apply cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_apply.cpp)
dyng_add_test(test_graph_apply_team cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_apply_team.cpp)
dyng_add_test(test_graph_relayout cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_relayout.cpp)
dyng_add_test(test_graph_row_edits cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_row_edits.cpp)
dyng_add_test(test_graph_revert cpu ${CMAKE_CURRENT_LIST_DIR}/test_graph_revert.cpp)
dyng_add_gpu_test(test_graph_device ${CMAKE_CURRENT_LIST_DIR}/test_graph_device.cpp)
dyng_add_gpu_test(test_graph_device_apply ${CMAKE_CURRENT_LIST_DIR}/test_graph_device_apply.cpp)
dyng_add_gpu_test(test_graph_device_revert ${CMAKE_CURRENT_LIST_DIR}/test_graph_device_revert.cpp)
