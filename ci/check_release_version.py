#!/usr/bin/env python3
"""Checks that a release tag, VERSION and CHANGELOG.md agree (release.yml's first job, issue 46).

    python ci/check_release_version.py TAG [--root DIR]

The tag must be ``v`` + VERSION; VERSION must be a public release version (PEP 440 without a
``.dev`` or local part: PyPI refuses local versions and a development version is not a release);
CHANGELOG.md must have a section ``## [VERSION] - YYYY-MM-DD`` with at least one entry. Prints
every problem and exits 1, or prints the version and exits 0; with GITHUB_OUTPUT set (in a
workflow) it also writes ``version=VERSION`` there for the jobs that follow.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A public PEP 440 version in its normal form: final, pre-release (a, b, rc) or post-release.
RELEASE_VERSION = re.compile(r"^\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?$")
SECTION = re.compile(r"^## \[(?P<version>[^\]]+)\](?P<rest>.*)$", re.M)
DATED = re.compile(r"^ - \d{4}-\d{2}-\d{2}\s*$")


def changelog_problems(changelog: Path, version: str) -> list[str]:
    """What keeps CHANGELOG.md from describing ``version``."""
    if not changelog.is_file():
        return [f"{changelog.name} is missing; add it with a '## [{version}] - YYYY-MM-DD' section"]
    text = changelog.read_text()
    sections = list(SECTION.finditer(text))
    for index, section in enumerate(sections):
        if section.group("version") != version:
            continue
        problems = []
        if not DATED.match(section.group("rest")):
            problems.append(
                f"{changelog.name}'s heading '{section.group(0)}' has no date; write "
                f"'## [{version}] - YYYY-MM-DD' (the release day)"
            )
        end = sections[index + 1].start() if index + 1 < len(sections) else len(text)
        body = text[section.end() : end]
        if not re.search(r"^\s*[-*] \S", body, re.M):
            problems.append(
                f"{changelog.name}'s section {version} lists no change; move the "
                "entries of [Unreleased] into it"
            )
        return problems
    return [
        f"{changelog.name} has no section for {version}; rename '## [Unreleased]' to "
        f"'## [{version}] - YYYY-MM-DD' and start a new empty [Unreleased] above it"
    ]


def release_problems(tag: str, root: Path) -> tuple[str, list[str]]:
    """(VERSION, the problems that keep ``tag`` from being released from ``root``)."""
    version = (root / "VERSION").read_text().split()[0]
    problems = []
    if tag != f"v{version}":
        problems.append(
            f"the tag {tag!r} does not name VERSION {version!r}; tag the commit "
            f"v{version}, or change VERSION in a commit and tag that"
        )
    if not RELEASE_VERSION.match(version):
        problems.append(
            f"VERSION {version!r} is not a release version (a .dev or local part, or "
            "not PEP 440's normal form); set it to the release, e.g. 0.3.0 or 0.3.0rc1"
        )
    return version, problems + changelog_problems(root / "CHANGELOG.md", version)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tag", help="the tag being released, e.g. v0.3.0")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout (default: this one)")
    args = parser.parse_args(argv)
    version, problems = release_problems(args.tag, args.root)
    if problems:
        print(f"{args.tag} cannot be released:\n  - " + "\n  - ".join(problems), file=sys.stderr)
        return 1
    print(version)
    output = os.environ.get("GITHUB_OUTPUT")
    if output:
        with open(output, "a", encoding="utf-8") as handle:
            handle.write(f"version={version}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
