"""The CUDA 13 tree of the pypi provider (site-packages/nvidia/cu13) is checked before it builds.

NVTX's headers are optional to the compiler (src/dyng/backend/cuda/profile_device.cpp tests for
them), so a tree without them would build a plugin that emits no NVTX ranges; the provider
refuses such a tree instead.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild.providers import pypi  # noqa: E402
from wheelbuild.toolchain import ToolchainError  # noqa: E402


def fake_tree(tmp_path: Path) -> Path:
    root = tmp_path / "nvidia" / "cu13"
    for rel in pypi.CUDA13_REQUIRED:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("")
    return root


def test_complete_tree_gives_its_nvcc(tmp_path):
    root = fake_tree(tmp_path)
    assert pypi.cuda13_nvcc(root) == root / "bin" / "nvcc"


@pytest.mark.parametrize("rel", pypi.CUDA13_REQUIRED)
def test_missing_part_names_the_extra_and_the_fix(tmp_path, rel):
    root = fake_tree(tmp_path)
    (root / rel).unlink()
    wanted = r"cuda-toolkit\[nvcc,cccl,cudart,nvtx\].*lock\.py cu13"
    with pytest.raises(ToolchainError, match=wanted):
        pypi.cuda13_nvcc(root)
