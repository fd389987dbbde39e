# Resolves the feature options into targets and definitions every part of the build shares.

if(DYNG_ENABLE_OPENMP)
  find_package(OpenMP COMPONENTS CXX)
  if(NOT OpenMP_CXX_FOUND)
    message(FATAL_ERROR
      "DYNG_ENABLE_OPENMP is ON but no OpenMP runtime was found for ${CMAKE_CXX_COMPILER}; "
      "install one (libgomp comes with gcc, libomp with clang) or pass -DDYNG_ENABLE_OPENMP=OFF.")
  endif()
endif()

if(DYNG_ENABLE_CUDA)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
endif()

if(NOT DYNG_PYTHON_PLUGIN STREQUAL "" AND NOT DYNG_PYTHON_PLUGIN MATCHES "^cu[0-9]+$")
  message(FATAL_ERROR
    "DYNG_PYTHON_PLUGIN='${DYNG_PYTHON_PLUGIN}' is not a plugin name; use empty, cu12 or cu13.")
endif()
