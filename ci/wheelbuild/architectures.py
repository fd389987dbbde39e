"""The release CUDA architectures, mirrored from cmake/cuda_architectures.cmake for the checker.

A CMake entry "90-real" means SASS for sm_90; a bare "120" means SASS plus PTX for 120. A
packaging test parses the CMake file and keeps these lists equal to it.
"""

from __future__ import annotations

# Toolkits 12.8 and newer (every plugin wheel is built with one).
RELEASE_12_8 = ("75-real", "80-real", "86-real", "89-real", "90-real", "100-real", "120")
RELEASE_12_0 = ("75-real", "80-real", "86-real", "89-real", "90")


def release_list(toolkit_version: str) -> tuple[str, ...]:
    major, minor = (int(p) for p in toolkit_version.split(".")[:2])
    if (major, minor) >= (12, 8):
        return RELEASE_12_8
    if major == 12:
        return RELEASE_12_0
    raise ValueError(f"CUDA {toolkit_version} has no release architecture list")


def expected_code(architectures: list[str] | tuple[str, ...]) -> tuple[set[int], set[int]]:
    """(SASS architectures, PTX architectures) that a CMake architecture list must produce."""
    sass, ptx = set(), set()
    for entry in architectures:
        number, _, suffix = entry.partition("-")
        arch = int(number)
        if suffix in ("", "real"):
            sass.add(arch)
        if suffix in ("", "virtual"):
            ptx.add(arch)
    return sass, ptx
