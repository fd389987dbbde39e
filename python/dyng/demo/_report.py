"""The demo's summary: the table it prints, and the same numbers as JSON."""

from __future__ import annotations

import json
import statistics

__all__ = ["table", "apply_line", "failure_lines", "as_json", "speed_up"]

_HEADER = (
    "result",
    "graph",
    "update ms",
    "recompute ms",
    "speed-up",
    "fell back",
    "all answers equal",
)


def speed_up(series):
    """Median recompute time over median update time (None when the update took no time)."""
    update = statistics.median(series.update_ms)
    return statistics.median(series.recompute_ms) / update if update > 0 else None


def _row(series):
    gain = speed_up(series)
    return (
        series.label,
        series.workload,
        f"{statistics.median(series.update_ms):.3f}",
        f"{statistics.median(series.recompute_ms):.3f}",
        "-" if gain is None else f"{gain:.1f}x",
        f"{len(series.fell_back)}/{len(series.update_ms)}",
        "yes" if series.all_equal else "NO",
    )


def table(measurements):
    """One row per result: median update and recompute times per batch, the speed-up, how many
    updates fell back to a recompute (their repair ran over its work budget), and the checks.

    Examples
    --------
    >>> from dyng.demo._run import Measurements, Series
    >>> row = Series("sssp", "roads", [0.5, 1.0, 2.0], [10.0, 10.0, 12.0])
    >>> print(table(Measurements([row], {}, {}, {})))
    result  graph  update ms  recompute ms  speed-up  fell back  all answers equal
    sssp    roads  1.000      10.000        10.0x     0/3        yes
    """
    rows = [_HEADER, *(_row(series) for series in measurements.series)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEADER))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows
    )


def apply_line(measurements):
    """The batch sizes and the applies' median times, which the table leaves out."""
    parts = [
        f"{name} {statistics.median(measurements.batch_sizes[name]):.0f} changes in "
        f"{statistics.median(times):.3f} ms"
        for name, times in measurements.apply_ms.items()
    ]
    return (
        "batches applied (median; once per graph for all its results, and a recompute needs "
        "it too):\n  " + "; ".join(parts)
    )


def failure_lines(measurements, limit=3):
    """The first `limit` failed checks of each result."""
    lines = []
    for series in measurements.series:
        for failure in series.failures[:limit]:
            lines.append(f"{series.label}: {failure}")
        if len(series.failures) > limit:
            lines.append(f"{series.label}: ... {len(series.failures) - limit} more")
    return lines


def as_json(measurements, setup):
    """Everything measured, per batch, with `setup` (a dict: version, device, sizes, seed)."""
    results = []
    for series in measurements.series:
        results.append(
            {
                "result": series.label,
                "graph": series.workload,
                "update_ms": series.update_ms,
                "recompute_ms": series.recompute_ms,
                "median_update_ms": statistics.median(series.update_ms),
                "median_recompute_ms": statistics.median(series.recompute_ms),
                "speed_up": speed_up(series),
                "all_answers_equal": series.all_equal,
                "failures": series.failures,
                "fell_back_at_batches": series.fell_back,
                "first_compute_ms": measurements.first_compute_ms[series.label],
            }
        )
    graphs = {
        name: {"changes_per_batch": measurements.batch_sizes[name], "apply_ms": times}
        for name, times in measurements.apply_ms.items()
    }
    return json.dumps({**setup, "graphs": graphs, "results": results}, indent=2) + "\n"
