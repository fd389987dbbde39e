# GPU tests (label gpu): they need a visible CUDA device and exit with 77, which ctest reports as
# skipped, when there is none, so a CPU-only CI machine can still run the whole suite.
foreach(name test_cuda_memory test_device_graph test_sssp_cuda test_sssp_cuda_update)
  dyng_add_test(${name} gpu ${CMAKE_CURRENT_LIST_DIR}/${name}.cpp)
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
