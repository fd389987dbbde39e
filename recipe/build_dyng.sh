#!/usr/bin/env bash
# rattler-build script of the dyng output: the Python package (dyng._core, sequential and OpenMP
# backends) and, in a CUDA variant, the plugin dyng_cu<N> (every backend, CUDA runtime linked
# statically) built from the tree the wheel driver renders. Both are pip-installed into $PREFIX
# from source with scikit-build-core, which honours $CMAKE_ARGS from the compiler activation.
set -euo pipefail

log() { printf '[dyng] %s\n' "$*" >&2; }
pip_install() {
  "$PYTHON" -m pip install "$1" --no-deps --no-build-isolation --disable-pip-version-check -vv \
    --config-settings=build-dir="$2"
}

log "installing dyng (CPU module) from $SRC_DIR"
pip_install "$SRC_DIR" "$SRC_DIR/build-conda/dyng"

if [[ "${DYNG_CUDA_COMPILER_VERSION:-None}" != "None" ]]; then
  plugin="cu${DYNG_CUDA_COMPILER_VERSION%%.*}"
  tree="$SRC_DIR/build-conda/tree-$plugin"
  log "rendering the dyng-$plugin source tree (CUDA $DYNG_CUDA_COMPILER_VERSION)"
  "$PYTHON" "$RECIPE_DIR/render_plugin.py" "$SRC_DIR" "$tree" "$plugin" "$PREFIX"
  log "installing dyng_$plugin from $tree"
  pip_install "$tree" "$SRC_DIR/build-conda/$plugin"
fi
