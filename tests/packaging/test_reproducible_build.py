"""cmake/dyng_reproducible.cmake: a small module built and installed from two folders whose
paths differ in length and name is byte for byte the same, and names neither folder. The probe
is made like dyng's Python module: prefix-mapped sources, OpenMP where found, a shared library
from inside the checkout on its link line (the PyPI toolchain's libomp lies under build/), then
installed the way scikit-build-core installs the module. Control builds show that the test can
fail: without the prefix maps the folder shows; without dyng_link_for_install() the build-tree
RUNPATH, which CMake's install only zero-fills, makes the bytes follow the folder's length. With
nvcc, a small CUDA library with an anonymous-namespace kernel is the same from two folders with
dyng_seed_cuda_sources(), and differs without it (nvcc draws a random number for such names).
The full wheels are compared by ci/check_reproducible.py (docs/developer/wheels.md,
"Reproducible wheels")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import reproducible  # noqa: E402

SOURCE = r"""
#include "inc/where.hpp"
#include <cassert>
extern "C" int probe_runtime_answer();
extern "C" const char* probe_file() { return where_header(); }
extern "C" const char* probe_self() { return __FILE__; }
extern "C" int probe_sum(int n) {
  int total = probe_runtime_answer();
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < n; ++i) total += i;
  assert(total >= 0);
  return total;
}
"""
HEADER = "inline const char* where_header() { return __FILE__; }\n"
RUNTIME_SOURCE = 'extern "C" int probe_runtime_answer() { return 0; }\n'

# Two checkouts whose paths differ in length and in name (a same-length pair hides anything that
# only shifts the layout), plus the controls.
FOLDERS = ("a", "checkout-with-a-longer-name")


def _tool(name):
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def _cmakelists(*, mapped: bool, linked_for_install: bool) -> str:
    lines = [
        "cmake_minimum_required(VERSION 3.26)",
        "project(probe LANGUAGES CXX)",
        "set(DYNG_ENABLE_CUDA OFF)",
    ]
    if mapped:
        lines.append(f"include({(ROOT / 'cmake' / 'dyng_reproducible.cmake').as_posix()})")
    lines += [
        "find_package(OpenMP)",
        # Stands in for the toolchain's libomp, a shared library inside the checkout: the
        # module's build-tree RUNPATH names its folder.
        "add_library(probe_runtime SHARED runtime.cpp)",
        "add_library(probe MODULE probe.cpp)",
        "target_link_libraries(probe PRIVATE probe_runtime)",
        "if(OpenMP_CXX_FOUND)",
        "  target_link_libraries(probe PRIVATE OpenMP::OpenMP_CXX)",
        "endif()",
    ]
    if linked_for_install:
        lines.append("dyng_link_for_install(probe)")
    lines.append("install(TARGETS probe LIBRARY DESTINATION probe)")
    return "\n".join(lines) + "\n"


def _build(folder: Path, *, mapped: bool, linked_for_install: bool) -> dict[str, bytes]:
    """Builds and installs the probe in ``folder``: the build tree's and the installed bytes."""
    project = folder / "probe-src"
    (project / "inc").mkdir(parents=True)
    (project / "probe.cpp").write_text(SOURCE)
    (project / "runtime.cpp").write_text(RUNTIME_SOURCE)
    (project / "inc" / "where.hpp").write_text(HEADER)
    (project / "CMakeLists.txt").write_text(
        _cmakelists(mapped=mapped, linked_for_install=linked_for_install)
    )
    build = project / "build"
    cmake, ninja = _tool("cmake"), _tool("ninja")
    generator = ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={ninja}"] if ninja else []
    subprocess.run(
        [cmake, "-S", str(project), "-B", str(build), "-DCMAKE_BUILD_TYPE=Debug", *generator],
        check=True,
        capture_output=True,
    )
    subprocess.run([cmake, "--build", str(build)], check=True, capture_output=True)
    # scikit-build-core installs the module into the wheel's staging folder the same way.
    subprocess.run(
        [cmake, "--install", str(build), "--prefix", str(folder / "installed")],
        check=True,
        capture_output=True,
    )
    (built,) = build.glob("libprobe.so*")
    (installed,) = (folder / "installed" / "probe").glob("libprobe.so*")
    return {"built": built.read_bytes(), "installed": installed.read_bytes()}


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    if _tool("cmake") is None:
        pytest.skip("cmake is not installed")
    base = tmp_path_factory.mktemp("repro")
    assert len(FOLDERS[0]) != len(FOLDERS[1])
    variants = {
        "reproducible": dict(mapped=True, linked_for_install=True),
        "build-rpath": dict(mapped=True, linked_for_install=False),
    }
    made = {
        (variant, folder): _build(base / variant / folder, **options)
        for variant, options in variants.items()
        for folder in FOLDERS
    }
    made[("unmapped", FOLDERS[0])] = _build(
        base / "unmapped" / FOLDERS[0], mapped=False, linked_for_install=False
    )
    return made, base


