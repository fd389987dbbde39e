# The device copy of a graph (CUDA builds only): whole uploads and the change-log driven sync.
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/device_graph.cu)
