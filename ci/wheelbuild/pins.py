"""The toolchain versions every wheel build is pinned to, in one place.

The pypi provider's lock files (ci/wheel-requirements/*.txt) and the conda environment
(ci/wheel-toolchain.yml, recipe/) must name the same CUDA releases and the same glibc floor;
tests on both sides read these constants instead of repeating the numbers.
"""

from __future__ import annotations

# The cu12 plugin is built with the last CUDA 12 release (PLAN 7.8: the latest 12.x).
CUDA12_VERSION = "12.9"
# The cu13 plugin is built with the latest 13.x: `cuda-toolkit[nvcc,cccl,cudart,nvtx]` on PyPI.
CUDA13_VERSION = "13.5.0"
# The oldest glibc the binaries may need: the wheels are tagged manylinux_2_28.
GLIBC = "2.28"
PLATFORM_TAG = "manylinux_2_28_x86_64"

# Full CUDA version of each major's pinned release, keyed by major.
CUDA_VERSIONS: dict[int, str] = {12: CUDA12_VERSION, 13: CUDA13_VERSION}


def cuda_version_for(major: int) -> str:
    """The pinned CUDA release for a plugin major; raises for a major nobody builds."""
    try:
        return CUDA_VERSIONS[major]
    except KeyError:
        known = ", ".join(f"cu{m}" for m in sorted(CUDA_VERSIONS))
        raise ValueError(f"no CUDA pin for major {major}; the plugins are {known}") from None
