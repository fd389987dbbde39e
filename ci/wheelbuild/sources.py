"""The source every wheel is built from: the core sdist, unpacked into a stable build tree.

A release builds all three wheels from one sdist (ADR 0030 item 1). The unpacked tree is synced
into a persistent folder per flavour, copying only files whose bytes changed: they get a fresh
mtime and everything else keeps its old one, so the compiler output cached in the build folder
stays valid and a one-line change recompiles one file (an sdist's files all carry one fixed
mtime, which would otherwise hide changes from ninja).
"""

from __future__ import annotations

import filecmp
import shutil
import tarfile
import tempfile
from pathlib import Path

from . import log


def build_sdist(python: Path, root: Path, out_dir: Path, env: dict[str, str]) -> Path:
    """Builds the core sdist with scikit-build-core's PEP 517 hook; returns the archive."""
    out_dir.mkdir(parents=True, exist_ok=True)
    name = (
        log.run(
            [
                python,
                "-c",
                "import sys; from scikit_build_core.build import build_sdist; "
                "print(build_sdist(sys.argv[1]))",
                out_dir,
            ],
            cwd=root,
            env=env,
            capture=True,
        )
        .strip()
        .splitlines()[-1]
    )
    return out_dir / name


def sync_tree(source: Path, target: Path) -> int:
    """Makes ``target`` hold exactly ``source``'s files, rewriting only changed ones."""
    changed = 0
    target.mkdir(parents=True, exist_ok=True)
    wanted = set()
    for path in source.rglob("*"):
        rel = path.relative_to(source)
        wanted.add(rel)
        dest = target / rel
        if path.is_dir():
            dest.mkdir(parents=True, exist_ok=True)
        elif not dest.is_file() or not filecmp.cmp(path, dest, shallow=False):
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
            shutil.copymode(path, dest)
            changed += 1
    for path in sorted(target.rglob("*"), reverse=True):
        if path.relative_to(target) not in wanted:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
            changed += 1
    return changed


def unpack_into(sdist: Path, target: Path) -> int:
    """Unpacks the sdist's single top folder into ``target`` (synced); returns files changed."""
    with tempfile.TemporaryDirectory(prefix="dyng-sdist-") as tmp:
        with tarfile.open(sdist) as archive:
            archive.extractall(tmp, filter="data")
        tops = list(Path(tmp).iterdir())
        if len(tops) != 1 or not tops[0].is_dir():
            raise RuntimeError(f"{sdist} should hold one top folder, found {len(tops)} entries")
        return sync_tree(tops[0], target)
