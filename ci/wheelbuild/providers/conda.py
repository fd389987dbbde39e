"""The conda provider: the toolchain of an activated conda, mamba or pixi environment.

The environment is one of those ci/wheel-toolchain.yml (CPU), ci/wheel-toolchain-cu<N>.yml and
pixi.toml (default, cu12, cu13) describe (docs/developer/conda.md): conda-forge's gcc/gxx on a
glibc-2.28 sysroot and, for a plugin, cuda-nvcc, cuda-cudart-static and cuda-version of one pinned
CUDA release. Nothing is executed here: every check reads ``$CONDA_PREFIX/conda-meta/*.json``, the
record conda, mamba and pixi (rattler) write for each installed package, so the logic is testable
on prefixes that tests write by hand.

NVIDIA's EULA, which a plugin wheel must carry, is the licence file of the cuda-cudart-static
package: conda keeps a package's licence files in ``info/licenses/`` of its extracted copy in the
package cache, and the package's conda-meta record names that copy.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import pins
from ..toolchain import Toolchain, ToolchainError

# conda-forge's compilers for linux-64 are named after this triple (x86_64-conda-linux-gnu-g++).
TARGET_TRIPLE = "x86_64-conda-linux-gnu"
SYSROOT = "sysroot_linux-64"
CUDA_VERSION = "cuda-version"
# Each CUDA component is split into several conda-forge packages of one version (the _linux-64
# ones hold the files, the plain ones depend on them); all present must agree.
NVCC_FAMILY = ("cuda-nvcc", "cuda-nvcc_linux-64", "cuda-nvcc-impl", "cuda-nvcc-tools")
CUDART_FAMILY = ("cuda-cudart-static", "cuda-cudart-static_linux-64")
# Where conda-build and rattler-build put a recipe's about.license_file inside a package.
LICENCE_DIR = Path("info") / "licenses"
# The C++ runtime goes into the module (ADR 0025): conda-forge's libstdc++.so is too new for
# manylinux_2_28.
STATIC_RUNTIME_FLAGS = "-static-libstdc++ -static-libgcc"


def _fix_env(env: str) -> str:
    """How to make the environment for ``env`` ("cpu", "cu12", "cu13") from the repository."""
    if env == "cpu":
        return (
            "create the environment with `pixi install` (pixi.toml) or `conda env create -f "
            "ci/wheel-toolchain.yml`, then activate it"
        )
    return (
        f"create the environment with `pixi install -e {env}` (pixi.toml) or `conda env "
        f"create -f ci/wheel-toolchain-{env}.yml`, then activate it"
    )


@dataclass(frozen=True)
class CondaRecord:
    """The parts of one conda-meta/*.json record this provider reads."""

    name: str
    version: str
    build: str
    source: Path  # the conda-meta file, named in messages
    package_dirs: tuple[Path, ...]  # where the extracted package may still be (licence files)


def active_prefix(environ: Mapping[str, str] | None = None) -> Path:
    """The activated environment's prefix ($CONDA_PREFIX, which conda, mamba and pixi set)."""
    environ = os.environ if environ is None else environ
    prefix = environ.get("CONDA_PREFIX", "")
    if not prefix:
        raise ToolchainError(
            "conda provider: $CONDA_PREFIX is not set, so no conda environment is "
            "active; run the build through `pixi run build-cu13` (or build, "
            "build-cu12) or activate an environment made from "
            "ci/wheel-toolchain-cu13.yml first"
        )
    return Path(prefix)


def read_records(prefix: Path) -> dict[str, list[CondaRecord]]:
    """Every package record of ``prefix``, by package name (a healthy prefix has one per name)."""
    meta = prefix / "conda-meta"
    if not meta.is_dir():
        raise ToolchainError(
            f"conda provider: {prefix} has no conda-meta/ folder, so it is not a "
            f"conda environment; point $CONDA_PREFIX at one (`pixi shell -e cu13` "
            f"sets it)"
        )
    records: dict[str, list[CondaRecord]] = {}
    for path in sorted(meta.glob("*.json")):
        record = _parse_record(path)
        records.setdefault(record.name, []).append(record)
    return records


def _parse_record(path: Path) -> CondaRecord:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        name, version, build = data["name"], str(data["version"]), str(data.get("build", ""))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ToolchainError(
            f"conda provider: cannot read package record {path} ({exc}); the "
            f"environment is damaged, recreate it"
        ) from None
    dirs = []
    # conda and rattler both record the extracted copy; conda also names it as the link source.
    if data.get("extracted_package_dir"):
        dirs.append(Path(data["extracted_package_dir"]))
    link = data.get("link")
    if isinstance(link, dict) and link.get("source"):
        dirs.append(Path(link["source"]))
    tarball = data.get("package_tarball_full_path")
    if tarball:
        # pkgs/<name>-<version>-<build>.conda is extracted beside itself without the suffix.
        dirs.append(Path(re.sub(r"(\.conda|\.tar\.bz2)$", "", tarball)))
    return CondaRecord(name, version, build, path, tuple(dict.fromkeys(dirs)))


def _one(records: dict[str, list[CondaRecord]], name: str, why: str, env: str) -> CondaRecord:
    found = records.get(name, [])
    if not found:
        raise ToolchainError(
            f"conda provider: package {name} is not installed in this environment "
            f"({why}); " + _fix_env(env)
        )
    versions = sorted({r.version for r in found})
    if len(versions) > 1:
        raise ToolchainError(
            f"conda provider: {len(found)} records of {name} with versions "
            f"{', '.join(versions)} ({_names(found)}); the environment is "
            f"inconsistent, recreate it"
        )
    return found[0]


def _family(
    records: dict[str, list[CondaRecord]], family: tuple[str, ...], env: str, why: str
) -> CondaRecord:
    """The family's main record, after checking that every installed member has one version."""
    main = _one(records, family[0], why, env)
    members = [r for name in family for r in records.get(name, [])]
    versions = sorted({r.version for r in members})
    if len(versions) > 1:
        listing = ", ".join(f"{r.name} {r.version}" for r in members)
        raise ToolchainError(
            f"conda provider: the {family[0]} packages disagree on the version "
            f"({listing}); two CUDA releases are mixed in one environment, "
            f"recreate it from one pin ({_fix_env(env)})"
        )
    return main


def _names(records: list[CondaRecord]) -> str:
    return ", ".join(r.source.name for r in records)


def _major_minor(version: str) -> tuple[int, int]:
    match = re.match(r"^(\d+)\.(\d+)", version)
    if not match:
        raise ToolchainError(f"conda provider: cannot read a major.minor version from '{version}'")
    return int(match[1]), int(match[2])


def _check_sysroot(records: dict[str, list[CondaRecord]], env: str) -> str:
    sysroot = _one(
        records,
        SYSROOT,
        f"the glibc {pins.GLIBC} headers and stubs the wheels are built against",
        env,
    )
    if _major_minor(sysroot.version) != _major_minor(pins.GLIBC):
        raise ToolchainError(
            f"conda provider: {SYSROOT} {sysroot.version} targets glibc "
            f"{sysroot.version}, but the wheels are {pins.PLATFORM_TAG} and must "
            f"be built against glibc {pins.GLIBC}; install "
            f"`{SYSROOT}={pins.GLIBC}` (pixi.toml and "
            f"ci/wheel-toolchain*.yml pin it)"
        )
    return pins.GLIBC


def _compilers(prefix: Path, env: str) -> tuple[Path, Path]:
    cc = prefix / "bin" / f"{TARGET_TRIPLE}-gcc"
    cxx = prefix / "bin" / f"{TARGET_TRIPLE}-g++"
    missing = [p.name for p in (cc, cxx) if not p.is_file()]
    if missing:
        raise ToolchainError(
            f"conda provider: {', '.join(missing)} not found in {prefix}/bin; "
            f"the environment lacks conda-forge's gcc_linux-64/gxx_linux-64, " + _fix_env(env)
        )
    return cc, cxx


def _check_cuda(
    records: dict[str, list[CondaRecord]], major: int, expected: str | None, env: str
) -> tuple[CondaRecord, CondaRecord, CondaRecord]:
    version = _one(records, CUDA_VERSION, "the metapackage that pins the CUDA release", env)
    nvcc = _family(records, NVCC_FAMILY, env, "the CUDA compiler")
    cudart = _family(records, CUDART_FAMILY, env, "the static CUDA runtime the plugin links")
    for record in (version, nvcc, cudart):
        found_major = _major_minor(record.version)[0]
        if found_major != major:
            raise ToolchainError(
                f"conda provider: {record.name} {record.version} is CUDA "
                f"{found_major}, but the cu{major} plugin needs CUDA {major}; use "
                f"the cu{major} environment (`pixi run build-cu{major}`)"
            )
    release = _major_minor(version.version)
    for record in (nvcc, cudart):
        if _major_minor(record.version) != release:
            raise ToolchainError(
                f"conda provider: {record.name} {record.version} does not belong "
                f"to cuda-version {version.version}; recreate the environment "
                f"from one pin ({_fix_env(env)})"
            )
    if expected is not None and _major_minor(expected) != release:
        raise ToolchainError(
            f"conda provider: the environment has CUDA {version.version} "
            f"(cuda-version), but cu{major} is pinned to {expected} "
            f"(ci/wheelbuild/pins.py); update the environment "
            f"(`pixi install -e cu{major}` after pulling pixi.toml) or the pin"
        )
    return version, nvcc, cudart


def find_eula(records: dict[str, list[CondaRecord]]) -> Path:
    """NVIDIA's CUDA EULA: the licence file of the installed cuda-cudart-static package."""
    candidates = [r for name in CUDART_FAMILY for r in records.get(name, [])]
    looked = []
    for record in candidates:
        for package_dir in record.package_dirs:
            licences = package_dir / LICENCE_DIR
            looked.append(str(licences))
            if not licences.is_dir():
                continue
            for path in sorted(p for p in licences.rglob("*") if p.is_file()):
                if _is_nvidia_eula(path):
                    return path
    where = "; ".join(looked) if looked else "the records name no extracted package folder"
    raise ToolchainError(
        f"conda provider: NVIDIA's CUDA EULA was not found among "
        f"cuda-cudart-static's licence files (looked in: {where}); a plugin wheel "
        f"must carry it. The package cache was probably cleaned: reinstall the "
        f"package (`pixi reinstall cuda-cudart-static` or `conda install "
        f"--force-reinstall cuda-cudart-static`)"
    )


def _is_nvidia_eula(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    # Another licence file in the folder must not pass for the EULA.
    return "NVIDIA" in text and "License Agreement" in text


def conda_toolchain(
    prefix: Path, cuda_major: int | None, *, expected_cuda_version: str | None
) -> Toolchain:
    """The toolchain of the conda environment at ``prefix``, checked for the requested wheel.

    Parameters
    ----------
    prefix : Path
        The environment's root (``$CONDA_PREFIX``; see :func:`active_prefix`).
    cuda_major : int or None
        12 or 13 for a plugin, None for the CPU wheel.
    expected_cuda_version : str or None
        The pinned CUDA release (``pins.cuda_version_for(cuda_major)``); its major.minor must
        equal the environment's cuda-version. None checks the major only.

    Raises
    ------
    ToolchainError
        When a package is missing, two releases are mixed, the major or the pin differs, the
        sysroot is not glibc 2.28, or (for a plugin) the EULA cannot be found.
    """
    env = f"cu{cuda_major}" if cuda_major is not None else "cpu"
    records = read_records(prefix)
    glibc = _check_sysroot(records, env)
    cc, cxx = _compilers(prefix, env)
    environ = {
        "CC": str(cc),
        "CXX": str(cxx),
        "CONDA_PREFIX": str(prefix),
        "PATH": f"{prefix / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        # libstdc++ and libgcc go into the module, as in every dyng wheel (ADR 0025): the
        # environment's libstdc++.so is newer than manylinux_2_28 allows. LDFLAGS, not a
        # CMake define, so that the activation's own flags (rpath to $PREFIX/lib, where
        # auditwheel finds libgomp) stay in force.
        "LDFLAGS": f"{os.environ.get('LDFLAGS', '')} {STATIC_RUNTIME_FLAGS}".strip(),
    }
    notes = [f"conda environment {prefix}", f"{SYSROOT} {glibc}, compilers {cc.name}, {cxx.name}"]
    if cuda_major is None:
        return Toolchain(
            provider="conda",
            cuda_major=None,
            cuda_version=None,
            cuda_root=None,
            nvcc=None,
            eula=None,
            glibc=glibc,
            platform_tag=pins.PLATFORM_TAG,
            env=environ,
            notes=tuple(notes),
        )

    version, nvcc_record, cudart = _check_cuda(records, cuda_major, expected_cuda_version, env)
    nvcc = prefix / "bin" / "nvcc"
    if not nvcc.is_file():
        raise ToolchainError(
            f"conda provider: {nvcc} is missing although {nvcc_record.name} "
            f"{nvcc_record.version} is recorded; the environment is damaged, "
            f"recreate it"
        )
    eula = find_eula(records)
    environ["CUDAHOSTCXX"] = str(cxx)
    notes += [
        f"cuda-version {version.version}, cuda-nvcc {nvcc_record.version}, "
        f"cuda-cudart-static {cudart.version}",
        f"NVIDIA CUDA EULA from {eula}",
    ]
    if expected_cuda_version is None:
        notes.append(f"CUDA release not checked against a pin (none given for cu{cuda_major})")
    return Toolchain(
        provider="conda",
        cuda_major=cuda_major,
        # nvcc's own version, which is also what CMake reports as the CUDA compiler version.
        cuda_version=nvcc_record.version,
        # conda-forge's nvcc finds its targets/x86_64-linux/ tree from the prefix.
        cuda_root=prefix,
        nvcc=nvcc,
        eula=eula,
        glibc=glibc,
        platform_tag=pins.PLATFORM_TAG,
        cmake_defines={
            "CMAKE_CUDA_COMPILER": str(nvcc),
            "CUDAToolkit_ROOT": str(prefix),
            # nvcc must use the sysroot-2.28 g++, not whatever g++ is first on PATH.
            "CMAKE_CUDA_HOST_COMPILER": str(cxx),
        },
        env=environ,
        notes=tuple(notes),
    )
