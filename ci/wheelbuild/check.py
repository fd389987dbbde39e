"""The wheel checker (ADR 0030 item 7): everything a release wheel must satisfy, read from the file.

:func:`check_wheel` returns a list of problems, each a sentence saying what is wrong and what to
do; an empty list means the wheel passes. It recognises a plugin wheel (dyng_cu<N>-*.whl) by its
name and applies the plugin rules; any other dyng wheel gets the CPU rules. ``runtime`` selects
the rules of the runtime-as-a-dependency plugin ("shared") instead of the default ("static").
"""

from __future__ import annotations

import re
import subprocess
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from . import architectures, elf, fatbin, licences, pins, render
from .wheelfile import WheelName, dist_info, read_entry_points, read_metadata

SIZE_BUDGET = 90 * 1024 * 1024
PYTHON_TAG, ABI_TAG = "cp312", "abi3"
MODULE_INIT = "PyInit__core"
# Bundling or needing any of these would tie the wheel to one driver or one CUDA install
# (auditwheel renames what it bundles, e.g. libcuda-0f1e2d3c.so.1).
FORBIDDEN_LIBRARIES = re.compile(r"^(libcuda([.-]|$)|libcudart|libnvidia-)")
CUDART = re.compile(r"^libcudart")
CPU_EXTRAS = {
    "cu12": "dyng-cu12=={version}",
    "cu13": "dyng-cu13=={version}",
    "cupy-cu12": "cupy-cuda12x",
    "cupy-cu13": "cupy-cuda13x",
}
_PLUGIN_WHEEL = re.compile(r"^dyng_(cu\d+)$")


@dataclass(frozen=True)
class Expectations:
    version: str  # dyng's VERSION
    cpu_license: str = licences.CPU_LICENSE_EXPRESSION
    architectures: tuple[str, ...] = architectures.RELEASE_12_8
    runtime: str = "static"
    platform: str = pins.PLATFORM_TAG
    glibc: str = pins.GLIBC  # newest glibc the binaries may need
    size_budget: int = SIZE_BUDGET
    # Absolute folders of the build machine (the checkout, the build folders) that no extension
    # module may name: a wheel built elsewhere would differ in those bytes.
    build_paths: tuple[str, ...] = ()


def _library_name(member: str) -> str:
    return member.rsplit("/", 1)[-1]


def _is_elf(member: str) -> bool:
    name = _library_name(member)
    return name.endswith(".so") or ".so." in name


def _check_name(path: Path, expect: Expectations, distribution: str) -> list[str]:
    problems = []
    try:
        name = WheelName.parse(path.name)
    except ValueError as error:
        return [str(error)]
    if name.distribution != distribution:
        problems.append(
            f"file name says distribution {name.distribution!r}, expected {distribution!r}"
        )
    if name.version != expect.version:
        problems.append(
            f"file name has version {name.version}, VERSION says {expect.version}; "
            "rebuild from the current sources"
        )
    if (name.python, name.abi) != (PYTHON_TAG, ABI_TAG):
        problems.append(
            f"tags {name.python}-{name.abi}, expected {PYTHON_TAG}-{ABI_TAG} (one abi3 "
            "wheel for every CPython >= 3.12); check wheel.py-api in pyproject.toml"
        )
    if expect.platform not in name.platforms:
        problems.append(
            f"platform tag {'.'.join(name.platforms)} lacks {expect.platform}; "
            f"repair the wheel with auditwheel --plat {expect.platform}"
        )
    return problems


def _check_layout(names: list[str], package: str) -> list[str]:
    info = dist_info(names)
    allowed = {package, f"{package}.libs", info}
    strays = sorted({n.split("/", 1)[0] for n in names} - allowed)
    problems = []
    if strays:
        problems.append(
            f"unexpected top-level entries {strays}: the wheel may hold only "
            f"{package}/, {package}.libs/ and {info}/"
        )
    for required in (f"{package}/__init__.py",):
        if required not in names:
            problems.append(f"{required} is missing from the wheel")
    # The type stub: committed for the CPU package, merged at build time for a plugin
    # (python/plugin/merge_stub.py), so a build step that stopped installing it shows here.
    if f"{package}/_core.pyi" not in names:
        problems.append(
            f"{package}/_core.pyi, the native module's type stub, is missing from the wheel"
        )
    modules = [n for n in names if re.fullmatch(rf"{package}/_core\..*so", n)]
    if not modules:
        problems.append(f"the extension module {package}/_core.*.so is missing")
    return problems


