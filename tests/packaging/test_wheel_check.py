"""The wheel checker against small synthetic wheels: one good plugin, one good CPU wheel, and
deliberately broken variants, each of which must be rejected with a message naming the fault.

The wheels are built here from scratch: a minimal ELF writer produces the extension module (its
dynamic section, exported symbols, glibc version needs and a .nv_fatbin section holding a fatbin
with chosen SASS/PTX entries), so the tests need no compiler and no CUDA.
"""

from __future__ import annotations

import struct
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "ci"))

from wheelbuild import architectures, check, elf, fatbin, licences, pins, render, wheelfile  # noqa: E402

VERSION = "0.3.0"
RELEASE_SASS, RELEASE_PTX = architectures.expected_code(architectures.RELEASE_12_8)
EULA_TEXT = "NVIDIA CUDA Toolkit End User License Agreement\n" + "terms " * 400


def _strtab(strings: list[str]) -> tuple[bytes, dict[str, int]]:
    data, offsets = b"\0", {}
    for s in strings:
        if s not in offsets:
            offsets[s] = len(data)
            data += s.encode() + b"\0"
    return data, offsets


def make_elf(
    *,
    needed=("libc.so.6",),
    exported=("PyInit__core",),
    hidden=(),
    rpath=(),
    glibc=("GLIBC_2.17",),
    fatbin_bytes: bytes | None = None,
) -> bytes:
    """A minimal 64-bit ELF shared object with just the sections elf.read_elf reads."""
    strings = [*needed, *exported, *hidden, ":".join(rpath), "libc.so.6", *glibc]
    dynstr, off = _strtab(strings)
    # .dynsym: null symbol, then exported (GLOBAL, DEFAULT, defined) and hidden ones.
    dynsym = b"\0" * 24
    for name in exported:
        dynsym += struct.pack("<IBBHQQ", off[name], (1 << 4) | 2, 0, 7, 0x1000, 8)
    for name in hidden:
        dynsym += struct.pack("<IBBHQQ", off[name], (1 << 4) | 2, 2, 7, 0x1000, 8)
    dynamic = b"".join(struct.pack("<qQ", elf.DT_NEEDED, off[n]) for n in needed)
    if rpath:
        dynamic += struct.pack("<qQ", elf.DT_RPATH, off[":".join(rpath)])
    dynamic += struct.pack("<qQ", 0, 0)
    verneed = b""
    if glibc:
        verneed = struct.pack("<HHIII", 1, len(glibc), off["libc.so.6"], 16, 0)
        for i, version in enumerate(glibc):
            nxt = 16 if i < len(glibc) - 1 else 0
            verneed += struct.pack("<IHHII", 0, 0, i + 2, off[version], nxt)
    sections = [
        (".dynstr", 3, dynstr, 0),
        (".dynsym", elf.SHT_DYNSYM, dynsym, 1),
        (".dynamic", elf.SHT_DYNAMIC, dynamic, 1),
    ]
    if verneed:
        sections.append((".gnu.version_r", elf.SHT_GNU_VERNEED, verneed, 1))
    if fatbin_bytes is not None:
        sections.append((".nv_fatbin", 1, fatbin_bytes, 0))
    shstr, shoff_names = _strtab([s[0] for s in sections] + [".shstrtab"])
    sections.append((".shstrtab", 3, shstr, 0))
    body, placed, pos = b"", [], 64
    for name, kind, data, link in sections:
        placed.append((name, kind, pos, len(data), link))
        body += data
        pos += len(data)
    pos += (-pos) % 8
    body = body.ljust(pos - 64, b"\0")
    header = bytearray(64)
    header[:16] = b"\x7fELF\x02\x01\x01" + b"\0" * 9
    struct.pack_into(
        "<HHIQQQIHHHHHH",
        header,
        16,
        3,
        62,
        1,
        0,
        0,
        pos,
        0,
        64,
        0,
        0,
        64,
        len(placed) + 1,
        len(placed),
    )
    shdrs = b"\0" * 64
    for name, kind, offset, size, link in placed:
        shdrs += struct.pack(
            "<IIQQQQIIQQ",
            shoff_names[name],
            kind,
            0,
            0,
            offset,
            size,
            link,
            0,
            1,
            24 if kind == elf.SHT_DYNSYM else 0,
        )
    return bytes(header) + body + shdrs


