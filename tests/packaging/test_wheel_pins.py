"""The pypi provider's lock files agree with pins.py and are fully hash-pinned."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import lock, pins  # noqa: E402

LOCKS = ROOT / "ci" / "wheel-requirements"
LINE = re.compile(
    r"^(?P<name>[a-z0-9-]+)(\[[a-z0-9,-]+\])?==(?P<version>\S+)"
    r"(?P<hashes>( --hash=sha256:[0-9a-f]{64})+)$"
)


def locked(flavour: str) -> dict[str, str]:
    found = {}
    for line in (LOCKS / f"{flavour}.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        match = LINE.match(line)
        assert match, f"{flavour}.txt: not a hash-pinned requirement: {line[:100]}"
        found[match.group("name")] = match.group("version")
    return found


@pytest.mark.parametrize("flavour", lock.FLAVOURS)
def test_every_input_is_locked_at_its_pin(flavour):
    versions = locked(flavour)
    pinned = {}
    for in_file in (LOCKS / f"{flavour}.in", LOCKS / "tools.in"):
        for line in in_file.read_text().splitlines():
            match = re.match(r"^([A-Za-z0-9._-]+)(\[[^\]]*\])?==(\S+)", line.strip())
            if match:
                pinned[lock.canonical(match.group(1))] = match.group(3)
    for name, version in pinned.items():
        assert versions.get(name) == version, f"{flavour}.txt has {name} {versions.get(name)}"


def test_cuda_pins_match_pins_py():
    assert locked("cu13")["cuda-toolkit"] == pins.CUDA13_VERSION
    for name in ("nvidia-cuda-runtime-cu12", "nvidia-cuda-nvcc-cu12", "nvidia-cuda-cccl-cu12"):
        assert locked("cu12")[name].startswith(pins.CUDA12_VERSION + "."), name
    assert pins.cuda_version_for(12) == pins.CUDA12_VERSION
    with pytest.raises(ValueError, match="cu12, cu13"):
        pins.cuda_version_for(11)


def test_cpu_lock_has_no_cuda_and_all_share_the_tools():
    cpu = locked("cpu")
    assert not any(name.startswith(("nvidia-", "cuda-")) for name in cpu)
    for flavour in ("cu12", "cu13"):
        other = locked(flavour)
        assert {k: other.get(k) for k in cpu} == cpu, flavour


def test_glibc_pin_matches_the_platform_tag():
    major, minor = pins.GLIBC.split(".")
    assert pins.PLATFORM_TAG == f"manylinux_{major}_{minor}_x86_64"


def test_lock_file_names_are_parsed():
    assert lock.name_and_version("cuda_toolkit-13.5.0-py3-none-any.whl") == (
        "cuda-toolkit",
        "13.5.0",
    )
    assert lock.name_and_version("jaraco.classes-3.4.0.tar.gz") == ("jaraco-classes", "3.4.0")
