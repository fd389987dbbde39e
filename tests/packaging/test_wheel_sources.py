"""The source-tree sync that keeps the compile cache valid across wheel builds (sources.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import sources  # noqa: E402

OLD = 1_000_000_000  # an mtime long past, like the fixed one an sdist gives every file


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    os.utime(path, (OLD, OLD))


def test_only_changed_files_are_rewritten(tmp_path):
    source, target = tmp_path / "sdist", tmp_path / "tree"
    write(source / "src" / "a.cpp", "int a;\n")
    write(source / "src" / "b.cpp", "int b;\n")
    write(source / "stale_dir" / "x.txt", "x\n")
    assert sources.sync_tree(source, target) == 3
    kept = (target / "src" / "a.cpp").stat().st_mtime

    # The next sdist: b.cpp edited (with the same old mtime), a folder gone, a file added.
    write(source / "src" / "b.cpp", "int b = 1;\n")
    for path in (source / "stale_dir" / "x.txt", source / "stale_dir"):
        path.unlink() if path.is_file() else path.rmdir()
    write(source / "src" / "c.cpp", "int c;\n")
    changed = sources.sync_tree(source, target)

    assert changed == 4  # b.cpp, c.cpp, stale_dir/x.txt and stale_dir
    assert (target / "src" / "a.cpp").stat().st_mtime == kept
    assert (target / "src" / "b.cpp").read_text() == "int b = 1;\n"
    # Newer than anything compiled from the old tree, although the sdist's mtime is old.
    assert (target / "src" / "b.cpp").stat().st_mtime > OLD
    assert not (target / "stale_dir").exists()
    assert sources.sync_tree(source, target) == 0