def _check_licences(
    archive: zipfile.ZipFile, metadata, expression: str, files: list[str]
) -> list[str]:
    problems = []
    found = metadata.get("License-Expression")
    if found != expression:
        problems.append(f"License-Expression is {found!r}, expected {expression!r}")
    declared = metadata.get_all("License-File") or []
    info = dist_info(archive.namelist())
    for name in files:
        if name not in declared:
            problems.append(
                f"licence file {name} is not declared (License-File); add it to license-files"
            )
        if f"{info}/licenses/{name}" not in archive.namelist():
            problems.append(
                f"licence file {name} is missing from {info}/licenses/"
                + (
                    "; the build needs the toolkit's EULA (--cuda-eula)"
                    if name == licences.EULA_NAME
                    else ""
                )
            )
    return problems


def _check_binaries(
    archive: zipfile.ZipFile, package: str, expect: Expectations, plugin_major: int | None
) -> list[str]:
    problems = []
    shared_runtime = plugin_major is not None and expect.runtime == "shared"
    glibc_limit = tuple(int(p) for p in expect.glibc.split("."))
    for member in archive.namelist():
        if not _is_elf(member):
            continue
        library = _library_name(member)
        if FORBIDDEN_LIBRARIES.match(library):
            problems.append(
                f"{member} bundles {library}: the driver and the CUDA runtime must "
                "never be shipped (auditwheel --exclude libcuda.so.1; link cudart "
                "statically)"
            )
        try:
            info = elf.read_elf(archive.read(member))
        except elf.ElfError as error:
            problems.append(f"{member} cannot be read as ELF: {error}")
            continue
        for needed in info.needed:
            if FORBIDDEN_LIBRARIES.match(needed) and not (shared_runtime and CUDART.match(needed)):
                problems.append(
                    f"{member} needs {needed} (DT_NEEDED): link the CUDA runtime "
                    "statically and load the driver only at run time"
                )
        newest = info.max_glibc()
        if newest and newest > glibc_limit:
            problems.append(
                f"{member} needs GLIBC_{'.'.join(map(str, newest))}, newer than the "
                f"{expect.glibc} the platform tag promises; build with the glibc-"
                f"{expect.glibc} toolchain"
            )
        if re.fullmatch(rf"{package}/_core\..*so", member):
            problems += _check_module(member, info, expect, plugin_major)
            problems += _build_path_problems(member, archive.read(member), expect.build_paths)
    return problems


def _build_path_problems(member: str, data: bytes, build_paths: tuple[str, ...]) -> list[str]:
    """A sentence per build-machine folder that the module's bytes name."""
    problems = []
    for folder in build_paths:
        needle = folder.rstrip("/").encode() + b"/"
        count = data.count(needle)
        if count:
            at = data.index(needle)
            end = data.find(b"\0", at)
            example = data[at : end if 0 <= end - at < 200 else at + 200].decode(errors="replace")
            problems.append(
                f"{member} names the build machine's folder {folder} {count} "
                f"time(s) (e.g. {example}): a build in another folder would differ; "
                "compile with the prefix maps of cmake/dyng_reproducible.cmake"
            )
    return problems