def release_fatbin(drop_sass: int | None = None, drop_ptx: bool = False) -> bytes:
    entries = [fatbin.Entry("sass", a) for a in sorted(RELEASE_SASS) if a != drop_sass]
    if not drop_ptx:
        entries += [fatbin.Entry("ptx", a) for a in sorted(RELEASE_PTX)]
    return fatbin.write_fatbin(entries)


def plugin_files(
    major: int = 13,
    *,
    version: str = VERSION,
    requires=None,
    module: bytes = None,
    extra_files=None,
    drop_licence: str | None = None,
    entry_points: str = None,
):
    package = f"dyng_cu{major}"
    info = f"{package}-{version}.dist-info"
    lic_files = licences.plugin_licence_files(["LICENSE", "THIRD_PARTY_LICENSES.txt"])
    requires = [f"dyng=={version}"] if requires is None else requires
    metadata = [
        "Metadata-Version: 2.4",
        f"Name: dyng-cu{major}",
        f"Version: {version}",
        f"License-Expression: {licences.PLUGIN_LICENSE_EXPRESSION}",
        *[f"License-File: {name}" for name in lic_files],
        *[f"Requires-Dist: {r}" for r in requires],
        "",
    ]
    files = {
        f"{package}/__init__.py": b"",
        f"{package}/_core.pyi": b"",
        f"{package}/_core.abi3.so": module
        if module is not None
        else make_elf(fatbin_bytes=release_fatbin()),
        f"{package}.libs/libomp-1a2b3c4d.so": make_elf(
            exported=("omp_get_num_threads",), needed=("libc.so.6",)
        ),
        f"{info}/METADATA": "\n".join(metadata).encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp312-abi3-"
        b"manylinux_2_28_x86_64\n",
        f"{info}/entry_points.txt": (
            entry_points
            if entry_points is not None
            else f"[dyng.backends]\ncu{major} = {package}\n"
        ).encode(),
    }
    for name in lic_files:
        if name != drop_licence:
            files[f"{info}/licenses/{name}"] = (
                EULA_TEXT if name == licences.EULA_NAME else f"{name} text\n"
            ).encode()
    files.update(extra_files or {})
    return files


def cpu_files(*, version: str = VERSION, extras=None):
    info = f"dyng-{version}.dist-info"
    extras = check.CPU_EXTRAS if extras is None else extras
    lines = [
        "Metadata-Version: 2.4",
        "Name: dyng",
        f"Version: {version}",
        f"License-Expression: {licences.CPU_LICENSE_EXPRESSION}",
        "License-File: LICENSE",
        "License-File: THIRD_PARTY_LICENSES.txt",
        "Requires-Dist: numpy>=1.26",
    ]
    for extra, requirement in extras.items():
        lines += [
            f"Provides-Extra: {extra}",
            f'Requires-Dist: {requirement.format(version=version)}; extra == "{extra}"',
        ]
    return {
        "dyng/__init__.py": b"",
        "dyng/_core.pyi": b"",
        "dyng/_core.abi3.so": make_elf(),
        f"{info}/METADATA": ("\n".join(lines) + "\n").encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\n",
        f"{info}/entry_points.txt": b"[console_scripts]\ndyng = dyng.__main__:main\n",
        f"{info}/licenses/LICENSE": b"Apache\n",
        f"{info}/licenses/THIRD_PARTY_LICENSES.txt": b"third party\n",
    }


def wheel(tmp_path: Path, files: dict[str, bytes], name: str) -> Path:
    return wheelfile.write_wheel(tmp_path / name, files)


