"""Benchmarks against a peer dyng in another interpreter (``--reference-python``): one worker
script, run in a fresh process per interpreter with the repository root on its path, this dyng
and the reference alternating round by round, and the best time per operation kept. Used by
``bench apply`` and ``bench mosp``."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run_worker(python: str, worker: str, args, what: str, timeout: int = 7200) -> dict:
    """The JSON the worker prints last, run as ``python -c worker args...``."""
    # The repository root for bench.*, in front of whatever path finds the measured dyng.
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    done = subprocess.run(
        [python, "-c", worker, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ, PYTHONPATH=path),
        cwd=ROOT,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{python}: the {what} worker failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def alternate(reference: str | None, rounds: int, measure, progress):
    """`measure(python)` for this interpreter and the reference, alternating `rounds` times:
    (this dyng's documents, the reference's; empty without a reference)."""
    mine, theirs = [], []
    for r in range(rounds):
        progress(f"round {r + 1}/{rounds}: this dyng")
        mine.append(measure(sys.executable))
        if reference:
            progress(f"round {r + 1}/{rounds}: reference {reference}")
            theirs.append(measure(reference))
    return mine, theirs


def best_rows(operations, mine: list[dict], theirs: list[dict]) -> list[dict]:
    """One row per operation: the best seconds of each side (each document maps operation ->
    seconds) and ratio = this dyng / reference."""
    rows = []
    for op in operations:
        row = {"operation": op, "seconds": min(m[op] for m in mine)}
        if theirs:
            row["reference_seconds"] = min(t[op] for t in theirs)
            row["ratio"] = row["seconds"] / row["reference_seconds"]
        rows.append(row)
    return rows


def rows_text(rows: list[dict], unit: str) -> list[str]:
    """The table of best_rows: seconds shown in `unit` ("s" or "ms"), "-" without a reference."""
    scale, digits = (1e3, 1) if unit == "ms" else (1.0, 3)
    width = max([len("operation")] + [len(row["operation"]) for row in rows]) + 2
    lines = [f"{'operation':<{width}} {'this ' + unit:>10} {'reference ' + unit:>13} {'ratio':>7}"]
    for row in rows:
        ref = row.get("reference_seconds")
        ref_text = "-" if ref is None else f"{ref * scale:.{digits}f}"
        ratio_text = f"{row['ratio']:.3f}" if "ratio" in row else "-"
        lines.append(
            f"{row['operation']:<{width}} {row['seconds'] * scale:>10.{digits}f} "
            f"{ref_text:>13} {ratio_text:>7}"
        )
    return lines


def correctness_bars(document: dict) -> list[dict]:
    """The bars every peer benchmark ends with: update == fresh compute in every run, and (with a
    reference) the same answers as the reference."""
    out = [
        {
            "bar": "update == fresh compute, every run",
            "value": None,
            "status": "FAIL" if document["update_mismatches"] else "PASS",
        }
    ]
    if document["same_answers_as_reference"] is not None:
        out.append(
            {
                "bar": "same answers as the reference",
                "value": None,
                "status": "PASS" if document["same_answers_as_reference"] else "FAIL",
            }
        )
    return out
