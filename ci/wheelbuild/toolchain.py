"""What every toolchain provider (conda, pypi, system) hands to the build step.

A provider finds or makes a compiler set and, for a plugin, a CUDA toolkit of the requested major;
the build step only reads this record, so it never needs to know where the tools came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


class ToolchainError(RuntimeError):
    """A provider cannot deliver what was asked; the message says what is missing and how to fix it."""


@dataclass(frozen=True)
class Toolchain:
    provider: str  # "conda", "pypi" or "system"
    cuda_major: int | None  # None for the CPU wheel
    cuda_version: str | None  # full toolkit version, e.g. "13.0.2"; None for CPU
    cuda_root: Path | None  # passed as CUDAToolkit_ROOT
    nvcc: Path | None  # passed as CMAKE_CUDA_COMPILER
    eula: Path | None  # NVIDIA's CUDA EULA text; required for a plugin
    glibc: str  # glibc the binaries target, e.g. "2.28"
    platform_tag: str  # best wheel tag reachable, e.g. "manylinux_2_28_x86_64"
    cmake_defines: dict[str, str] = field(default_factory=dict)  # extra -D for the build
    env: dict[str, str] = field(default_factory=dict)  # CC, CXX, CUDAHOSTCXX, PATH...
    notes: tuple[str, ...] = ()  # anything the log should say about this toolchain