PLUGIN_NAME = f"dyng_cu13-{VERSION}-cp312-abi3-{pins.PLATFORM_TAG}.whl"
CPU_NAME = f"dyng-{VERSION}-cp312-abi3-{pins.PLATFORM_TAG}.whl"
EXPECT = check.Expectations(version=VERSION)


def problems_of(tmp_path, files, name=PLUGIN_NAME, expect=EXPECT):
    return check.check_wheel(wheel(tmp_path, files, name), expect)


def test_good_plugin_and_cpu_wheels_pass(tmp_path):
    assert problems_of(tmp_path, plugin_files()) == []
    assert problems_of(tmp_path, cpu_files(), CPU_NAME) == []


def test_elf_reader_reads_what_the_writer_put(tmp_path):
    info = elf.read_elf(
        make_elf(
            needed=("libomp.so", "libc.so.6"),
            hidden=("helper",),
            rpath=("$ORIGIN/../x",),
            glibc=("GLIBC_2.14", "GLIBC_2.28"),
            fatbin_bytes=release_fatbin(),
        )
    )
    assert info.needed == ["libomp.so", "libc.so.6"]
    assert info.exported == ["PyInit__core"]
    assert info.rpath == ["$ORIGIN/../x"]
    assert info.max_glibc() == (2, 28)
    entries = fatbin.read_fatbins(info.sections[".nv_fatbin"])[0]
    assert {e.arch for e in entries if e.kind == "sass"} == RELEASE_SASS


def test_bundled_libcuda_is_rejected(tmp_path):
    bundled = {"dyng_cu13.libs/libcuda-0f1e2d3c.so.1": make_elf(exported=())}
    files = plugin_files(extra_files=bundled)
    found = problems_of(tmp_path, files)
    assert any("bundles libcuda" in p for p in found), found


def test_dt_needed_on_cudart_is_rejected_for_a_static_plugin(tmp_path):
    module = make_elf(needed=("libcudart.so.13", "libc.so.6"), fatbin_bytes=release_fatbin())
    found = problems_of(tmp_path, plugin_files(module=module))
    assert any("needs libcudart.so.13 (DT_NEEDED)" in p for p in found), found


def test_wrong_dyng_pin_is_rejected(tmp_path):
    found = problems_of(tmp_path, plugin_files(requires=["dyng>=0.2"]))
    assert any("Requires-Dist" in p and "dyng==0.3.0" in p for p in found), found


def test_missing_type_stub_is_rejected(tmp_path):
    plugin = plugin_files()
    del plugin["dyng_cu13/_core.pyi"]
    assert any("dyng_cu13/_core.pyi" in p for p in problems_of(tmp_path, plugin))
    cpu = cpu_files()
    del cpu["dyng/_core.pyi"]
    assert any("dyng/_core.pyi" in p for p in problems_of(tmp_path, cpu, CPU_NAME))


def test_missing_eula_is_rejected(tmp_path):
    found = problems_of(tmp_path, plugin_files(drop_licence=licences.EULA_NAME))
    assert any("NVIDIA_CUDA_EULA.txt is missing" in p for p in found), found


def test_missing_sass_is_rejected(tmp_path):
    module = make_elf(fatbin_bytes=release_fatbin(drop_sass=100))
    found = problems_of(tmp_path, plugin_files(module=module))
    assert any("lacks SASS for sm_100" in p for p in found), found


def test_missing_ptx_for_the_highest_architecture_is_rejected(tmp_path):
    module = make_elf(fatbin_bytes=release_fatbin(drop_ptx=True))
    found = problems_of(tmp_path, plugin_files(module=module))
    assert any("lacks PTX for compute_120" in p for p in found), found


def test_plugin_without_device_code_is_rejected(tmp_path):
    found = problems_of(tmp_path, plugin_files(module=make_elf()))
    assert any("no .nv_fatbin" in p for p in found), found