def _check_module(
    member: str, info: elf.ElfInfo, expect: Expectations, plugin_major: int | None
) -> list[str]:
    problems = []
    extra = sorted(set(info.exported) - {MODULE_INIT})
    if MODULE_INIT not in info.exported:
        problems.append(f"{member} does not export {MODULE_INIT}")
    if extra:
        shown = ", ".join(extra[:5]) + (f" and {len(extra) - 5} more" if len(extra) > 5 else "")
        problems.append(
            f"{member} exports {len(extra)} symbols besides {MODULE_INIT} ({shown}); "
            "link with the module's version script"
        )
    if plugin_major is None:
        if ".nv_fatbin" in info.sections:
            problems.append(f"{member} holds CUDA device code, but the CPU wheel must not")
        return problems
    if expect.runtime == "shared":
        cudart = f"libcudart.so.{plugin_major}"
        if cudart not in info.needed:
            problems.append(f"{member} does not need {cudart}, but a shared-runtime plugin must")
        _, folder = render.RUNTIME_WHEELS[plugin_major]
        wanted = f"$ORIGIN/../{folder}"
        if wanted not in info.rpath:
            problems.append(
                f"{member} RPATH {info.rpath} lacks {wanted}, where NVIDIA's runtime "
                "wheel puts libcudart; re-add it after auditwheel"
            )
    section = info.sections.get(".nv_fatbin")
    if not section:
        return problems + [f"{member} has no .nv_fatbin section: the plugin holds no device code"]
    sass_wanted, ptx_wanted = architectures.expected_code(expect.architectures)
    try:
        fatbins = fatbin.read_fatbins(section)
    except fatbin.FatbinError as error:
        return problems + [f"{member}: cannot read its fatbin: {error}"]
    if not fatbins:
        return problems + [f"{member}: .nv_fatbin holds no fatbin"]
    highest_ptx = max(ptx_wanted) if ptx_wanted else None
    for index, entries in enumerate(fatbins):
        sass = {e.arch for e in entries if e.kind == "sass"}
        ptx = {e.arch for e in entries if e.kind == "ptx"}
        missing = sorted(sass_wanted - sass)
        if missing:
            problems.append(
                f"{member}: fatbin {index} lacks SASS for "
                f"{', '.join(f'sm_{a}' for a in missing)}; build with "
                "DYNG_CUDA_ARCHITECTURES=release"
            )
        if highest_ptx is not None and highest_ptx not in ptx:
            problems.append(
                f"{member}: fatbin {index} lacks PTX for compute_{highest_ptx}, which "
                "newer GPUs need to JIT"
            )
    return problems


def check_wheel(path: Path, expect: Expectations) -> list[str]:
    """Every problem of the wheel at ``path`` (empty: the wheel passes)."""
    path = Path(path)
    problems = []
    size = path.stat().st_size
    if size > expect.size_budget:
        problems.append(
            f"{path.name} is {size / 2**20:.1f} MiB, over the budget of "
            f"{expect.size_budget / 2**20:.0f} MiB; drop architectures or debug info"
        )
    try:
        distribution = WheelName.parse(path.name).distribution
    except ValueError as error:
        return problems + [str(error)]
    plugin = _PLUGIN_WHEEL.match(distribution)
    plugin_major = render.cuda_major_of(plugin.group(1)) if plugin else None
    package = distribution if plugin else "dyng"
    if not plugin and distribution != "dyng":
        return problems + [f"{path.name} is neither dyng's wheel nor a dyng_cu<N> plugin's"]
    problems += _check_name(path, expect, distribution)

    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        try:
            metadata = read_metadata(archive)
        except (ValueError, KeyError) as error:
            return problems + [f"cannot read the wheel's metadata: {error}"]
        problems += _check_layout(names, package)
        entry_points = read_entry_points(archive)
        requires = metadata.get_all("Requires-Dist") or []
        if plugin:
            problems += _check_plugin_metadata(
                metadata, entry_points, requires, expect, plugin.group(1), plugin_major
            )
            problems += _check_licences(
                archive,
                metadata,
                licences.plugin_expression(expect.cpu_license),
                licences.plugin_licence_files(["LICENSE", "THIRD_PARTY_LICENSES.txt"]),
            )
        else:
            problems += _check_cpu_metadata(metadata, requires, expect)
            problems += _check_licences(
                archive, metadata, expect.cpu_license, ["LICENSE", "THIRD_PARTY_LICENSES.txt"]
            )
        problems += _check_binaries(archive, package, expect, plugin_major)
    return problems


