"""Finding a Python interpreter of a given version, the one way every driver step does it.

A name on PATH proves nothing: pyenv puts a shim for every installed version there, and a shim
exits 127 unless that version is selected in the current folder. So each candidate is run once
and kept only if it answers with the version asked for. Order: PATH (``python3.12``), then
pyenv's installs, newest patch release first.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

_PROBE = "import sys; print(*sys.version_info[:2], sep='.')"


def answers_as(candidate: str, version: str) -> bool:
    """True when running `candidate` works and reports `version` (``"3.12"``)."""
    try:
        done = subprocess.run([candidate, "-c", _PROBE], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and done.stdout.strip() == version


def candidates(version: str, path: str | None = None) -> list[str]:
    """Where an interpreter for `version` may be, in the order they are tried."""
    pyenv = sorted(
        Path.home().glob(f".pyenv/versions/{version}.*/bin/python{version}"),
        key=lambda p: [int(x) for x in p.parts[-3].split(".") if x.isdigit()],
        reverse=True,
    )
    return [c for c in [shutil.which(f"python{version}", path=path), *map(str, pyenv)] if c]


def find_python(version: str, path: str | None = None) -> str:
    """An interpreter that runs and is `version`; FileNotFoundError naming what was tried."""
    tried = candidates(version, path)
    for candidate in tried:
        if answers_as(candidate, version):
            return candidate
    looked = ", ".join(tried) if tried else "nothing on PATH or in pyenv"
    raise FileNotFoundError(
        f"no working python{version} found (tried: {looked}); install Python "
        f"{version}, or select it with pyenv, or set DYNG_WHEEL_PYTHON"
    )