def test_two_folders_of_different_lengths_give_the_same_bytes(builds):
    made, _ = builds
    a, b = (made[("reproducible", folder)] for folder in FOLDERS)
    assert a["installed"] == b["installed"]
    assert a["built"] == b["built"]


def test_no_folder_of_the_build_machine_is_named(builds):
    made, base = builds
    for folder in FOLDERS:
        for stage, data in made[("reproducible", folder)].items():
            assert str(base).encode() not in data, (folder, stage)
    # Debug info and __FILE__ name the mapped folders instead.
    installed = made[("reproducible", FOLDERS[0])]["installed"]
    assert b"dyng-build" in installed or b"dyng/" in installed


def test_without_the_maps_the_folder_shows(builds):
    made, base = builds
    assert str(base).encode() in made[("unmapped", FOLDERS[0])]["installed"]


def test_a_build_tree_rpath_makes_the_bytes_follow_the_folder(builds):
    made, base = builds
    a, b = (made[("build-rpath", folder)] for folder in FOLDERS)
    # The build tree's RUNPATH names the folder; the install removes the entry but leaves its
    # bytes (zeroed) in .dynstr, so the installed modules differ although neither names it.
    assert str(base / "build-rpath").encode() in a["built"]
    assert str(base).encode() not in a["installed"]
    assert a["installed"] != b["installed"]


def test_the_python_module_is_linked_like_the_probe():
    # The probe stands for dyng's module only while the module is built the same way.
    cmake = (ROOT / "python" / "CMakeLists.txt").read_text()
    assert "dyng_link_for_install(_core)" in cmake


def _wheel(path: Path, files: dict[str, bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data)
    return path


def test_the_wheel_comparison_names_the_file_that_differs(tmp_path):
    name = "dyng-1.0-cp312-abi3-manylinux_2_28_x86_64.whl"
    files = {"dyng/__init__.py": b"", "dyng/_core.abi3.so": b"ELF" + b"X" * 8 + b"rest"}
    longer = {**files, "dyng/_core.abi3.so": b"ELF" + b"X" * 10 + b"rest"}
    for folder, contents in (("a", files), ("b", files), ("c", longer)):
        _wheel(tmp_path / folder / name, contents)
    (same,) = reproducible.compare_dists(tmp_path / "a", tmp_path / "b", ["dyng-1.0-"])
    assert same.same and same.members == [] and same.digests[0] == same.digests[1]
    (different,) = reproducible.compare_dists(tmp_path / "a", tmp_path / "c", ["dyng-1.0-"])
    assert not different.same
    assert different.members == ["dyng/_core.abi3.so: 15 and 17 bytes, first difference at byte 11"]
    (missing,) = reproducible.compare_dists(tmp_path / "a", tmp_path / "empty", ["dyng-1.0-"])
    assert not missing.same and missing.digests[1] is None


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
        (str(p) for p in (Path("/usr/local/cuda/bin/nvcc"),) if p.exists()), None
    )


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
        "target_link_options(probe PRIVATE -s)\n" + seed + "\n"
    )
    build = project / "build"
    cmake, ninja = _tool("cmake"), _tool("ninja")
    generator = ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={ninja}"] if ninja else []
    subprocess.run(
        [
            cmake,
            "-S",
            str(project),
            "-B",
            str(build),
            "-DCMAKE_BUILD_TYPE=Release",
            f"-DCMAKE_CUDA_COMPILER={nvcc}",
            "-DCMAKE_CUDA_ARCHITECTURES=90-real",
            *generator,
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run([cmake, "--build", str(build)], check=True, capture_output=True)
    (library,) = build.glob("libprobe.so*")
    return library.read_bytes()


@pytest.fixture(scope="module")
def cuda_builds(tmp_path_factory):
    nvcc = _nvcc()
    if _tool("cmake") is None or nvcc is None:
        pytest.skip("needs cmake and nvcc")
    base = tmp_path_factory.mktemp("repro-cuda")
    return {
        name: _build_cuda(base / name, nvcc, seeded=not name.startswith("unseeded"))
        for name in ("checkout-a", "another/checkout-b", "unseeded-a", "unseeded-b")
    }


def test_cuda_objects_are_the_same_from_two_folders(cuda_builds):
    assert cuda_builds["checkout-a"] == cuda_builds["another/checkout-b"]


def test_without_the_seeds_nvcc_names_differ(cuda_builds):
    assert cuda_builds["unseeded-a"] != cuda_builds["unseeded-b"]
