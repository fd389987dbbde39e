"""Builds the stand-in driver libraries (fake_cuda.c, fake_nvml.c) for the test suites that
probe a driver: tests/plugin and tests/selection load this file by path."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent


def compile_fake(source: Path, target: Path, suite: str) -> None:
    """Compiles one fake library; `suite` names the test folder in the error message."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise RuntimeError(
            f"{suite} need a C compiler (cc or gcc) on PATH to build the fake "
            "driver libraries; install gcc"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [cc, "-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o", str(target), str(source)],
        check=True,
    )


def build_driver_fakes(root: Path, suite: str) -> dict[str, Path]:
    """``root/cuda/libcuda.so.1`` and ``root/nvml/libnvidia-ml.so.1``; returns their folders."""
    compile_fake(HERE / "fake_cuda.c", root / "cuda" / "libcuda.so.1", suite)
    compile_fake(HERE / "fake_nvml.c", root / "nvml" / "libnvidia-ml.so.1", suite)
    return {name: root / name for name in ("cuda", "nvml")}
