"""The demo's chart: update vs recompute time per batch, one panel per result (PNG bytes).

matplotlib is optional (the ``dyng[plot]`` extra); ``png`` raises ImportError saying what to
install when it is missing, and the demo then skips the chart.
"""

from __future__ import annotations

import io
import math

from dyng import _plots

__all__ = ["png"]

_COLUMNS = 2
_PANEL_INCHES = (5.0, 2.6)


def png(measurements, title):
    """The chart as PNG bytes."""
    Figure, FigureCanvasAgg, _, palette = _plots._matplotlib("dyng demo's chart")
    series = measurements.series
    rows = math.ceil(len(series) / _COLUMNS)
    figure = Figure(
        figsize=(_PANEL_INCHES[0] * _COLUMNS, _PANEL_INCHES[1] * rows + 0.6), layout="constrained"
    )
    FigureCanvasAgg(figure)
    figure.suptitle(title)
    axes = figure.subplots(rows, _COLUMNS, squeeze=False).ravel()
    for ax, row in zip(axes, series):
        batches = range(1, len(row.update_ms) + 1)
        ax.plot(batches, row.recompute_ms, color=palette(1), label="fresh compute")
        ax.plot(batches, row.update_ms, color=palette(0), label="update")
        if row.fell_back:
            ax.plot(
                row.fell_back,
                [row.update_ms[i - 1] for i in row.fell_back],
                "x",
                color=palette(3),
                label="update fell back to a recompute",
            )
        ax.set_yscale("log")
        ax.set_title(f"{row.label} ({row.workload})", fontsize=10)
        ax.set_xlabel("batch")
        ax.set_ylabel("ms")
        ax.legend(fontsize=8, loc="best")
    for ax in axes[len(series) :]:
        ax.set_visible(False)
    out = io.BytesIO()
    figure.canvas.print_png(out)
    return out.getvalue()
