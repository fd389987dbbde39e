# The CUDA architectures a release build compiles for, per toolkit (ADR 0030 item 5).
#
# DYNG_CUDA_ARCHITECTURES=release asks for this list: SASS ("-real") for every architecture the
# toolkit supports from Turing (7.5, dyng's floor) on, plus PTX for the highest one so that newer
# GPUs can JIT it. Any other non-empty value is used as CMAKE_CUDA_ARCHITECTURES verbatim (a short
# list while iterating); empty keeps CMake's own choice. ci/wheelbuild/architectures.py mirrors the
# lists for the wheel checker, and a packaging test keeps the two equal.

# CUDA 12.8 added Blackwell (100, 120); 13.0 dropped everything below 7.5, which is our floor.
set(DYNG_CUDA_RELEASE_ARCHITECTURES_12_8 75-real 80-real 86-real 89-real 90-real 100-real 120)
# CUDA 12.0-12.7 know Hopper but not Blackwell: PTX for 90 covers newer GPUs.
set(DYNG_CUDA_RELEASE_ARCHITECTURES_12_0 75-real 80-real 86-real 89-real 90)

# Sets `out_var` to the release list for a toolkit version ("13.5.37", "12.9"); fails for a
# toolkit too old to build dyng's CUDA code.
function(dyng_cuda_release_architectures toolkit_version out_var)
  if(toolkit_version VERSION_GREATER_EQUAL 12.8)
    set(archs ${DYNG_CUDA_RELEASE_ARCHITECTURES_12_8})
  elseif(toolkit_version VERSION_GREATER_EQUAL 12.0)
    set(archs ${DYNG_CUDA_RELEASE_ARCHITECTURES_12_0})
  else()
    message(FATAL_ERROR
      "DYNG_CUDA_ARCHITECTURES=release: CUDA ${toolkit_version} has no release list; "
      "use CUDA 12.0 or newer (12.9 or the latest 13.x for the plugin wheels).")
  endif()
  set(${out_var} ${archs} PARENT_SCOPE)
endfunction()

# Applies DYNG_CUDA_ARCHITECTURES after enable_language(CUDA), when the toolkit version is known;
# targets created afterwards take CMAKE_CUDA_ARCHITECTURES as their default.
function(dyng_apply_cuda_architectures toolkit_version)
  if(DYNG_CUDA_ARCHITECTURES STREQUAL "release")
    dyng_cuda_release_architectures("${toolkit_version}" archs)
  elseif(NOT DYNG_CUDA_ARCHITECTURES STREQUAL "")
    set(archs ${DYNG_CUDA_ARCHITECTURES})
  else()
    return()
  endif()
  set(CMAKE_CUDA_ARCHITECTURES ${archs} PARENT_SCOPE)
  message(STATUS "dyng: CUDA architectures ${archs} (DYNG_CUDA_ARCHITECTURES=${DYNG_CUDA_ARCHITECTURES})")
endfunction()
