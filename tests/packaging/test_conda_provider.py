"""The driver's conda provider on conda prefixes written by the test (no conda needed).

Each prefix holds what conda/pixi would leave behind for the packages the provider reads:
conda-meta/<name>-<version>-<build>.json records, the compilers and nvcc in bin/, and the
extracted cuda-cudart-static package (in a separate "package cache") with its licence file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import pins  # noqa: E402
from wheelbuild.providers import conda  # noqa: E402
from wheelbuild.toolchain import ToolchainError  # noqa: E402

EULA_TEXT = (
    "End User License Agreement\n"
    "NVIDIA Software License Agreement and CUDA Supplement to Software License "
    "Agreement (a stand-in written by this test)\n"
)

# Component versions as conda-forge numbers them: the release's major.minor plus a build number.
RELEASES = {
    "12.8": ("12.8.93", "12.8.90"),
    "12.9": ("12.9.86", "12.9.79"),
    "13.0": ("13.0.88", "13.0.96"),
    "13.5": ("13.5.37", "13.5.37"),
}


def write_record(
    prefix: Path, name: str, version: str, *, build: str = "h0_0", **extra: object
) -> Path:
    meta = prefix / "conda-meta"
    meta.mkdir(parents=True, exist_ok=True)
    path = meta / f"{name}-{version}-{build}.json"
    path.write_text(
        json.dumps(
            {"name": name, "version": version, "build": build, "files": [], "depends": [], **extra}
        )
    )
    return path


def write_executable(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)


def cached_package(cache: Path, name: str, version: str, licence: str | None) -> Path:
    """The extracted package in the package cache, with its info/licenses/ when given."""
    folder = cache / f"{name}-{version}-h0_0"
    (folder / "info").mkdir(parents=True, exist_ok=True)
    if licence is not None:
        (folder / "info" / "licenses").mkdir()
        (folder / "info" / "licenses" / "LICENSE").write_text(licence)
    return folder


def make_prefix(
    tmp_path: Path,
    *,
    release: str | None = "13.5",
    sysroot: str = "2.28",
    licence: str | None = EULA_TEXT,
) -> Path:
    """A prefix for one CUDA release (None: the CPU toolchain only)."""
    prefix, cache = tmp_path / "env", tmp_path / "pkgs"
    write_record(prefix, "sysroot_linux-64", sysroot)
    write_record(prefix, "gxx_linux-64", "14.3.0")
    write_executable(prefix / "bin" / "x86_64-conda-linux-gnu-gcc")
    write_executable(prefix / "bin" / "x86_64-conda-linux-gnu-g++")
    if release is None:
        return prefix
    nvcc_version, cudart_version = RELEASES[release]
    write_record(prefix, "cuda-version", release)
    for name in ("cuda-nvcc", "cuda-nvcc_linux-64", "cuda-nvcc-impl"):
        write_record(prefix, name, nvcc_version)
    for name in ("cuda-cudart-static", "cuda-cudart-static_linux-64"):
        folder = cached_package(cache, name, cudart_version, licence)
        write_record(prefix, name, cudart_version, extracted_package_dir=str(folder))
    write_executable(prefix / "bin" / "nvcc")
    return prefix


def test_cu13_environment_gives_the_plugin_toolchain(tmp_path):
    prefix = make_prefix(tmp_path, release="13.5")
    tc = conda.conda_toolchain(prefix, 13, expected_cuda_version=pins.CUDA13_VERSION)
    assert (tc.provider, tc.cuda_major, tc.cuda_version) == ("conda", 13, "13.5.37")
    assert tc.nvcc == prefix / "bin" / "nvcc"
    assert tc.cuda_root == prefix
    assert tc.eula is not None and tc.eula.read_text() == EULA_TEXT
    assert (tc.glibc, tc.platform_tag) == (pins.GLIBC, pins.PLATFORM_TAG)
    assert tc.env["CXX"].endswith("x86_64-conda-linux-gnu-g++")
    assert tc.env["CUDAHOSTCXX"] == tc.env["CXX"]
    assert tc.cmake_defines["CMAKE_CUDA_HOST_COMPILER"] == tc.env["CXX"]
    assert tc.cmake_defines["CMAKE_CUDA_COMPILER"] == str(prefix / "bin" / "nvcc")
    assert tc.cmake_defines["CUDAToolkit_ROOT"] == str(prefix)


def test_the_cxx_runtime_is_linked_statically_besides_the_activation_flags(tmp_path, monkeypatch):
    monkeypatch.setenv("LDFLAGS", "-Wl,-rpath,/env/lib")
    prefix = make_prefix(tmp_path, release=None)
    tc = conda.conda_toolchain(prefix, None, expected_cuda_version=None)
    assert tc.env["LDFLAGS"] == "-Wl,-rpath,/env/lib -static-libstdc++ -static-libgcc"


def test_cu12_environment_matches_the_cu12_pin(tmp_path):
    prefix = make_prefix(tmp_path, release="12.9")
    tc = conda.conda_toolchain(prefix, 12, expected_cuda_version=pins.CUDA12_VERSION)
    assert (tc.cuda_major, tc.cuda_version) == (12, "12.9.86")


def test_cpu_toolchain_needs_no_cuda_packages(tmp_path):
    prefix = make_prefix(tmp_path, release=None)
    tc = conda.conda_toolchain(prefix, None, expected_cuda_version=None)
    assert (tc.cuda_major, tc.nvcc, tc.eula) == (None, None, None)
    assert tc.glibc == pins.GLIBC


def test_missing_eula_is_refused_with_the_reinstall_hint(tmp_path):
    prefix = make_prefix(tmp_path, licence=None)
    with pytest.raises(ToolchainError, match="EULA was not found.*reinstall"):
        conda.conda_toolchain(prefix, 13, expected_cuda_version=pins.CUDA13_VERSION)


def test_a_licence_that_is_not_nvidias_does_not_pass_for_the_eula(tmp_path):
    prefix = make_prefix(tmp_path, licence="BSD 3-Clause License\nCopyright (c) someone\n")
    with pytest.raises(ToolchainError, match="EULA was not found"):
        conda.conda_toolchain(prefix, 13, expected_cuda_version=pins.CUDA13_VERSION)


def test_eula_is_found_beside_the_package_tarball_when_no_extracted_dir_is_recorded(tmp_path):
    prefix = make_prefix(tmp_path, licence=None)
    cache = tmp_path / "other-cache"
    for name in ("cuda-cudart-static", "cuda-cudart-static_linux-64"):
        for old in (prefix / "conda-meta").glob(f"{name}-13*.json"):
            old.unlink()
        folder = cached_package(cache, name, "13.5.37", EULA_TEXT)
        write_record(prefix, name, "13.5.37", package_tarball_full_path=f"{folder}.conda")
    tc = conda.conda_toolchain(prefix, 13, expected_cuda_version=pins.CUDA13_VERSION)
    assert tc.eula == cache / "cuda-cudart-static-13.5.37-h0_0" / "info" / "licenses" / "LICENSE"


def test_wrong_major_is_refused(tmp_path):
    prefix = make_prefix(tmp_path, release="13.5")
    with pytest.raises(ToolchainError, match="is CUDA 13, but the cu12 plugin needs CUDA 12"):
        conda.conda_toolchain(prefix, 12, expected_cuda_version=pins.CUDA12_VERSION)


def test_an_older_release_than_the_pin_is_refused(tmp_path):
    prefix = make_prefix(tmp_path, release="13.0")
    with pytest.raises(ToolchainError, match=r"has CUDA 13\.0.*pinned to 13\.5"):
        conda.conda_toolchain(prefix, 13, expected_cuda_version="13.5.0")


def test_without_a_pin_only_the_major_is_checked(tmp_path):
    prefix = make_prefix(tmp_path, release="13.0")
    tc = conda.conda_toolchain(prefix, 13, expected_cuda_version=None)
    assert tc.cuda_version == "13.0.88"
    assert any("not checked against a pin" in note for note in tc.notes)


def test_two_cudart_versions_are_refused(tmp_path):
    prefix = make_prefix(tmp_path, release="13.5")
    write_record(prefix, "cuda-cudart-static", "13.0.96", build="h1_0")
    with pytest.raises(ToolchainError, match=r"cuda-cudart-static.*versions 13\.0\.96, 13\.5\.37"):
        conda.conda_toolchain(prefix, 13, expected_cuda_version=pins.CUDA13_VERSION)


def test_split_packages_of_two_releases_are_refused(tmp_path):
    prefix = make_prefix(tmp_path, release="13.5")
    for old in (prefix / "conda-meta").glob("cuda-cudart-static_linux-64-*.json"):
        old.unlink()
    write_record(prefix, "cuda-cudart-static_linux-64", "13.0.96")
    with pytest.raises(ToolchainError, match="disagree on the version.*two CUDA releases"):
        conda.conda_toolchain(prefix, 13, expected_cuda_version=pins.CUDA13_VERSION)


def test_nvcc_of_another_release_than_cuda_version_is_refused(tmp_path):
    prefix = make_prefix(tmp_path, release="13.5")
    for old in (prefix / "conda-meta").glob("cuda-version-*.json"):
        old.unlink()
    write_record(prefix, "cuda-version", "13.0")
    with pytest.raises(ToolchainError, match="does not belong to cuda-version 13.0"):
        conda.conda_toolchain(prefix, 13, expected_cuda_version=None)


@pytest.mark.parametrize("sysroot", ["2.17", "2.34"])
def test_a_sysroot_other_than_glibc_2_28_is_refused(tmp_path, sysroot):
    prefix = make_prefix(tmp_path, sysroot=sysroot)
    with pytest.raises(ToolchainError, match=rf"sysroot_linux-64 {sysroot} .*glibc 2\.28"):
        conda.conda_toolchain(prefix, 13, expected_cuda_version=pins.CUDA13_VERSION)


def test_missing_sysroot_is_refused_even_for_the_cpu_wheel(tmp_path):
    prefix = make_prefix(tmp_path, release=None)
    for old in (prefix / "conda-meta").glob("sysroot_linux-64-*.json"):
        old.unlink()
    with pytest.raises(
        ToolchainError, match="sysroot_linux-64 is not installed.*ci/wheel-toolchain.yml"
    ):
        conda.conda_toolchain(prefix, None, expected_cuda_version=None)


def test_missing_nvcc_package_is_named(tmp_path):
    prefix = make_prefix(tmp_path, release="13.5")
    for old in (prefix / "conda-meta").glob("cuda-nvcc-*.json"):
        old.unlink()
    with pytest.raises(ToolchainError, match="package cuda-nvcc is not installed"):
        conda.conda_toolchain(prefix, 13, expected_cuda_version=pins.CUDA13_VERSION)


def test_missing_compiler_binaries_are_named(tmp_path):
    prefix = make_prefix(tmp_path, release=None)
    (prefix / "bin" / "x86_64-conda-linux-gnu-g++").unlink()
    with pytest.raises(ToolchainError, match="x86_64-conda-linux-gnu-g\\+\\+ not found"):
        conda.conda_toolchain(prefix, None, expected_cuda_version=None)


def test_a_damaged_record_is_named(tmp_path):
    prefix = make_prefix(tmp_path, release=None)
    (prefix / "conda-meta" / "broken-1.0-0.json").write_text("{not json")
    with pytest.raises(ToolchainError, match="broken-1.0-0.json"):
        conda.conda_toolchain(prefix, None, expected_cuda_version=None)


def test_a_folder_without_conda_meta_is_not_an_environment(tmp_path):
    with pytest.raises(ToolchainError, match="no conda-meta"):
        conda.conda_toolchain(tmp_path, None, expected_cuda_version=None)


def test_active_prefix_needs_conda_prefix():
    with pytest.raises(ToolchainError, match="CONDA_PREFIX is not set"):
        conda.active_prefix({})
    assert conda.active_prefix({"CONDA_PREFIX": "/opt/env"}) == Path("/opt/env")


def test_the_driver_reaches_this_provider_through_conda_prefix(tmp_path, monkeypatch):
    """ci/build.py --provider conda (and auto inside an environment) ends up here, pinned."""
    select = pytest.importorskip(
        "wheelbuild.providers.select",
        reason="the driver's provider selection is not in this checkout",
    )
    monkeypatch.setenv("CONDA_PREFIX", str(make_prefix(tmp_path, release="13.5")))
    assert select.resolve("auto") == "conda"
    tc = select.toolchain_for("conda", 13, work=tmp_path / "work")
    assert (tc.provider, tc.cuda_version) == ("conda", "13.5.37")
    monkeypatch.setenv("CONDA_PREFIX", str(make_prefix(tmp_path / "old", release="12.8")))
    with pytest.raises(ToolchainError, match=r"has CUDA 12\.8.*pinned to 12\.9"):
        select.toolchain_for("conda", 12, work=tmp_path / "work")
