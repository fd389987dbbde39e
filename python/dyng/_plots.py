"""Charts of profiler output, drawn with matplotlib (the optional ``dyng[plot]`` extra).

matplotlib is imported only when a chart is drawn, so ``import dyng`` never needs it. Figures are
made without pyplot and given an Agg canvas of their own: saving works on a machine without a
display, and a backend the user already chose (a notebook's, a GUI's) is left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from dyng._errors import InvalidArgumentError

__all__ = ["stage_timeline"]

# Bar heights in row units. The device bar runs along the lower edge of the host bar, leaving
# the upper part for the label.
_HOST_HEIGHT = 0.7
_DEVICE_HEIGHT = 0.22
_DEVICE_OFFSET = (_HOST_HEIGHT - _DEVICE_HEIGHT) / 2
_LABEL_FONT_PT = 8
# Average glyph width of the default sans-serif font as a share of its size: the label width
# assumed on a canvas without a renderer to measure it.
_GLYPH_WIDTH = 0.6


def _matplotlib(function: str):
    """(Figure, FigureCanvasAgg, Patch, palette), or an ImportError saying what to install."""
    try:
        from matplotlib import colormaps
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.patches import Patch
    except ImportError:
        raise ImportError(
            f'{function}: matplotlib is not installed; install it with pip install "dyng[plot]" '
            "(or pip install matplotlib)"
        ) from None
    return Figure, FigureCanvasAgg, Patch, colormaps["tab10"]


def _prefix(name: str) -> str:
    """The algorithm a stage belongs to: ``sssp`` for ``sssp.loop``, the name if it has no dot."""
    return name.split(".", 1)[0]


def _short(name: str) -> str:
    """The step alone (``loop`` for ``sssp.loop``): the colour already says the algorithm."""
    return name.rsplit(".", 1)[-1]


def stage_timeline(samples, *, ax=None, path=None, title=None):
    """Draws the profiler's samples as a timeline: one bar per stage run, one row per depth.

    Each sample is a bar from ``start_ms`` to ``start_ms + host_ms`` on the row of its nesting
    depth (depth 0 on top), coloured by its algorithm (the part of the name before the first
    dot: ``sssp``, ``graph``, ...) with a legend entry per algorithm, and labelled with its name
    where the name fits inside the bar (the step alone, ``loop`` for ``sssp.loop``, where only
    that fits). A non-zero ``device_ms`` is drawn as a thin dark bar along the bottom of the host
    bar, from the same start: the profiler measures how long the device worked, not when it
    began, so its length is what to read (it may outrun the host bar when kernels run on after
    the host returned).

    Parameters
    ----------
    samples : iterable
        Objects with ``name``, ``depth``, ``host_ms``, ``device_ms`` and ``start_ms``
        (milliseconds since the profile began), such as ``Profiler.samples``, in any order.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; by default a new figure of its own is made.
    path : str or os.PathLike, optional
        Where to save the figure; the format follows the suffix (``.png``, ``.svg``, ``.pdf``).
    title : str, optional
        Axes title (default ``"dyng stage timeline"``).

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on (that of `ax` when given).

    Raises
    ------
    ImportError
        When matplotlib is not installed (``pip install "dyng[plot]"``).
    dyng.InvalidArgumentError
        When there are no samples, or a sample has a negative depth or duration.

    Examples
    --------
    >>> from collections import namedtuple
    >>> S = namedtuple("S", "name depth host_ms device_ms start_ms")
    >>> fig = stage_timeline([S("sssp.loop", 1, 4.0, 0.0, 1.0),
    ...                       S("sssp.compute", 0, 6.0, 0.0, 0.0)])
    >>> len(fig.axes[0].patches)
    2
    """
    from dyng._errors import InvalidArgumentError

    rows = [_checked(sample) for sample in samples]
    if not rows:
        raise InvalidArgumentError(
            "stage_timeline(): no samples to draw; run the code inside `with dyng.profile() as "
            "p:` and pass p.samples"
        )
    Figure, FigureCanvasAgg, Patch, palette = _matplotlib("stage_timeline()")
    depths = max(row.depth for row in rows) + 1
    if ax is None:
        figure = Figure(figsize=(10, 1.4 + 0.55 * depths), layout="constrained")
        FigureCanvasAgg(figure)
        ax = figure.add_subplot()
    figure = ax.get_figure()

    prefixes = list(dict.fromkeys(_prefix(row.name) for row in rows))
    colours = {p: palette(i % palette.N) for i, p in enumerate(prefixes)}
    end = max(row.start_ms + max(row.host_ms, row.device_ms) for row in rows)
    ax.set_xlim(0.0, end * 1.02 if end > 0 else 1.0)
    ax.set_ylim(depths - 0.5, -0.5)  # depth 0 on top, as call stacks are drawn
    ax.set_yticks(range(depths), [f"depth {d}" for d in range(depths)])
    ax.set_xlabel("ms since the profile began")
    ax.set_title(title if title is not None else "dyng stage timeline")

    for row in rows:
        ax.barh(
            row.depth,
            row.host_ms,
            left=row.start_ms,
            height=_HOST_HEIGHT,
            color=colours[_prefix(row.name)],
            edgecolor="white",
            linewidth=0.5,
        )
    for row in rows:
        if row.device_ms > 0:
            ax.barh(
                row.depth + _DEVICE_OFFSET,
                row.device_ms,
                left=row.start_ms,
                height=_DEVICE_HEIGHT,
                color="black",
                alpha=0.55,
                linewidth=0,
            )

    handles = [Patch(color=colours[p], label=p) for p in prefixes]
    if any(row.device_ms > 0 for row in rows):
        handles.append(Patch(color="black", alpha=0.55, label="device time"))
    # Right of the axes: inside, it would hide the bars it explains.
    ax.legend(
        handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, fontsize=8
    )
    engine = figure.get_layout_engine()
    if engine is not None:
        engine.execute(figure)  # the final axes width, which decides which labels fit
    _label_bars(ax, rows)
    if path is not None:
        figure.savefig(path, dpi=120)
    return figure


@dataclass(frozen=True)
class _Row:
    name: str
    depth: int
    host_ms: float
    device_ms: float
    start_ms: float


def _checked(sample) -> _Row:
    row = _Row(
        str(sample.name),
        int(sample.depth),
        float(sample.host_ms),
        float(sample.device_ms),
        float(sample.start_ms),
    )
    if row.depth < 0 or row.host_ms < 0 or row.device_ms < 0 or row.start_ms < 0:
        raise InvalidArgumentError(
            f"stage_timeline(): sample {row.name!r} has depth {row.depth}, start_ms "
            f"{row.start_ms}, host_ms {row.host_ms}, device_ms {row.device_ms}; depth and times "
            "must be >= 0 (pass the profiler's own samples)"
        )
    return row


def _label_bars(ax, rows) -> None:
    """Writes each stage's name inside its bar where it fits: measured by the canvas's renderer
    where it has one (Agg and the backends built on it), else estimated from the font size."""
    figure = ax.get_figure()
    get_renderer = getattr(figure.canvas, "get_renderer", None)
    renderer = get_renderer() if get_renderer is not None else None
    left, right = ax.get_xlim()
    px_per_ms = ax.get_window_extent(renderer).width / (right - left)
    char_px = _GLYPH_WIDTH * _LABEL_FONT_PT * figure.dpi / 72
    for row in rows:
        room = row.host_ms * px_per_ms - char_px  # half a glyph of margin on each side
        # Above the device bar when there is one, so that both stay readable.
        y = row.depth - _DEVICE_HEIGHT / 2 if row.device_ms > 0 else row.depth
        for label in (row.name, _short(row.name)):
            if len(label) * char_px * 0.5 > room:
                continue  # hopeless even for narrow glyphs: skip drawing it to measure
            text = ax.text(
                row.start_ms + row.host_ms / 2,
                y,
                label,
                ha="center",
                va="center",
                fontsize=_LABEL_FONT_PT,
                color="white",
                clip_on=True,
            )
            width = (
                text.get_window_extent(renderer).width
                if renderer is not None
                else len(label) * char_px
            )
            if width <= room:
                break
            text.remove()
