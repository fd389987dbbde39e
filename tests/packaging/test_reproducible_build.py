"""cmake/dyng_reproducible.cmake: a small library built from two different folders is byte for
byte the same, and names neither folder, while the same build without the prefix maps names its
folder (so the test can fail). With nvcc, a small CUDA library with an anonymous-namespace kernel
is the same from two folders with dyng_seed_cuda_sources(), and differs without it (nvcc draws a
random number for such names). The full wheels are compared by the procedure in
docs/developer/wheels.md ("Reproducible wheels")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SOURCE = r"""
#include "inc/where.hpp"
#include <cassert>
extern "C" const char* probe_file() { return where_header(); }
extern "C" const char* probe_self() { return __FILE__; }
extern "C" int probe_sum(int n) {
  int total = 0;
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < n; ++i) total += i;
  assert(total >= 0);
  return total;
}
"""
HEADER = "inline const char* where_header() { return __FILE__; }\n"


def _tool(name):
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def _build(folder: Path, *, mapped: bool) -> bytes:
    project = folder / "probe-src"
    (project / "inc").mkdir(parents=True)
    (project / "probe.cpp").write_text(SOURCE)
    (project / "inc" / "where.hpp").write_text(HEADER)
    include = f"include({(ROOT / 'cmake' / 'dyng_reproducible.cmake').as_posix()})" if mapped \
        else ""
    (project / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.26)\nproject(probe LANGUAGES CXX)\n"
        "set(DYNG_ENABLE_CUDA OFF)\n" + include + "\n"
        "find_package(OpenMP)\nadd_library(probe SHARED probe.cpp)\n"
        "if(OpenMP_CXX_FOUND)\n  target_link_libraries(probe PRIVATE OpenMP::OpenMP_CXX)\nendif()\n")
    build = project / "build"
    cmake, ninja = _tool("cmake"), _tool("ninja")
    generator = ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={ninja}"] if ninja else []
    subprocess.run([cmake, "-S", str(project), "-B", str(build), "-DCMAKE_BUILD_TYPE=Debug",
                    *generator], check=True, capture_output=True)
    subprocess.run([cmake, "--build", str(build)], check=True, capture_output=True)
    (library,) = build.glob("libprobe.so*")
    return library.read_bytes()


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    if _tool("cmake") is None:
        pytest.skip("cmake is not installed")
    base = tmp_path_factory.mktemp("repro")
    return {name: _build(base / name, mapped=name != "unmapped")
            for name in ("checkout-a", "another/checkout-b", "unmapped")}, base


def test_two_folders_give_the_same_bytes(builds):
    libraries, _ = builds
    assert libraries["checkout-a"] == libraries["another/checkout-b"]


def test_no_folder_of_the_build_machine_is_named(builds):
    libraries, base = builds
    for name in ("checkout-a", "another/checkout-b"):
        assert str(base).encode() not in libraries[name], name
    # Debug info and __FILE__ name the mapped folders instead.
    assert b"dyng-build" in libraries["checkout-a"] or b"dyng/" in libraries["checkout-a"]


def test_without_the_maps_the_folder_shows(builds):
    libraries, base = builds
    assert str(base).encode() in libraries["unmapped"]


CUDA_SOURCE = r"""
namespace {
__global__ void scale_kernel(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}
}  // namespace
extern "C" void probe_scale(float* x, int n) { scale_kernel<<<(n + 255) / 256, 256>>>(x, n); }
"""


def _nvcc():
    given = os.environ.get("CUDACXX")
    if given and Path(given).exists():
        return given
    return shutil.which("nvcc") or next(
        (str(p) for p in (Path("/usr/local/cuda/bin/nvcc"),) if p.exists()), None)


def _build_cuda(folder: Path, nvcc: str, *, seeded: bool) -> bytes:
    project = folder / "probe-src"
    project.mkdir(parents=True)
    (project / "probe.cu").write_text(CUDA_SOURCE)
    seed = "dyng_seed_cuda_sources(probe)" if seeded else ""
    (project / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.26)\nproject(probe LANGUAGES CXX CUDA)\n"
        "set(DYNG_ENABLE_CUDA ON)\n"
        f"include({(ROOT / 'cmake' / 'dyng_reproducible.cmake').as_posix()})\n"
        "add_library(probe SHARED probe.cu)\n"
        # The symbol table names nvcc's temporary files (tmpxft_<pid>_...); release modules
        # keep none (nanobind strips them), so neither does the probe.
        "target_link_options(probe PRIVATE -s)\n" + seed + "\n")
    build = project / "build"
    cmake, ninja = _tool("cmake"), _tool("ninja")
    generator = ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={ninja}"] if ninja else []
    subprocess.run([cmake, "-S", str(project), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                    f"-DCMAKE_CUDA_COMPILER={nvcc}", "-DCMAKE_CUDA_ARCHITECTURES=90-real",
                    *generator], check=True, capture_output=True)
    subprocess.run([cmake, "--build", str(build)], check=True, capture_output=True)
    (library,) = build.glob("libprobe.so*")
    return library.read_bytes()


@pytest.fixture(scope="module")
def cuda_builds(tmp_path_factory):
    nvcc = _nvcc()
    if _tool("cmake") is None or nvcc is None:
        pytest.skip("needs cmake and nvcc")
    base = tmp_path_factory.mktemp("repro-cuda")
    return {name: _build_cuda(base / name, nvcc, seeded=not name.startswith("unseeded"))
            for name in ("checkout-a", "another/checkout-b", "unseeded-a", "unseeded-b")}


def test_cuda_objects_are_the_same_from_two_folders(cuda_builds):
    assert cuda_builds["checkout-a"] == cuda_builds["another/checkout-b"]


def test_without_the_seeds_nvcc_names_differ(cuda_builds):
    assert cuda_builds["unseeded-a"] != cuda_builds["unseeded-b"]
