# GPU tests (label gpu): they need a visible CUDA device and exit with 77, which ctest reports as
# skipped, when there is none, so a CPU-only CI machine can still run the whole suite.
foreach(name test_cuda_memory test_sssp_cuda)
  dyng_add_test(${name} gpu ${CMAKE_CURRENT_LIST_DIR}/${name}.cpp)
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
