# backend tests: the OpenMP team size; the profiler; the CUDA allocator, buffers and error checker.
dyng_add_gpu_test(test_backend_cuda_memory ${CMAKE_CURRENT_LIST_DIR}/test_backend_cuda_memory.cpp)
dyng_add_test(test_host_team_size cpu ${CMAKE_CURRENT_LIST_DIR}/test_host_team_size.cpp)
dyng_add_test(test_profile cpu ${CMAKE_CURRENT_LIST_DIR}/test_profile.cpp)
# NVTX exists only in CUDA builds; the test needs no device.
if(DYNG_ENABLE_CUDA)
  dyng_add_test(test_profile_nvtx cpu ${CMAKE_CURRENT_LIST_DIR}/test_profile_nvtx.cpp)
endif()