def test_oversized_wheel_is_rejected(tmp_path):
    small_budget = check.Expectations(version=VERSION, size_budget=2048)
    found = problems_of(tmp_path, plugin_files(), expect=small_budget)
    assert any("over the budget" in p for p in found), found


def test_extra_exported_symbols_are_rejected(tmp_path):
    module = make_elf(
        exported=("PyInit__core", "_ZNSt3__16vectorIiE4sizeEv"), fatbin_bytes=release_fatbin()
    )
    found = problems_of(tmp_path, plugin_files(module=module))
    assert any("exports 1 symbols besides PyInit__core" in p for p in found), found


def test_too_new_glibc_is_rejected(tmp_path):
    module = make_elf(glibc=("GLIBC_2.17", "GLIBC_2.34"), fatbin_bytes=release_fatbin())
    found = problems_of(tmp_path, plugin_files(module=module))
    assert any("needs GLIBC_2.34" in p for p in found), found


def test_wrong_entry_point_and_stray_package_are_rejected(tmp_path):
    files = plugin_files(
        entry_points="[dyng.backends]\ncu13 = dyng_cu12\n[console_scripts]\n"
        "dyng = dyng.__main__:main\n",
        extra_files={"dyng/__init__.py": b""},
    )
    found = problems_of(tmp_path, files)
    assert any("entry points [dyng.backends]" in p for p in found), found
    assert any("console scripts" in p for p in found), found
    assert any("unexpected top-level entries ['dyng']" in p for p in found), found


def test_wrong_tags_are_rejected(tmp_path):
    found = problems_of(
        tmp_path, plugin_files(), name=f"dyng_cu13-{VERSION}-cp313-cp313-linux_x86_64.whl"
    )
    assert any("cp313-cp313" in p for p in found), found
    assert any("lacks manylinux_2_28_x86_64" in p for p in found), found


def test_cpu_wheel_without_plugin_extras_is_rejected(tmp_path):
    extras = {k: v for k, v in check.CPU_EXTRAS.items() if k != "cu13"}
    extras["cu12"] = "dyng-cu12>=0.1"
    found = problems_of(tmp_path, cpu_files(extras=extras), CPU_NAME)
    assert any("extra 'cu13' is missing" in p for p in found), found
    assert any("extra 'cu12' does not require exactly dyng-cu12==0.3.0" in p for p in found), found


def test_shared_runtime_plugin_rules(tmp_path):
    shared = check.Expectations(version=VERSION, runtime="shared")
    _, folder = render.RUNTIME_WHEELS[13]
    module = make_elf(
        needed=("libcudart.so.13", "libc.so.6"),
        rpath=("$ORIGIN/../dyng_cu13.libs", f"$ORIGIN/../{folder}"),
        fatbin_bytes=release_fatbin(),
    )
    requires = [f"dyng=={VERSION}", "nvidia-cuda-runtime>=13.5,<14"]
    assert (
        problems_of(tmp_path, plugin_files(module=module, requires=requires), expect=shared) == []
    )
    no_rpath = make_elf(needed=("libcudart.so.13",), fatbin_bytes=release_fatbin())
    found = problems_of(
        tmp_path, plugin_files(module=no_rpath, requires=[f"dyng=={VERSION}"]), expect=shared
    )
    assert any("RPATH" in p for p in found), found
    assert any("must require nvidia-cuda-runtime" in p for p in found), found


def test_wheel_written_by_wheelfile_has_a_valid_record(tmp_path):
    path = wheel(tmp_path, plugin_files(), PLUGIN_NAME)
    with zipfile.ZipFile(path) as archive:
        record = archive.read(f"dyng_cu13-{VERSION}.dist-info/RECORD").decode().splitlines()
        assert len(record) == len(archive.namelist())


