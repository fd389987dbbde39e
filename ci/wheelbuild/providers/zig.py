"""zig's clang as a glibc-2.28 C/C++ toolchain, wrapped so that CMake and nvcc can drive it.

``zig cc``/``zig c++ -target x86_64-linux-gnu.<glibc>`` compile and link against glibc stubs of
that version and zig's own libc++ (linked statically), which is what lets a wheel reach
manylinux_2_28 on a machine whose system glibc is newer. CMake and nvcc want a single executable
per compiler, so each mode gets a small shell wrapper; the C++ one is also written as
``clang++`` because nvcc picks its host-compiler dialect from the executable's name.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

from ..toolchain import ToolchainError

ZIG_TARGET_ARCH = "x86_64-linux-gnu"


def zig_executable(site_packages: Path) -> Path:
    """The zig binary that the PyPI ``ziglang`` wheel installs."""
    exe = site_packages / "ziglang" / "zig"
    if not exe.is_file():
        raise ToolchainError(
            f"{exe} is missing: the toolchain venv has no ziglang; check the lock "
            f"file and delete {site_packages.parents[2]} to rebuild it"
        )
    return exe


def shared_zig(site_packages: Path, work: Path) -> Path:
    """One zig installation for every flavour's venv, at a fixed path under ``work``.

    zig keys its cache (including the ~4 minute builds of libc++ per optimisation mode) on the
    paths of its own library sources, so the three venvs' copies would each rebuild libc++. A
    hard-linked copy at build/wheel-toolchains/zig-<version> costs no disk and keeps one cache.
    """
    source = zig_executable(site_packages).parent
    found = sorted(site_packages.glob("ziglang-*.dist-info"))
    version = found[-1].name[len("ziglang-") : -len(".dist-info")] if found else "unknown"
    target = work / f"zig-{version}"
    if not (target / "zig").is_file():
        partial = work / f".zig-{version}.partial"
        shutil.rmtree(partial, ignore_errors=True)

        def link(src: str, dst: str) -> None:
            try:
                os.link(src, dst)
            except OSError:  # another file system: copy instead
                shutil.copy2(src, dst)

        shutil.copytree(
            source, partial, copy_function=link, ignore=shutil.ignore_patterns("__pycache__")
        )
        partial.rename(target)
    return target / "zig"


def _wrapper(zig: Path, mode: str, target: str, extra: list[str]) -> str:
    fixed = " ".join(shlex.quote(a) for a in [str(zig), mode, "-target", target, *extra])
    return (
        "#!/bin/sh\n"
        "# Written by ci/wheelbuild/providers/zig.py: zig's clang for glibc " + target + ".\n"
        f'exec {fixed} "$@"\n'
    )


def write_wrappers(zig: Path, bin_dir: Path, glibc: str) -> dict[str, Path]:
    """Writes cc, c++ and clang++ (the nvcc host compiler) into ``bin_dir``; returns their paths."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    target = f"{ZIG_TARGET_ARCH}.{glibc}"
    wrappers = {
        "cc": _wrapper(zig, "cc", target, []),
        "c++": _wrapper(zig, "c++", target, []),
        # nvcc treats an executable named clang++ as clang (which it needs to accept the flags it
        # passes); zig c++ is clang underneath.
        "clang++": _wrapper(zig, "c++", target, []),
    }
    paths = {}
    for name, text in wrappers.items():
        path = bin_dir / name
        if not path.is_file() or path.read_text() != text:
            path.write_text(text)
            path.chmod(0o755)
        paths[name] = path
    return paths


def cache_env(cache_root: Path) -> dict[str, str]:
    """Keeps zig's caches (its libc++ build takes ~80 s the first time) under the build folder."""
    return {
        "ZIG_GLOBAL_CACHE_DIR": str(cache_root / "global"),
        "ZIG_LOCAL_CACHE_DIR": str(cache_root / "local"),
    }


# nvcc with zig as host compiler. zig's glibc headers are the newest glibc's (version-guarded by
# __GLIBC_MINOR__ for symbols, not for declarations), so under _GNU_SOURCE they declare sinpi,
# cospi and rsqrt, while CUDA's math headers, seeing glibc 2.28, declare the same functions with
# another exception specification. CUDA sources are therefore compiled without _GNU_SOURCE, and
# this header declares the three GNU functions libc++'s locale support calls (glibc has had them
# since 2.3, so the 2.28 floor holds).
_CUDA_HOST_COMPAT = """/* Written by ci/wheelbuild/providers/zig.py; forced into CUDA sources
   (nvcc --pre-include), which are compiled without _GNU_SOURCE: glibc then does not declare
   these, but libc++ calls them. */
#pragma once
#include <locale.h>
#ifdef __cplusplus
extern "C" {
#endif
float strtof_l(const char* text, char** end, locale_t locale) __THROW;
double strtod_l(const char* text, char** end, locale_t locale) __THROW;
long double strtold_l(const char* text, char** end, locale_t locale) __THROW;
#ifdef __cplusplus
}
#endif
"""
NVCC_HOST_FLAGS = "-Xcompiler=-U_GNU_SOURCE,-D_DEFAULT_SOURCE"


def cuda_host_compat_header(folder: Path) -> Path:
    """Writes the header that nvcc --pre-include's into CUDA sources; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "dyng_cuda_host_compat.h"
    if not path.is_file() or path.read_text() != _CUDA_HOST_COMPAT:
        path.write_text(_CUDA_HOST_COMPAT)
    return path
