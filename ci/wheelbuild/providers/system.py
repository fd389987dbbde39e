"""The system provider: whatever compilers and CUDA toolkit are on PATH, for quick local builds.

Nothing is pinned; the wheel gets the best manylinux tag the system's glibc allows (with Debian
12's toolchain that is manylinux_2_36, not the release's 2_28), and the driver says so.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ..toolchain import Toolchain, ToolchainError

_NVCC_RELEASE = re.compile(r"release (\d+)\.(\d+), V([\d.]+)")


def system_glibc() -> str:
    name, version = platform.libc_ver()
    if name != "glibc" or not version:
        raise ToolchainError("the system provider needs a glibc-based Linux")
    return version


def nvcc_version(nvcc: Path) -> str:
    out = subprocess.run([str(nvcc), "--version"], capture_output=True, text=True).stdout
    match = _NVCC_RELEASE.search(out)
    if not match:
        raise ToolchainError(f"{nvcc} --version did not print a CUDA release:\n{out}")
    return match.group(3)


def system_toolchain(cuda_major: int | None) -> Toolchain:
    glibc = system_glibc()
    major, minor = glibc.split(".")[:2]
    env = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    notes = [
        f"system compilers; best tag for glibc {glibc} is manylinux_{major}_{minor} "
        "(a release needs the pypi or conda provider for manylinux_2_28)"
    ]
    fields: dict = dict(cuda_version=None, cuda_root=None, nvcc=None, eula=None)
    defines: dict[str, str] = {}
    if cuda_major is not None:
        found = os.environ.get("CUDACXX") or shutil.which("nvcc")
        if not found:
            raise ToolchainError(
                "no nvcc on PATH (or $CUDACXX); install a CUDA toolkit or use --provider pypi"
            )
        nvcc = Path(found).resolve()
        version = nvcc_version(nvcc)
        if int(version.split(".")[0]) != cuda_major:
            raise ToolchainError(
                f"{nvcc} is CUDA {version}, but cu{cuda_major} needs a CUDA "
                f"{cuda_major}.x nvcc; put one first on PATH or use --provider "
                "pypi"
            )
        root = nvcc.parent.parent
        eula = root / "EULA.txt"
        fields = dict(
            cuda_version=version, cuda_root=root, nvcc=nvcc, eula=eula if eula.is_file() else None
        )
        defines = {"CMAKE_CUDA_COMPILER": str(nvcc), "CUDAToolkit_ROOT": str(root)}
        notes.append(f"CUDA {version} at {root}")
    return Toolchain(
        provider="system",
        cuda_major=cuda_major,
        glibc=glibc,
        platform_tag=f"manylinux_{major}_{minor}_x86_64",
        cmake_defines=defines,
        env=env,
        notes=tuple(notes),
        **fields,
    )
