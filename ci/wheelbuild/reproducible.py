"""Two builds of one commit from two folders, compared file by file (docs/developer/wheels.md,
"Reproducible wheels").

The folders' paths differ in length and in name: a pair of the same length hides whatever only
shifts the layout of a binary (a zero-filled RPATH in .dynstr did, until the module was linked
with its install RPATH). Each folder is a clone of the commit, with its own toolchain, so a path
of the toolchain that leaked into a wheel would show too, as it would for a user.
"""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from . import log

FOLDER_NAMES = ("a", "checkout-with-a-longer-name")


def clone_at(root: Path, folder: Path, commit: str) -> None:
    """Makes ``folder`` a clone of ``root`` checked out at ``commit``, reusing an earlier clone
    (and its build/ folder, the compile cache) when there is one."""
    if not (folder / ".git").exists():
        folder.parent.mkdir(parents=True, exist_ok=True)
        log.run(["git", "clone", "--quiet", "--no-checkout", root, folder])
    else:
        log.run(["git", "-C", folder, "fetch", "--quiet", root, commit])
    log.run(["git", "-C", folder, "checkout", "--quiet", "--force", "--detach", commit])
    log.run(["git", "-C", folder, "clean", "--quiet", "-d", "--force", "-x", "--exclude=/build/"])


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Comparison:
    name: str  # the wheel's file name
    digests: tuple[str | None, str | None]  # per folder; None where the wheel is missing
    members: list[str] = field(default_factory=list)  # one line per file that differs

    @property
    def same(self) -> bool:
        return self.digests[0] is not None and self.digests[0] == self.digests[1]


def _first_difference(a: bytes, b: bytes) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def compare_wheel(a: Path, b: Path) -> Comparison:
    """Digests of two wheels of one name and, where they differ, which files inside differ."""
    found = tuple(sha256(p.read_bytes()) if p.is_file() else None for p in (a, b))
    result = Comparison(name=a.name if a.is_file() else b.name, digests=found)
    if result.same or None in found:
        return result
    with zipfile.ZipFile(a) as left, zipfile.ZipFile(b) as right:
        names_a, names_b = set(left.namelist()), set(right.namelist())
        for name in sorted(names_a ^ names_b):
            result.members.append(
                f"{name}: only in {'the first' if name in names_a else 'the second'}"
            )
        for name in sorted(names_a & names_b):
            x, y = left.read(name), right.read(name)
            if x != y:
                result.members.append(
                    f"{name}: {len(x)} and {len(y)} bytes, first difference at "
                    f"byte {_first_difference(x, y)}"
                )
            elif left.getinfo(name).date_time != right.getinfo(name).date_time:
                result.members.append(f"{name}: same bytes, different timestamps")
        if not result.members:
            result.members.append("same files; the archives differ (order or zip metadata)")
    return result


def compare_dists(dist_a: Path, dist_b: Path, prefixes: list[str]) -> list[Comparison]:
    """Compares every wheel whose name starts with one of ``prefixes`` in the two folders."""
    names = sorted(
        {
            p.name
            for d in (dist_a, dist_b)
            for p in d.glob("*.whl")
            if any(p.name.startswith(prefix) for prefix in prefixes)
        }
    )
    return [compare_wheel(dist_a / name, dist_b / name) for name in names]
