"""Runs scikit-build-core on a prepared source tree with a provider's toolchain.

The build runs without isolation inside the toolchain venv (whose pinned scikit-build-core and
nanobind are the build requirements), so nothing is fetched. Its CMake build folder lives under
build/wheels-obj/<flavour>, outside the source tree, and is kept between runs: that cache is what
makes a rebuild after a small change take minutes instead of the full compile.
"""

from __future__ import annotations

from pathlib import Path

from . import log
from .toolchain import Toolchain


def config_settings(
    toolchain: Toolchain, build_dir: Path, extra_defines: dict[str, str]
) -> list[str]:
    """pip --config-settings for scikit-build-core: build folder plus every CMake define."""
    settings = [f"build-dir={build_dir}"]
    for key, value in {**toolchain.cmake_defines, **extra_defines}.items():
        settings.append(f"cmake.define.{key}={value}")
    return settings


def build_wheel(
    toolchain: Toolchain,
    python: Path,
    tree: Path,
    out_dir: Path,
    build_dir: Path,
    *,
    extra_defines: dict[str, str],
    env: dict[str, str],
) -> Path:
    """Builds one wheel from ``tree`` into ``out_dir``; returns its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.whl"):
        old.unlink()
    command = [
        python,
        "-m",
        "pip",
        "wheel",
        "--no-build-isolation",
        "--no-deps",
        "--disable-pip-version-check",
        "--wheel-dir",
        out_dir,
        tree,
    ]
    for setting in config_settings(toolchain, build_dir, extra_defines):
        command += ["--config-settings", setting]
    # -v: scikit-build-core's CMake and compiler output is the build's progress report.
    log.run([*command, "-v"], env={**toolchain.env, **env})
    wheels = sorted(out_dir.glob("*.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"expected one wheel in {out_dir}, found {[w.name for w in wheels]}")
    return wheels[0]
