"""Chooses the toolchain provider (--provider auto|conda|pypi|system) and asks it for one."""

from __future__ import annotations

import os
from pathlib import Path

from .. import pins
from ..toolchain import Toolchain, ToolchainError

PROVIDERS = ("auto", "conda", "pypi", "system")


def resolve(provider: str) -> str:
    """auto: the active conda/pixi environment when there is one, else the PyPI toolchain."""
    if provider != "auto":
        return provider
    prefix = os.environ.get("CONDA_PREFIX")
    if prefix and (Path(prefix) / "conda-meta").is_dir():
        return "conda"
    return "pypi"


def toolchain_for(provider: str, cuda_major: int | None, *, work: Path) -> Toolchain:
    chosen = resolve(provider)
    if chosen == "pypi":
        from .pypi import pypi_toolchain

        return pypi_toolchain(cuda_major, work=work)
    if chosen == "system":
        from .system import system_toolchain

        return system_toolchain(cuda_major)
    if chosen == "conda":
        prefix = os.environ.get("CONDA_PREFIX")
        if not prefix:
            raise ToolchainError(
                "--provider conda needs an active conda or pixi environment "
                "($CONDA_PREFIX); create it from ci/wheel-toolchain.yml or run "
                "through pixi"
            )
        # Imported here: the conda provider is its own module (issue 6) and optional for the rest.
        from .conda import conda_toolchain

        expected = pins.cuda_version_for(cuda_major) if cuda_major is not None else None
        return conda_toolchain(Path(prefix), cuda_major, expected_cuda_version=expected)
    raise ToolchainError(f"unknown provider {provider!r}; use one of {', '.join(PROVIDERS)}")
