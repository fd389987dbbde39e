"""Repair: auditwheel retags the wheel manylinux_2_28 and bundles the OpenMP runtime (item 6).

libcuda is excluded by name so that no future change can bundle the user's driver. In the
runtime-as-a-dependency build libcudart is excluded too (NVIDIA's runtime wheel provides it), and
since auditwheel replaces the module's RPATH with its own .libs folder, the RPATH into the runtime
wheel is added back afterwards and the wheel's RECORD rewritten.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from . import log, pins, render, wheelfile

EXCLUDED_ALWAYS = ("libcuda.so.1", "libcuda.so")


def exclusions(cuda_major: int | None, runtime: str) -> list[str]:
    excluded = list(EXCLUDED_ALWAYS)
    if cuda_major is not None and runtime == "shared":
        excluded.append(f"libcudart.so.{cuda_major}")
    return excluded


def auditwheel_repair(
    wheel: Path,
    out_dir: Path,
    *,
    cuda_major: int | None,
    runtime: str,
    platform: str = pins.PLATFORM_TAG,
    env: dict[str, str],
) -> Path:
    """Runs auditwheel repair into ``out_dir``; returns the repaired wheel."""
    out_dir.mkdir(parents=True, exist_ok=True)
    before = set(out_dir.glob("*.whl"))
    command = ["auditwheel", "repair", "--plat", platform, "--wheel-dir", out_dir]
    for name in exclusions(cuda_major, runtime):
        command += ["--exclude", name]
    log.run([*command, wheel], env=env)
    made = sorted(set(out_dir.glob("*.whl")) - before) or sorted(
        out_dir.glob(f"{wheel.name.split('-')[0]}-*{platform}*.whl")
    )
    if not made:
        raise RuntimeError(f"auditwheel wrote no wheel into {out_dir}")
    repaired = made[-1]
    if cuda_major is not None and runtime == "shared":
        add_runtime_rpath(repaired, cuda_major, env)
    return repaired


def add_runtime_rpath(wheel: Path, cuda_major: int, env: dict[str, str]) -> None:
    """Appends $ORIGIN/../<runtime wheel folder> to the module's RPATH and rewrites the wheel."""
    _, folder = render.RUNTIME_WHEELS[cuda_major]
    files = wheelfile.read_all(wheel)
    package = f"dyng_cu{cuda_major}/"
    modules = [n for n in files if n.startswith(package + "_core.") and n.endswith(".so")]
    if len(modules) != 1:
        raise RuntimeError(f"{wheel.name}: expected one {package}_core*.so, found {modules}")
    with tempfile.TemporaryDirectory(prefix="dyng-rpath-") as tmp:
        module = Path(tmp) / "module.so"
        module.write_bytes(files[modules[0]])
        current = subprocess.run(
            ["patchelf", "--print-rpath", str(module)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, **env},
        ).stdout.strip()
        entries = [p for p in current.split(":") if p]
        wanted = f"$ORIGIN/../{folder}"
        if wanted not in entries:
            entries.append(wanted)
        log.run(["patchelf", "--force-rpath", "--set-rpath", ":".join(entries), module], env=env)
        files[modules[0]] = module.read_bytes()
    wheelfile.write_wheel(wheel, files)
