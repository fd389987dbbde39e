"""Facts about the checkout being built: where it is, its version, its reproducible timestamp."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def version(root: Path = ROOT) -> str:
    """The one version source, VERSION (first word of its first line)."""
    return (root / "VERSION").read_text().split()[0]


def source_date_epoch(root: Path = ROOT) -> str:
    """SOURCE_DATE_EPOCH for reproducible archives: the environment's, else the last commit's."""
    given = os.environ.get("SOURCE_DATE_EPOCH")
    if given:
        return given
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "log", "-1", "--format=%ct"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        out = ""
    # Without git history (an unpacked sdist) fall back to a fixed date rather than "now".
    return out or "315532800"
