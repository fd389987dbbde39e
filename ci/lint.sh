#!/usr/bin/env bash
# The project's linters and type check, as CI runs them: ruff (lint, then the format check) over
# the Python tree, clang-format over the tracked C++/CUDA files, and mypy over the packages and
# their stubs. The tools are pinned in ci/lint-tools.txt and installed into their own venv
# (build/lint-tools), reinstalled only when that file changes; .pre-commit-config.yaml runs the
# checks one by one through this script, so the pins live in one place.
# Usage: ci/lint.sh [ruff] [format] [clang-format] [mypy]   (no argument: all four, in that order)
# To fix what it reports: build/lint-tools/bin/ruff check --fix . ; build/lint-tools/bin/ruff
# format . ; git ls-files '*.cpp' '*.hpp' '*.h' '*.cc' '*.cu' '*.cuh' | xargs
# build/lint-tools/bin/clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/tool_venv.sh

log() { printf '[lint %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

venv=build/lint-tools
dyng_tool_venv ci/lint-tools.txt "$venv" log

ruff_check() {
  log "ruff check (pyproject.toml [tool.ruff.lint])"
  "$venv/bin/ruff" check --no-cache .
}

ruff_format() {
  log "ruff format --check"
  "$venv/bin/ruff" format --no-cache --check .
}

clang_format() {
  local sources
  mapfile -d '' sources < <(git ls-files -z '*.cpp' '*.hpp' '*.h' '*.cc' '*.cu' '*.cuh')
  log "clang-format --dry-run --Werror: ${#sources[@]} C++/CUDA files (.clang-format)"
  "$venv/bin/clang-format" --dry-run --Werror "${sources[@]}"
}

type_check() {
  log "mypy (pyproject.toml [tool.mypy]): dyng, dyng_plugin and their stubs"
  "$venv/bin/mypy" --no-incremental
}

checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(ruff format clang-format mypy)
for check in "${checks[@]}"; do
  case "$check" in
    ruff) ruff_check ;;
    format) ruff_format ;;
    clang-format) clang_format ;;
    mypy) type_check ;;
    *) echo "ci/lint.sh: unknown check '$check'; pass ruff, format, clang-format or mypy" >&2
       exit 2 ;;
  esac
done
log "passed: ${checks[*]}"
