#!/usr/bin/env bash
# rattler-build script of the libdyng output: the static library, its headers and its CMake
# package, installed into $PREFIX. $CMAKE_ARGS comes from conda-forge's compiler activation
# (sysroot-aware find paths, the toolchain's ar/ranlib); DYNG_CUDA_COMPILER_VERSION from the recipe.
set -euo pipefail

log() { printf '[libdyng] %s\n' "$*" >&2; }

cuda_options=(-DDYNG_ENABLE_CUDA=OFF)
if [[ "${DYNG_CUDA_COMPILER_VERSION:-None}" != "None" ]]; then
  # The release list of architectures (cmake/cuda_architectures.cmake) and the static runtime,
  # as in the plugin wheels; conda-forge's nvcc activation would otherwise pick CUDAARCHS.
  cuda_options=(-DDYNG_ENABLE_CUDA=ON -DDYNG_CUDA_ARCHITECTURES=release
                -DCMAKE_CUDA_RUNTIME_LIBRARY=Static)
fi

log "configuring (CUDA compiler: ${DYNG_CUDA_COMPILER_VERSION:-None})"
# shellcheck disable=SC2086  # CMAKE_ARGS is a list of arguments by design.
cmake -S "$SRC_DIR" -B build-libdyng -G Ninja ${CMAKE_ARGS:-} \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$PREFIX" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -DDYNG_BUILD_TESTS=OFF \
  -DDYNG_BUILD_PYTHON=OFF \
  -DDYNG_ENABLE_OPENMP=ON \
  "${cuda_options[@]}"

log "building with ${CPU_COUNT:-2} jobs"
cmake --build build-libdyng --parallel "${CPU_COUNT:-2}"

log "installing into $PREFIX"
cmake --install build-libdyng
