"""The pypi provider's hermetic tool environment: one venv per flavour, made from a lock file.

``build/wheel-toolchains/<flavour>/venv`` receives exactly the files named in
``ci/wheel-requirements/<flavour>.txt`` (``--require-hashes --no-deps``), so nothing unpinned
enters a build. A stamp records the lock file's digest: an unchanged lock reuses the venv, which
is what makes a rebuild cheap.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from .. import log
from ..interpreters import find_python
from ..toolchain import ToolchainError

REQUIREMENTS_DIR = Path(__file__).resolve().parents[2] / "wheel-requirements"
_STAMP = ".dyng-lock-sha256"


def build_python() -> str:
    """A CPython 3.12 interpreter to run the toolchain venv (and so the abi3 build) on.

    ``$DYNG_WHEEL_PYTHON`` wins; then this interpreter when it is 3.12; then a python3.12 that
    really runs (interpreters.py: a pyenv shim on PATH does not count).
    """
    chosen = os.environ.get("DYNG_WHEEL_PYTHON")
    if chosen:
        return chosen
    if sys.version_info[:2] == (3, 12):
        return sys.executable
    try:
        return find_python("3.12")
    except FileNotFoundError as error:
        raise ToolchainError(f"no CPython 3.12 to build the wheels with: {error}") from None


def lock_file(flavour: str) -> Path:
    path = REQUIREMENTS_DIR / f"{flavour}.txt"
    if not path.is_file():
        raise ToolchainError(
            f"lock file {path} is missing; regenerate it with "
            f"python ci/wheelbuild/lock.py {flavour}"
        )
    return path


def ensure_venv(flavour: str, work: Path) -> Path:
    """The venv for ``flavour``, made (or remade) when its lock file changed; returns its root."""
    lock = lock_file(flavour)
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    venv = work / flavour / "venv"
    stamp = venv / _STAMP
    if stamp.is_file() and stamp.read_text().strip() == digest:
        log.say(f"toolchain venv {venv} matches {lock.name}; reused")
        return venv
    log.run([build_python(), "-m", "venv", "--clear", venv])
    python = venv / "bin" / "python"
    # --no-deps: the lock names every file; pip must neither resolve nor fetch anything else.
    log.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--require-hashes",
            "--no-deps",
            "--only-binary=:all:",
            "--requirement",
            lock,
        ]
    )
    stamp.write_text(digest + "\n")
    return venv


def site_packages(venv: Path) -> Path:
    found = sorted(venv.glob("lib/python3.*/site-packages"))
    if not found:
        raise ToolchainError(f"{venv} has no lib/python3.*/site-packages; delete it and rerun")
    return found[0]
