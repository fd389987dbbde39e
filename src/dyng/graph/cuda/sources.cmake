# The device copy of a graph (CUDA builds only): whole uploads, the change-log driven sync,
# batches resolved and applied on the device, and an apply taken back.
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/device_graph.cu
                            ${CMAKE_CURRENT_LIST_DIR}/device_apply.cu
                            ${CMAKE_CURRENT_LIST_DIR}/device_revert.cu
                            ${CMAKE_CURRENT_LIST_DIR}/device_batch.cu)
