# components on the GPU (CUDA builds): Afforest for weak components, signature phases for strong
# ones, and the launches of their update repairs.
target_sources(dyng PRIVATE ${CMAKE_CURRENT_LIST_DIR}/components_cuda.cu)
