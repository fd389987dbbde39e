#!/usr/bin/env python3
"""Builds the wheels of the current commit in two folders whose paths differ in length and name,
and compares them byte for byte (issue 40).

    python ci/check_reproducible.py {cpu,cu12,cu13,all} [--work DIR] [--remove] [build.py options]

Each folder under --work (default build/reproducible) is a clone of HEAD with its own toolchain
and build cache, built by ``ci/build.py <target> --no-install-test`` one after the other; any
other option is passed on to ci/build.py. Prints the SHA-256 of every wheel from each folder and,
where they differ, the files inside that differ; exits 1 then. Uncommitted changes are not in the
clones. A later run reuses the clones (an incremental build); --remove deletes them at the end.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wheelbuild import log, project, reproducible  # noqa: E402

ROOT = project.ROOT
TARGETS = {"cpu": "dyng", "cu12": "dyng_cu12", "cu13": "dyng_cu13"}


def parse_args(argv: list[str] | None) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("target", choices=[*TARGETS, "all"], help="which wheel(s) to build")
    parser.add_argument(
        "--work",
        type=Path,
        default=ROOT / "build" / "reproducible",
        help="where the two clones go (default build/reproducible)",
    )
    parser.add_argument("--remove", action="store_true", help="delete the clones at the end")
    args, build_args = parser.parse_known_args(argv)
    args.work = args.work.resolve()
    return args, build_args


def head_commit() -> str:
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    if dirty.strip():
        log.say(
            "note: the working tree has uncommitted changes; the clones build HEAD without them"
        )
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    args, build_args = parse_args(argv)
    commit = head_commit()
    folders = [args.work / name for name in reproducible.FOLDER_NAMES]
    targets = list(TARGETS) if args.target == "all" else [args.target]
    prefixes = [f"{TARGETS[t]}-{project.version()}-" for t in targets]
    for folder in folders:
        with log.step(f"{folder}: clone of {commit[:12]}"):
            reproducible.clone_at(ROOT, folder, commit)
        for stale in (folder / "dist").glob("*.whl"):
            stale.unlink()
        with log.step(f"{folder}: ci/build.py {args.target}"):
            log.run(
                [sys.executable, "ci/build.py", args.target, "--no-install-test", *build_args],
                cwd=folder,
            )
    comparisons = reproducible.compare_dists(folders[0] / "dist", folders[1] / "dist", prefixes)
    failed = not comparisons
    width = max(len(str(f)) for f in folders)
    print(f"commit {commit}")
    for comparison in comparisons:
        print(comparison.name)
        for folder, digest in zip(folders, comparison.digests):
            print(f"  {str(folder):<{width}}  {digest or 'missing'}")
        print("  same bytes" if comparison.same else "  DIFFERENT")
        for line in comparison.members:
            print(f"    {line}")
        failed |= not comparison.same
    if not comparisons:
        print(f"no wheel named {' or '.join(prefixes)}* in either folder")
    if args.remove:
        for folder in folders:
            shutil.rmtree(folder)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except log.CommandError as error:
        log.say(f"error: {error}")
        sys.exit(1)
