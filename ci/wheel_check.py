#!/usr/bin/env python3
"""Checks built wheels (and the core sdist) against the release rules of ADR 0030 item 7.

    python ci/wheel_check.py [--version V] [--runtime static|shared] [--architectures LIST]
                             [--platform TAG] [--build-path DIR]... [--no-twine] FILE...

Plugin wheels (dyng_cu<N>-*.whl) get the plugin rules, dyng-*.whl the CPU rules, *.tar.gz the
sdist rules. Prints every problem found and exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wheelbuild import architectures, check, licences, log, pins, project  # noqa: E402

# The plugins' licence expression (ADR 0030 item 9), also written by the renderer.
PLUGIN_LICENSE_EXPRESSION = licences.PLUGIN_LICENSE_EXPRESSION


def twine_problems(path: Path) -> list[str]:
    twine = shutil.which("twine")
    if twine:
        return check.twine_check([path], [twine])
    if importlib.util.find_spec("twine"):
        return check.twine_check([path], [sys.executable, "-m", "twine"])
    return [
        "twine is not installed here, so twine check --strict did not run; install twine "
        "(the build's toolchain venv has it) or pass --no-twine"
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--version", default=None, help="dyng's version (default: VERSION)")
    parser.add_argument("--runtime", choices=("static", "shared"), default="static")
    parser.add_argument(
        "--architectures",
        default=";".join(architectures.RELEASE_12_8),
        help="CMake architecture list the plugins were built for",
    )
    parser.add_argument("--platform", default=pins.PLATFORM_TAG)
    parser.add_argument("--glibc", default=pins.GLIBC)
    parser.add_argument("--no-twine", action="store_true", help="skip twine check --strict")
    parser.add_argument(
        "--build-path",
        action="append",
        default=None,
        metavar="DIR",
        help="a folder of the build machine no extension module may name "
        "(repeatable; default: this checkout)",
    )
    args = parser.parse_args(argv)

    expect = check.Expectations(
        version=args.version or project.version(),
        runtime=args.runtime,
        platform=args.platform,
        glibc=args.glibc,
        architectures=tuple(a for a in args.architectures.replace(",", ";").split(";") if a),
        build_paths=tuple(args.build_path or [str(project.ROOT)]),
    )
    failed = False
    for path in args.files:
        problems = (
            check.check_sdist(path)
            if path.name.endswith(".tar.gz")
            else check.check_wheel(path, expect)
        )
        if not args.no_twine:
            problems += twine_problems(path)
        failed |= log.verdict(path.name, problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