def _check_plugin_metadata(
    metadata, entry_points, requires, expect: Expectations, plugin: str, major: int
) -> list[str]:
    problems = []
    if metadata.get("Name") != f"dyng-{plugin}":
        problems.append(f"Name is {metadata.get('Name')!r}, expected 'dyng-{plugin}'")
    wanted = [f"dyng=={expect.version}"]
    if expect.runtime == "shared":
        runtime_name, _ = render.RUNTIME_WHEELS[major]
        runtime_reqs = [r for r in requires if r.startswith(runtime_name)]
        if len(runtime_reqs) != 1 or f"<{major + 1}" not in runtime_reqs[0]:
            problems.append(
                f"a shared-runtime plugin must require {runtime_name} below CUDA "
                f"{major + 1} exactly once; Requires-Dist is {requires}"
            )
        requires = [r for r in requires if r not in runtime_reqs]
    if requires != wanted:
        problems.append(
            f"Requires-Dist is {requires}, expected exactly {wanted}: the plugin must "
            "pin the dyng it was built with"
        )
    group = entry_points.get(render.ENTRY_POINT_GROUP, {})
    if group != {plugin: f"dyng_{plugin}"}:
        problems.append(
            f"entry points [{render.ENTRY_POINT_GROUP}] are {group}, expected "
            f"{{{plugin!r}: 'dyng_{plugin}'}}"
        )
    if entry_points.get("console_scripts"):
        problems.append(
            "the plugin declares console scripts; only dyng's wheel has the dyng command"
        )
    if metadata.get_all("Provides-Extra"):
        problems.append(
            f"the plugin declares extras {metadata.get_all('Provides-Extra')}; it must have none"
        )
    return problems


def _check_cpu_metadata(metadata, requires, expect: Expectations) -> list[str]:
    problems = []
    if metadata.get("Name") != "dyng":
        problems.append(f"Name is {metadata.get('Name')!r}, expected 'dyng'")
    extras = set(metadata.get_all("Provides-Extra") or [])
    for extra, requirement in CPU_EXTRAS.items():
        wanted = requirement.format(version=expect.version)
        if extra not in extras:
            problems.append(f"the extra {extra!r} is missing (it must require {wanted})")
            continue
        matching = [
            r
            for r in requires
            if r.split(";")[0].strip() == wanted
            and re.search(rf"""extra\s*==\s*["']{re.escape(extra)}["']""", r)
        ]
        if not matching:
            problems.append(
                f"the extra {extra!r} does not require exactly {wanted}; the plugin "
                "pins come from VERSION through the template provider"
            )
    return problems


def check_sdist(path: Path) -> list[str]:
    """What the plugins need from the core sdist they are built from."""
    problems = []
    with tarfile.open(path) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    # merge_stub.py and device_stub.pyi make the plugin's type stub (python/CMakeLists.txt).
    for required in (
        "python/plugin/dyng_plugin/__init__.py",
        "python/plugin/README.md",
        "python/plugin/merge_stub.py",
        "python/plugin/device_stub.pyi",
        licences.CUDA_THIRD_PARTY,
        "THIRD_PARTY_LICENSES.txt",
        "LICENSE",
        "VERSION",
        "PKG-INFO",
    ):
        if required not in names:
            problems.append(
                f"the sdist lacks {required}; the plugin wheels are built from it "
                "(pyproject.toml sdist.include)"
            )
    strays = sorted(n for n in names if n.startswith(("build/", ".venv")) or "__pycache__" in n)
    if strays:
        problems.append(
            f"the sdist holds build output or caches ({strays[:3]}...); fix "
            "sdist.include/exclude in pyproject.toml"
        )
    return problems


def twine_check(paths: list[Path], twine: list[str]) -> list[str]:
    """``twine check --strict``: the metadata PyPI would render; returns its complaints."""
    done = subprocess.run(
        [*twine, "check", "--strict", *map(str, paths)], capture_output=True, text=True
    )
    if done.returncode == 0:
        return []
    return [f"twine check --strict failed:\n{done.stdout}{done.stderr}".rstrip()]
