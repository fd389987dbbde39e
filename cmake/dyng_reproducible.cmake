# Byte-reproducible binaries from any checkout folder: compilers write file names into objects
# (__FILE__ in assertions and in the OpenMP runtime's source locations, which clang emits for
# every parallel region; debug info when asked for), so the source and build folders are mapped
# to fixed names. The build folder usually lies inside the source folder; GCC and Clang apply
# the last matching map, so it comes second. nvcc gets the maps through -Xcompiler, which it
# hands to its host compilation and to the preprocessing of device code; clang, which compiles
# CUDA itself, takes them as they are. nanobind's own sources
# are mapped in python/CMakeLists.txt, where their folder is known.
#
# nvcc also draws a random number per compilation for the names of internal-linkage entities
# (anonymous namespaces: _GLOBAL__N__<random>_<file>_<hash>), and those names reach the
# device code in the fatbinary and the .rodata of the module, so two clean builds differed in
# 14.7 MB of a 33 MB cu13 module. dyng_seed_cuda_sources() gives every CUDA source of a target
# the seed nvcc documents for this (-frandom-seed, unique per file: its path in the checkout).
# The names also hash the source's absolute path, which nvcc hands its front end as
# --orig_src_path_name whatever path the command line gives; a second one through -Xcudafe
# (the front end keeps the last) names the file by its checkout path under "dyng/", as the
# prefix maps do. Seen with nvcc 13.0 and 13.5: tests/packaging/test_reproducible_build.py.
function(dyng_add_prefix_maps)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    return()
  endif()
  set(maps "-ffile-prefix-map=${PROJECT_SOURCE_DIR}=dyng"
           "-ffile-prefix-map=${PROJECT_BINARY_DIR}=dyng-build")
  foreach(extra IN LISTS ARGN)
    list(APPEND maps "${extra}")
  endforeach()
  foreach(map IN LISTS maps)
    add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${map}>")
    if(DYNG_ENABLE_CUDA AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
      add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler ${map}>")
    elseif(DYNG_ENABLE_CUDA)  # clang compiles CUDA itself (the cu12 wheel): the map as it is
      add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:${map}>")
    endif()
  endforeach()
endfunction()

dyng_add_prefix_maps()

function(dyng_seed_cuda_sources target)
  if(NOT DYNG_ENABLE_CUDA OR NOT CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(base ${target} SOURCE_DIR)
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\.cu$")
      continue()
    endif()
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${base}" OUTPUT_VARIABLE path)
    file(RELATIVE_PATH seed "${PROJECT_SOURCE_DIR}" "${path}")
    set_property(SOURCE "${source}" TARGET_DIRECTORY ${target} APPEND PROPERTY COMPILE_OPTIONS
                 "-frandom-seed=${seed}" "-Xcudafe=--orig_src_path_name=dyng/${seed}")
  endforeach()
endfunction()

# A module loaded only where it is installed is linked with its install RPATH: a build-tree
# RUNPATH (the folder of a shared library it links, such as the PyPI toolchain's libomp under
# build/) stays zero-filled in .dynstr after CMake's install, so the bytes followed the path's length.
function(dyng_link_for_install target)
  set_target_properties(${target} PROPERTIES BUILD_WITH_INSTALL_RPATH ON)
endfunction()