def test_sdist_check_names_what_is_missing(tmp_path):
    import tarfile

    sdist = tmp_path / "dyng-0.3.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        for name in (
            "PKG-INFO",
            "VERSION",
            "LICENSE",
            "THIRD_PARTY_LICENSES.txt",
            "python/plugin/README.md",
            "build/x.o",
        ):
            source = tmp_path / "f"
            source.write_text("x")
            archive.add(source, f"dyng-0.3.0/{name}")
    found = check.check_sdist(sdist)
    assert any("python/plugin/dyng_plugin/__init__.py" in p for p in found), found
    assert any("python/plugin/device_stub.pyi" in p for p in found), found
    assert any(licences.CUDA_THIRD_PARTY in p for p in found), found
    assert any("build output" in p for p in found), found


def test_wheel_check_cli_exit_status(tmp_path):
    import subprocess

    good = wheel(tmp_path, plugin_files(), PLUGIN_NAME)
    bad_dir = tmp_path / "bad"
    bad_dir.mkdir()
    bad = wheel(bad_dir, plugin_files(drop_licence=licences.EULA_NAME), PLUGIN_NAME)
    cli = Path(__file__).resolve().parents[2] / "ci" / "wheel_check.py"
    ok = subprocess.run(
        [sys.executable, str(cli), "--version", VERSION, "--no-twine", str(good)],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    failed = subprocess.run(
        [sys.executable, str(cli), "--version", VERSION, "--no-twine", str(bad)],
        capture_output=True,
        text=True,
    )
    assert failed.returncode == 1
    assert "NVIDIA_CUDA_EULA.txt" in failed.stdout + failed.stderr


@pytest.mark.parametrize(
    "entry,expected",
    [("75-real", ({75}, set())), ("120", ({120}, {120})), ("90-virtual", (set(), {90}))],
)
def test_architecture_entries_mean_sass_and_ptx(entry, expected):
    assert architectures.expected_code([entry]) == expected


BUILD_FOLDER = "/home/builder/checkouts/dyng-a"


def test_a_module_naming_a_build_folder_is_rejected(tmp_path):
    # What clang's OpenMP source locations leave behind without the prefix maps.
    location = (
        f";{BUILD_FOLDER}/build/wheels-src/cpu/src/dyng/sssp/detail/"
        "delta_stepping_openmp.hpp;relax;88;9;;"
    ).encode()
    files = cpu_files()
    files["dyng/_core.abi3.so"] = make_elf() + b"\0" + location + b"\0" + location + b"\0"
    expect = check.Expectations(version=VERSION, build_paths=(BUILD_FOLDER,))
    problems = problems_of(tmp_path, files, CPU_NAME, expect)
    assert len(problems) == 1, problems
    assert f"names the build machine's folder {BUILD_FOLDER} 2 time(s)" in problems[0]
    assert "delta_stepping_openmp.hpp" in problems[0] and "dyng_reproducible" in problems[0]
    # A folder that only shares a prefix with the one named is not a match.
    other = check.Expectations(version=VERSION, build_paths=(BUILD_FOLDER + "-b",))
    assert problems_of(tmp_path, files, CPU_NAME, other) == []
    # Mapped names (dyng/..., dyng-build/...) pass.
    files["dyng/_core.abi3.so"] = make_elf() + b"\0;dyng/src/dyng/sssp/detail/x.hpp;f;1;1;;\0"
    assert problems_of(tmp_path, files, CPU_NAME, expect) == []


def test_wheel_check_cli_checks_the_checkout_by_default(tmp_path):
    import wheel_check
    from wheelbuild import project

    files = cpu_files()
    files["dyng/_core.abi3.so"] = make_elf() + f"\0{project.ROOT}/src/dyng/x.hpp\0".encode()
    path = wheel(tmp_path, files, CPU_NAME)
    assert wheel_check.main([str(path), "--version", VERSION, "--no-twine"]) == 1
    assert (
        wheel_check.main(
            [str(path), "--version", VERSION, "--no-twine", "--build-path", "/nowhere/else"]
        )
        == 0
    )
