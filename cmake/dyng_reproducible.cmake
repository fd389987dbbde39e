# Byte-reproducible binaries from any checkout folder: compilers write file names into objects
# (__FILE__ in assertions and in the OpenMP runtime's source locations, which clang emits for
# every parallel region; debug info when asked for), so the source and build folders are mapped
# to fixed names. The build folder usually lies inside the source folder; GCC and Clang apply
# the last matching map, so it comes second. nvcc gets the maps through -Xcompiler, which it
# hands to its host compilation and to the preprocessing of device code. nanobind's own sources
# are mapped in python/CMakeLists.txt, where their folder is known.
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
    if(DYNG_ENABLE_CUDA)
      add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler ${map}>")
    endif()
  endforeach()
endfunction()

dyng_add_prefix_maps()
