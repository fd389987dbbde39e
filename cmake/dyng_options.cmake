# Resolves the feature options into targets and definitions every part of the build shares.
include(cuda_architectures)

# What DYNG_CUDA_ARCHITECTURES means: see cmake/cuda_architectures.cmake.
set(DYNG_CUDA_ARCHITECTURES "" CACHE STRING
  "CUDA architectures: 'release' (the list for the toolkit), a CMake list, or empty (CMake's)")
# The plugin's runtime-as-a-dependency build: shared libcudart found in NVIDIA's runtime wheel.
option(DYNG_CUDA_RUNTIME_WHEEL
  "Plugin links the shared CUDA runtime from NVIDIA's nvidia-cuda-runtime wheel (RPATH into it)" OFF)

if(NOT DYNG_PYTHON_PLUGIN STREQUAL "" AND NOT DYNG_PYTHON_PLUGIN MATCHES "^cu[0-9]+$")
  message(FATAL_ERROR
    "DYNG_PYTHON_PLUGIN='${DYNG_PYTHON_PLUGIN}' is not a plugin name; use empty, cu12 or cu13.")
endif()

# A plugin's module replaces dyng._core, so it must have every backend (ADR 0030 item 2). These
# checks come before any compiler probing so that a wrong combination fails in a second.
if(NOT DYNG_PYTHON_PLUGIN STREQUAL "")
  if(NOT DYNG_ENABLE_CUDA OR NOT DYNG_ENABLE_OPENMP)
    message(FATAL_ERROR
      "DYNG_PYTHON_PLUGIN=${DYNG_PYTHON_PLUGIN} builds a module with every backend; pass "
      "-DDYNG_ENABLE_CUDA=ON -DDYNG_ENABLE_OPENMP=ON (now CUDA=${DYNG_ENABLE_CUDA}, "
      "OpenMP=${DYNG_ENABLE_OPENMP}).")
  endif()
endif()

if(DYNG_ENABLE_CUDA)
  # CMake's own default for an unset CMAKE_CUDA_RUNTIME_LIBRARY is Static; we resolve it here so
  # that nvcc-driven links and the targets that name the runtime explicitly always agree.
  if(NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY OR CMAKE_CUDA_RUNTIME_LIBRARY STREQUAL "")
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
  endif()
  string(TOLOWER "${CMAKE_CUDA_RUNTIME_LIBRARY}" dyng_cuda_runtime)
  if(dyng_cuda_runtime STREQUAL "static")
    set(DYNG_CUDART_TARGET CUDA::cudart_static)
    if(BUILD_SHARED_LIBS)
      message(FATAL_ERROR
        "CMAKE_CUDA_RUNTIME_LIBRARY=Static with BUILD_SHARED_LIBS=ON would put one CUDA runtime "
        "in the shared libdyng and another in each program using it (separate error states in "
        "one process); pass -DCMAKE_CUDA_RUNTIME_LIBRARY=Shared or -DBUILD_SHARED_LIBS=OFF.")
    endif()
  elseif(dyng_cuda_runtime STREQUAL "shared")
    set(DYNG_CUDART_TARGET CUDA::cudart)
  else()
    message(FATAL_ERROR
      "CMAKE_CUDA_RUNTIME_LIBRARY='${CMAKE_CUDA_RUNTIME_LIBRARY}' is not supported: libdyng's "
      "CUDA code calls the runtime; use Static or Shared.")
  endif()
  set(DYNG_CUDA_RUNTIME ${dyng_cuda_runtime})

  if(NOT DYNG_PYTHON_PLUGIN STREQUAL "")
    if(DYNG_CUDA_RUNTIME_WHEEL AND NOT DYNG_CUDA_RUNTIME STREQUAL "shared")
      message(FATAL_ERROR
        "DYNG_CUDA_RUNTIME_WHEEL=ON loads libcudart from NVIDIA's runtime wheel; pass "
        "-DCMAKE_CUDA_RUNTIME_LIBRARY=Shared (now ${CMAKE_CUDA_RUNTIME_LIBRARY}).")
    elseif(NOT DYNG_CUDA_RUNTIME_WHEEL AND NOT DYNG_CUDA_RUNTIME STREQUAL "static")
      message(FATAL_ERROR
        "DYNG_PYTHON_PLUGIN=${DYNG_PYTHON_PLUGIN} links the CUDA runtime statically so that the "
        "wheel needs only the driver; pass -DCMAKE_CUDA_RUNTIME_LIBRARY=Static (now "
        "${CMAKE_CUDA_RUNTIME_LIBRARY}), or -DDYNG_CUDA_RUNTIME_WHEEL=ON for the "
        "runtime-as-a-dependency build.")
    endif()
  endif()
elseif(DYNG_CUDA_RUNTIME_WHEEL)
  message(FATAL_ERROR "DYNG_CUDA_RUNTIME_WHEEL=ON needs -DDYNG_ENABLE_CUDA=ON.")
endif()

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
  # The toolkit the CUDA code is compiled against (for clang in CUDA mode too, unlike
  # CMAKE_CUDA_COMPILER_VERSION, which is then clang's own version).
  if(CMAKE_CUDA_COMPILER_TOOLKIT_VERSION)
    set(DYNG_CUDA_TOOLKIT_VERSION ${CMAKE_CUDA_COMPILER_TOOLKIT_VERSION})
  else()
    set(DYNG_CUDA_TOOLKIT_VERSION ${CUDAToolkit_VERSION})
  endif()
  dyng_apply_cuda_architectures("${DYNG_CUDA_TOOLKIT_VERSION}")

  if(NOT DYNG_PYTHON_PLUGIN STREQUAL "")
    string(REGEX REPLACE "^cu" "" dyng_plugin_major "${DYNG_PYTHON_PLUGIN}")
    string(REGEX MATCH "^[0-9]+" dyng_toolkit_major "${DYNG_CUDA_TOOLKIT_VERSION}")
    if(NOT dyng_toolkit_major STREQUAL dyng_plugin_major)
      message(FATAL_ERROR
        "DYNG_PYTHON_PLUGIN=${DYNG_PYTHON_PLUGIN} needs a CUDA ${dyng_plugin_major}.x compiler, but "
        "${CMAKE_CUDA_COMPILER} uses CUDA ${DYNG_CUDA_TOOLKIT_VERSION}; point CMAKE_CUDA_COMPILER "
        "(and CUDAToolkit_ROOT) at a CUDA ${dyng_plugin_major} toolkit.")
    endif()
  endif()
endif()
