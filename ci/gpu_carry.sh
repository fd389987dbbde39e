#!/usr/bin/env bash
# Builds the wheel sets that a GPU call carries and bench/gpu/compare_wheels.sh reads
# (docs/developer/testing.md, "A change timed against the build before it"): for each NAME=REF,
# the cu13 plugin for the lent machines' architecture (90-real) and the CPU wheel of git ref REF,
# into .gpu-carry/dist-NAME. Every ref is built in one worktree, build/gpu-carry/tree, checked
# out at each ref in turn: the working tree is left as it is, and after the first ref a build
# recompiles only what the checkout changed (ninja reads the files' times), so a second ref that
# differs in a few files takes a minute or two instead of a whole build. The toolchains are set
# up once, for that worktree (their compiler wrappers hold its absolute path).
# Carry `.gpu-carry` (the device tool's `carry`) and run compare_wheels.sh there.
#
#   ci/gpu_carry.sh base=main new=HEAD          # two sets; the refs may be branches or commits
#   CUDA_ARCHITECTURES=90-real ci/gpu_carry.sh new=HEAD
#   CPP_TESTS="test_components_cuda test_module_preload_cuda" ci/gpu_carry.sh base=main new=HEAD
# CPP_TESTS: C++ GPU test targets built for the last NAME (the dev-cuda preset, in the same
# worktree) and put, stripped, in .gpu-carry/cpp, where compare_wheels.sh runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
archs=${CUDA_ARCHITECTURES:-90-real}
[ $# -gt 0 ] || {
  echo "usage: ci/gpu_carry.sh NAME=REF [NAME=REF ...]" >&2
  exit 2
}
for spec in "$@"; do
  name=${spec%%=*} ref=${spec#*=}
  if [ "$name" = "$spec" ] || [ -z "$name" ] || [ -z "$ref" ]; then
    echo "ci/gpu_carry.sh: '$spec' is not NAME=REF (for example new=HEAD)" >&2
    exit 2
  fi
  commit=$(git rev-parse --verify --quiet "$ref^{commit}") || {
    echo "ci/gpu_carry.sh: '$ref' names no commit here; commit the change or name a branch" >&2
    exit 2
  }
  tree=build/gpu-carry/tree out=$root/.gpu-carry/dist-$name
  if [ -d "$tree" ]; then
    git -C "$tree" checkout --quiet --detach "$commit"
  else
    git worktree add --quiet --detach "$tree" "$commit"
  fi
  rm -rf "$out"
  echo "[gpu-carry] $name = $ref ($(git log -1 --format='%h %s' "$commit" | cut -c1-80))"
  for target in cu13 cpu; do
    (cd "$tree" && nice python3 ci/build.py "$target" --cuda-architectures "$archs" \
      --no-install-test --out "$out") >"$root/build/gpu-carry/$name-$target.log" 2>&1 || {
      echo "ci/gpu_carry.sh: the $target wheel of $name failed; see build/gpu-carry/$name-$target.log" >&2
      exit 1
    }
  done
  ls "$out"
done
if [ -n "${CPP_TESTS:-}" ]; then
  cpp=$root/.gpu-carry/cpp
  rm -rf "$cpp" && mkdir -p "$cpp"
  echo "[gpu-carry] C++ GPU tests of $name: $CPP_TESTS"
  # shellcheck disable=SC2086  # CPP_TESTS is a list of target names
  (cd "$tree" && cmake --preset dev-cuda && nice cmake --build build/dev-cuda --target $CPP_TESTS) \
    >"$root/build/gpu-carry/cpp-tests.log" 2>&1 || {
    echo "ci/gpu_carry.sh: the C++ GPU tests failed to build; see build/gpu-carry/cpp-tests.log" >&2
    exit 1
  }
  for test in $CPP_TESTS; do
    found=$(find "$tree/build/dev-cuda" -type f -name "$test" -perm -u+x | head -1)
    [ -n "$found" ] || {
      echo "ci/gpu_carry.sh: no binary $test under $tree/build/dev-cuda" >&2
      exit 1
    }
    strip -o "$cpp/$test" "$found"
  done
  ls -la "$cpp"
fi
