#!/usr/bin/env bash
# Builds the wheel sets that a GPU call carries and bench/gpu/compare_wheels.sh reads
# (docs/developer/testing.md, "A change timed against the build before it"): for each NAME=REF,
# the cu13 plugin for the lent machines' architecture (90-real) and the CPU wheel of git ref REF,
# into .gpu-carry/dist-NAME. Each ref is built in its own worktree, build/gpu-carry/NAME, so the
# working tree is left as it is and a second run for the same NAME rebuilds only what changed.
# Carry `.gpu-carry` (the device tool's `carry`) and run compare_wheels.sh there.
#
#   ci/gpu_carry.sh base=main new=HEAD          # two sets; the refs may be branches or commits
#   CUDA_ARCHITECTURES=90-real ci/gpu_carry.sh new=HEAD
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
  tree=build/gpu-carry/$name out=$root/.gpu-carry/dist-$name
  if [ -d "$tree" ]; then
    git -C "$tree" checkout --quiet --detach "$commit"
  else
    # Each worktree sets up its own toolchains (build/wheel-toolchains): their compiler wrappers
    # hold the checkout's absolute path, so a shared copy would point at the last worktree.
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
