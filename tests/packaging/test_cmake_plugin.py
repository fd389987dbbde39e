"""CMake's refusals for plugin and CUDA-runtime settings (ADR 0030 items 2, 4, 5): configure-only
runs that must fail in dyng_options.cmake with a message saying what to pass instead, plus the
release architecture lists of cmake/cuda_architectures.cmake.

The refusals come before any CUDA compiler probing, so these runs need no CUDA toolkit; only the
compiler-major check needs nvcc and is skipped without one.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import architectures  # noqa: E402


def _tool(name: str) -> str | None:
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


CMAKE = _tool("cmake")
NINJA = _tool("ninja")
pytestmark = pytest.mark.skipif(CMAKE is None, reason="needs cmake")


def configure(build: Path, **defines: str) -> subprocess.CompletedProcess:
    args = [
        CMAKE,
        "-S",
        str(ROOT),
        "-B",
        str(build),
        "-DDYNG_BUILD_TESTS=OFF",
        "-DDYNG_BUILD_PYTHON=OFF",
    ]
    if NINJA:
        args += ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={NINJA}"]
    args += [f"-D{key}={value}" for key, value in defines.items()]
    return subprocess.run(args, capture_output=True, text=True)


def refused(build: Path, pattern: str, **defines: str) -> None:
    done = configure(build, **defines)
    output = re.sub(r"\s+", " ", done.stdout + done.stderr)
    assert done.returncode != 0, f"configure with {defines} should have failed:\n{output[-2000:]}"
    assert re.search(pattern, output), f"no {pattern!r} in:\n{output[-3000:]}"


def test_plugin_needs_cuda(tmp_path):
    refused(
        tmp_path,
        r"DYNG_PYTHON_PLUGIN=cu13 builds a module with every backend; pass "
        r"-DDYNG_ENABLE_CUDA=ON -DDYNG_ENABLE_OPENMP=ON",
        DYNG_PYTHON_PLUGIN="cu13",
        DYNG_ENABLE_CUDA="OFF",
        DYNG_ENABLE_OPENMP="ON",
    )


def test_plugin_needs_openmp(tmp_path):
    refused(
        tmp_path,
        r"OpenMP=OFF",
        DYNG_PYTHON_PLUGIN="cu12",
        DYNG_ENABLE_CUDA="ON",
        DYNG_ENABLE_OPENMP="OFF",
    )


def test_plugin_needs_the_static_runtime(tmp_path):
    refused(
        tmp_path,
        r"links the CUDA runtime statically.*CMAKE_CUDA_RUNTIME_LIBRARY=Static",
        DYNG_PYTHON_PLUGIN="cu13",
        DYNG_ENABLE_CUDA="ON",
        DYNG_ENABLE_OPENMP="ON",
        CMAKE_CUDA_RUNTIME_LIBRARY="Shared",
    )


def test_static_runtime_with_shared_libs_is_refused(tmp_path):
    refused(
        tmp_path,
        r"BUILD_SHARED_LIBS=ON would put one CUDA runtime",
        DYNG_ENABLE_CUDA="ON",
        DYNG_ENABLE_OPENMP="OFF",
        CMAKE_CUDA_RUNTIME_LIBRARY="Static",
        BUILD_SHARED_LIBS="ON",
    )


def test_no_runtime_is_refused(tmp_path):
    refused(
        tmp_path,
        r"CMAKE_CUDA_RUNTIME_LIBRARY='None' is not supported",
        DYNG_ENABLE_CUDA="ON",
        DYNG_ENABLE_OPENMP="OFF",
        CMAKE_CUDA_RUNTIME_LIBRARY="None",
    )


def test_runtime_wheel_needs_the_shared_runtime(tmp_path):
    refused(
        tmp_path,
        r"DYNG_CUDA_RUNTIME_WHEEL=ON loads libcudart.*Shared",
        DYNG_PYTHON_PLUGIN="cu13",
        DYNG_ENABLE_CUDA="ON",
        DYNG_ENABLE_OPENMP="ON",
        DYNG_CUDA_RUNTIME_WHEEL="ON",
        CMAKE_CUDA_RUNTIME_LIBRARY="Static",
    )


def test_bad_plugin_name_is_refused(tmp_path):
    refused(
        tmp_path, r"DYNG_PYTHON_PLUGIN='cuda13' is not a plugin name", DYNG_PYTHON_PLUGIN="cuda13"
    )


def _nvcc_major() -> int | None:
    nvcc = shutil.which("nvcc")
    if not nvcc:
        return None
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"release (\d+)\.", out)
    return int(match.group(1)) if match else None


@pytest.mark.skipif(_nvcc_major() is None, reason="needs nvcc on PATH")
def test_plugin_major_must_match_the_compiler(tmp_path):
    other = "cu12" if _nvcc_major() != 12 else "cu13"
    refused(
        tmp_path,
        rf"DYNG_PYTHON_PLUGIN={other} needs a CUDA {other[2:]}\.x compiler",
        DYNG_PYTHON_PLUGIN=other,
        DYNG_ENABLE_CUDA="ON",
        DYNG_ENABLE_OPENMP="ON",
        CMAKE_CUDA_RUNTIME_LIBRARY="Static",
    )


def release_list_from_cmake(tmp_path: Path, version: str) -> subprocess.CompletedProcess:
    script = tmp_path / "list.cmake"
    script.write_text(
        f'include("{ROOT / "cmake" / "cuda_architectures.cmake"}")\n'
        f'dyng_cuda_release_architectures("{version}" archs)\n'
        'message(STATUS "ARCHS=${archs}")\n'
    )
    return subprocess.run([CMAKE, "-P", str(script)], capture_output=True, text=True)


@pytest.mark.parametrize("version", ["13.5.37", "13.0", "12.9.86", "12.8", "12.4"])
def test_release_lists_match_the_checker(tmp_path, version):
    done = release_list_from_cmake(tmp_path, version)
    listed = re.search(r"ARCHS=(\S*)", done.stdout + done.stderr).group(1).split(";")
    assert tuple(listed) == architectures.release_list(version)


def test_release_list_refuses_old_toolkits(tmp_path):
    done = release_list_from_cmake(tmp_path, "11.8")
    assert done.returncode != 0
    assert "CUDA 11.8 has no release list" in re.sub(r"\s+", " ", done.stderr)
