"""Find comments in the C++/CUDA sources that quote measured times, rates or speedups.

A comment that says "this took 40 ms on the 2-core machine" goes stale with the next compiler,
machine or change, and nobody re-runs a comment. Comments say why (the design reason); figures
live in bench/README.md under the benchmark that reproduces them, where a re-run updates them
(issue 41). This script lists comment lines with a number followed by a time unit (ns, us, ms, s,
seconds, minutes), a rate (MB/s, GB/s, ...) or a speedup ("3x faster", "1.5x slower"):

    python ci/check_comment_timings.py           # every such line under src/, file:line text
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = (".cpp", ".hpp", ".cu", ".cuh", ".h", ".cc")

_NUMBER = r"(?<![\w.])\d+(?:[,']\d+)*(?:\.\d+)?"
TIMING = re.compile(
    rf"{_NUMBER}\s*(?:ns|us|µs|ms|s|sec|secs|seconds?|minutes?|min)\b(?!\s*=)"
    rf"|{_NUMBER}\s*[KMGT]i?B/s\b"
    rf"|{_NUMBER}\s*x\s+(?:faster|slower|quicker|speedup|speed-up|longer|shorter|the\s+time)\b"
    r"|\bspeed-?ups?\s+of\s+\d",
    re.IGNORECASE,
)


def comments(text: str) -> list[tuple[int, str]]:
    """(line, text) of every comment line: ``//`` comments and each line of ``/* */`` blocks.

    String literals are skipped, so ``"http://..."`` or ``"5 s"`` in code is not a comment.
    """
    out: list[tuple[int, str]] = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((line, text[i + 2 : j]))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            for k, part in enumerate(text[i + 2 : j].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, j)
            i = j + 2
        elif c == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c == "'" and not (i > 0 and text[i - 1].isalnum()):
            j = i + 1
            while j < n and text[j] not in "'\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return out


def timing_comments(root: Path = ROOT, top: str = "src") -> list[str]:
    """``path:line: comment`` for every comment line under ``top`` that quotes a measurement."""
    found: list[str] = []
    for path in sorted((root / top).rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        for line, text in comments(path.read_text(encoding="utf-8", errors="replace")):
            if TIMING.search(text):
                found.append(f"{rel}:{line}: {text.strip()}")
    return found


def main() -> int:
    found = timing_comments()
    for entry in found:
        print(entry)
    print(
        f"{len(found)} comment line(s) quote timings; move the figures to bench/README.md",
        file=sys.stderr,
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
