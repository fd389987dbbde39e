"""Licence files and expressions of the wheels (ADR 0030 item 9).

The CPU wheel's licence comes from the root pyproject.toml. A plugin wheel carries the same files
plus THIRD_PARTY_LICENSES_CUDA.txt (committed) and NVIDIA_CUDA_EULA.txt, the EULA of the toolkit it
was built with, which the provider finds and :func:`copy_eula` puts into the plugin's source tree.
The EULA is not committed: it is NVIDIA's text and changes with the toolkit.
"""

from __future__ import annotations

import shutil
from pathlib import Path

CUDA_THIRD_PARTY = "THIRD_PARTY_LICENSES_CUDA.txt"
EULA_NAME = "NVIDIA_CUDA_EULA.txt"
# conda-forge's identifier for the CUDA runtime's licence.
NVIDIA_EULA_ID = "LicenseRef-NVIDIA-End-User-License-Agreement"
# What a plugin adds to the CPU wheel's licence expression: the CUDA runtime, under NVIDIA's
# EULA. (libcu++ and NVTX, Apache-2.0 WITH LLVM-exception, and CUB's BSD-3-Clause are terms the CPU
# expression already has.)
PLUGIN_EXTRA_TERMS = ("Apache-2.0 WITH LLVM-exception", NVIDIA_EULA_ID)
# The expression of the CPU wheel (pyproject.toml's project.license) and of the plugins; a test
# keeps the first equal to pyproject.toml.
CPU_LICENSE_EXPRESSION = (
    "Apache-2.0 AND BSD-3-Clause AND MIT AND GPL-3.0-or-later WITH "
    "GCC-exception-3.1 AND Apache-2.0 WITH LLVM-exception"
)


class LicenceError(RuntimeError):
    """A licence file the wheel must carry is missing."""


def plugin_expression(cpu_expression: str) -> str:
    """The CPU expression plus the terms a plugin adds (each once)."""
    terms = [t.strip() for t in cpu_expression.split(" AND ")]
    for extra in PLUGIN_EXTRA_TERMS:
        if extra not in terms:
            terms.append(extra)
    return " AND ".join(terms)


PLUGIN_LICENSE_EXPRESSION = plugin_expression(CPU_LICENSE_EXPRESSION)


def plugin_licence_files(cpu_files: list[str]) -> list[str]:
    return [*cpu_files, CUDA_THIRD_PARTY, EULA_NAME]


def copy_eula(eula: Path | None, tree: Path) -> Path:
    """Copies the toolkit's EULA into the plugin tree; a plugin build stops without one."""
    if eula is None or not eula.is_file():
        raise LicenceError(
            f"the NVIDIA CUDA EULA was not found ({eula}); a plugin wheel must carry the EULA of "
            "the toolkit it links. The pypi provider takes it from the CUDA runtime wheel, the "
            "conda provider from cuda-cudart-static; pass --cuda-eula PATH to name it yourself."
        )
    text = eula.read_text(errors="replace")
    if "NVIDIA" not in text or len(text) < 1000:
        raise LicenceError(
            f"{eula} does not look like NVIDIA's CUDA EULA ({len(text)} "
            "characters); pass the toolkit's EULA.txt with --cuda-eula"
        )
    target = tree / EULA_NAME
    shutil.copyfile(eula, target)
    return target


def require_cuda_third_party(tree: Path) -> Path:
    path = tree / CUDA_THIRD_PARTY
    if not path.is_file():
        raise LicenceError(
            f"{path} is missing: the core sdist must include {CUDA_THIRD_PARTY} "
            "(pyproject.toml sdist.include)"
        )
    return path
