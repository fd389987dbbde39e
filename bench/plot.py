"""PNG charts of a benchmark's JSON: ``python -m bench <command> ... --plot DIR`` draws them after
the run, ``python -m bench plot RESULTS.json --out DIR`` from a saved file, without re-running.

Per benchmark (files ``<benchmark>-<chart>.png``; times in ms, each bar labelled with its value,
on a log axis where they span more than 20x):

* sssp: ``compute``, time per graph and backend beside SciPy's Dijkstra; ``update``, update
  against recompute over the batch size, one panel per graph and change mode (a hollow marker
  where update fell back to recompute); ``classes``, time per graph class, one panel per
  operation (compute, each update), the first call beside the steady ones per backend.
* mosp: ``compute`` per backend, this dyng beside the reference (``--reference-python``, e.g.
  dyng 0.2.0) when the run had one; ``update``, update and apply + recompute over the batch size,
  one panel per backend, both dyngs.
* cycle_count: ``compute`` per case and backend, both dyngs, and the NetworkX / igraph peers (each
  bar names its length bound, which may differ from dyng's); ``update`` as for mosp, one panel
  per case and backend.
* apply: ``apply.png``, each operation, both dyngs. io: ``io.png``, MB/s and peak memory per
  reader (0.2.0's reader is one of them). load: ``load.png``, ``Resources()`` beside sequential
  per graph and neighbour.

matplotlib is needed only here (``pip install matplotlib``) and imported only when drawing.
Figures get an Agg canvas of their own instead of going through pyplot, so no display is needed
and the process's matplotlib backend is left as it was.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

_BACKEND_LABELS = {"seq": "sequential", "omp": "OpenMP", "cuda": "CUDA"}
_DPI = 120
# A bar chart whose longest bar is at most this many times its shortest gets a linear axis.
_LINEAR_SPAN = 20
_THIS_COLOUR, _REFERENCE_COLOUR = "C0", "C1"
# (line style, marker) of the two operations an update chart compares.
_UPDATE_STYLE, _RECOMPUTE_STYLE = ("-", "o"), ("--", "s")


def require_matplotlib():
    """The matplotlib classes the charts use; ImportError saying what to install if missing."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(
            "matplotlib is not installed; install it with `pip install matplotlib` "
            "to draw charts (or leave out --plot)"
        ) from None
    return Figure, FigureCanvasAgg


def add_option(command) -> None:
    """``--plot DIR`` on a benchmark's subcommand."""
    command.add_argument(
        "--plot",
        default=None,
        metavar="DIR",
        type=Path,
        help="also write PNG charts of the results to DIR (needs matplotlib)",
    )


def add_parser(sub) -> None:
    """The ``plot`` subcommand: charts from a saved JSON."""
    p = sub.add_parser("plot", help="PNG charts of a saved benchmark JSON, without re-running")
    p.add_argument(
        "json", type=Path, metavar="RESULTS.json", help="a JSON that python -m bench wrote"
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="folder for the PNGs (default: beside the JSON, <name>-plots/)",
    )


def main(args) -> int:
    """Runs the ``plot`` subcommand; 2 when the file or matplotlib is missing."""
    try:
        document = json.loads(args.json.read_text())
        out = args.out or args.json.with_name(f"{args.json.stem}-plots")
        paths = write(document, out)
    except (OSError, ValueError, ImportError) as error:
        print(f"bench plot: error: {args.json}: {error}", file=sys.stderr)
        return 2
    except KeyError as error:
        print(
            f"bench plot: error: {args.json}: the {document['benchmark']} charts need a field "
            f"{error} it lacks; give a JSON that this checkout's python -m bench wrote",
            file=sys.stderr,
        )
        return 2
    for path in paths:
        print(path)
    return 0


def write(document: dict, folder) -> list[Path]:
    """Draws the document's charts into `folder` (created if needed); returns the PNG paths."""
    folder = Path(folder)
    drawn = list(figures(document))
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for filename, fig in drawn:
        fig.savefig(folder / filename, dpi=_DPI)
        paths.append(folder / filename)
    return paths


def figures(document: dict):
    """(file name, matplotlib Figure) for each chart of the document, in order."""
    name = document.get("benchmark") if isinstance(document, dict) else None
    if name not in _CHARTS:
        raise ValueError(
            f"no charts for benchmark {name!r}; bench plot knows "
            f'{", ".join(sorted(_CHARTS))} (the JSON\'s "benchmark" field)'
        )
    Figure, FigureCanvasAgg = require_matplotlib()

    def figure(rows, cols, width, height):
        fig = Figure(figsize=(width, height), layout="constrained")
        FigureCanvasAgg(fig)
        return fig, fig.subplots(rows, cols, squeeze=False)

    for chart, fig in _CHARTS[name](document, figure):
        yield (f"{name}-{chart}.png" if chart else f"{name}.png"), fig


def _grouped_bars(ax, groups, series, *, horizontal=False, legend=True, styles=None) -> None:
    """One group of bars per entry of `groups`; `series` holds (label, values, notes) with
    values[i] in ms for groups[i] (None where it was not measured) and notes appended to the
    value labels (or None). ``legend=False`` leaves the legend to a figure of several panels;
    ``styles`` maps a series label to bar keywords (colour C<k> by position otherwise)."""
    series = [s for s in series if any(v is not None for v in s[1])]
    styles = styles or {}
    values = [v for s in series for v in s[1] if v is not None]
    width = 0.8 / max(len(series), 1)
    draw = ax.barh if horizontal else ax.bar
    for k, (label, heights, notes) in enumerate(series):
        cells = [
            (i - 0.4 + width * (k + 0.5), v, notes[i] if notes else "")
            for i, v in enumerate(heights)
            if v is not None
        ]
        style = {"color": f"C{k}", **styles.get(label, {})}
        bars = draw([c[0] for c in cells], [c[1] for c in cells], width, label=label, **style)
        ax.bar_label(
            bars, labels=[f"{_ms(v)}{note}" for _, v, note in cells], fontsize=6, padding=1
        )
    ticks = ax.set_yticks if horizontal else ax.set_xticks
    ticks(range(len(groups)), groups)
    label = ax.set_xlabel if horizontal else ax.set_ylabel
    # Bars read as ratios of their lengths, so a log axis needs a fixed foot (a decade below the
    # shortest bar) or autoscaling makes 1.7 against 1.8 look like 1 against 5; within a span of
    # _LINEAR_SPAN a linear axis from 0 shows the ratios plainly.
    if values and max(values) > _LINEAR_SPAN * min(values) > 0:
        (ax.set_xscale if horizontal else ax.set_yscale)("log")
        _plain_log_labels(ax.xaxis if horizontal else ax.yaxis)
        foot = 10 ** math.floor(math.log10(min(values)))
        (ax.set_xlim if horizontal else ax.set_ylim)(foot, max(values) * 2)
        label("ms (log scale)")
    else:
        label("ms")
    if horizontal:
        ax.invert_yaxis()  # first operation on top, as in the text table
    if legend:
        _shared_legend(ax.get_figure(), [[ax]])


def _ms(value: float) -> str:
    return f"{value:.3g}"


def _plain_log_labels(axis) -> None:
    """Log-axis labels written 0.3, 2, 1500 instead of 3x10^-1: matplotlib's choice of which
    ticks get a label (minor ones only when few decades show) is kept, only the text changes."""
    from matplotlib.ticker import LogFormatterSciNotation

    class Plain(LogFormatterSciNotation):
        def __call__(self, x, pos=None):
            return f"{x:g}" if super().__call__(x, pos) else ""

    axis.set_major_formatter(Plain())
    axis.set_minor_formatter(Plain())


def _update_lines(ax, curves, title) -> None:
    """`curves`: (label, colour, style, [(batch size, ms)], hollow flags or None); the batch
    sizes measured are the x ticks."""
    sizes = sorted({x for curve in curves for x, _ in curve[3]})
    for label, colour, (line, marker), points, hollow in curves:
        if not points:
            continue
        xs, ys = zip(*points)
        ax.plot(xs, ys, line, color=colour, label=label, marker=marker)
        if hollow and any(hollow):
            ax.plot(
                [x for x, h in zip(xs, hollow) if h],
                [y for y, h in zip(ys, hollow) if h],
                linestyle="none",
                marker=marker,
                markersize=9,
                markerfacecolor="white",
                markeredgecolor=colour,
            )
    ax.set_xscale("log")
    ax.set_yscale("log")
    _plain_log_labels(ax.yaxis)
    ax.set_xticks(sizes, [f"{x:,}" for x in sizes])
    ax.set_xticks([], minor=True)
    ax.set_xlabel("changes in the batch")
    ax.set_ylabel("ms (log scale)")
    ax.set_title(title, fontsize=9)


def _shared_legend(fig, axes) -> None:
    """One legend below the panels (inside one it would hide points), each label once."""
    entries = {}
    for ax in (a for row in axes for a in row):
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    if not entries:
        return
    # As many columns as the figure's width holds for the longest labels (about 2.6 inches at
    # this size, "apply + recompute, reference dyng 0.2.0"); more would be cut at the edges.
    columns = max(1, min(len(entries), int(fig.get_figwidth() // 2.6)))
    fig.legend(
        list(entries.values()), list(entries), loc="outside lower center", ncols=columns, fontsize=8
    )


def _header(document: dict, what: str) -> str:
    return f"bench {document['benchmark']}: {what}  ({document.get('started', '')[:16]})"


# --- sssp and load: medians of one interpreter --------------------------------------------


def _sssp_charts(document, figure):
    rows, settings = document["rows"], document["settings"]
    backends = [b for b in settings["backends"] if any(f"dyng_{b}_ms" in r for r in rows)]
    version = document["machine"]["dyng_version"]
    computes = [r for r in rows if r["operation"] == "compute"]
    if computes:
        fig, axes = figure(1, 1, 2.5 + 1.6 * len(computes), 4.5)
        series = [
            (f"dyng {_BACKEND_LABELS[b]}", [r.get(f"dyng_{b}_ms") for r in computes], None)
            for b in backends
        ]
        if settings.get("scipy") and backends:
            series.append(
                ("SciPy dijkstra", [r.get(f"ref_{backends[0]}_ms") for r in computes], None)
            )
        _grouped_bars(axes[0][0], [f"{r['graph']}\nm={r['m']:,}" for r in computes], series)
        fig.suptitle(
            _header(document, f"sssp.compute, median of {settings['repeats']}, dyng {version}"),
            fontsize=10,
        )
        yield "compute", fig
    updates = [r for r in rows if r["operation"].startswith("update")]
    graphs = list(dict.fromkeys(r["graph"] for r in updates))
    modes = list(dict.fromkeys(r["mode"] for r in updates))
    if updates:
        fig, axes = figure(len(graphs), len(modes), 1 + 4 * len(modes), 0.5 + 3.2 * len(graphs))
        for i, graph in enumerate(graphs):
            for j, mode in enumerate(modes):
                cell = sorted(
                    (r for r in updates if r["graph"] == graph and r["mode"] == mode),
                    key=lambda r: r["changes"],
                )
                curves = []
                for k, b in enumerate(backends):
                    measured = [r for r in cell if f"dyng_{b}_ms" in r]
                    fell_back = [r.get(f"path_{b}") != "incremental" for r in measured]
                    curves += [
                        (
                            f"update {_BACKEND_LABELS[b]}",
                            f"C{k}",
                            _UPDATE_STYLE,
                            [(r["changes"], r[f"dyng_{b}_ms"]) for r in measured],
                            fell_back,
                        ),
                        (
                            f"recompute {_BACKEND_LABELS[b]}",
                            f"C{k}",
                            _RECOMPUTE_STYLE,
                            [(r["changes"], r[f"ref_{b}_ms"]) for r in measured],
                            None,
                        ),
                    ]
                _update_lines(axes[i][j], curves, f"{graph}, {mode} changes")
        _shared_legend(fig, axes)
        fig.suptitle(
            _header(
                document,
                f"sssp.update vs apply + compute, dyng {version} "
                "(hollow: update fell back to recompute)",
            ),
            fontsize=10,
        )
        yield "update", fig
    yield from _sssp_classes(document, figure, backends)


def _sssp_classes(document, figure, backends):
    """Per operation, each graph's first and steady time per backend (runs that recorded them)."""
    rows = [r for r in document["rows"] if any(f"steady_{b}_ms" in r for b in backends)]
    if not rows:
        return
    graphs = list(dict.fromkeys(r["graph"] for r in rows))
    operations = list(dict.fromkeys(r["operation"] for r in rows))
    fig, axes = figure(len(operations), 1, 2.5 + 1.8 * len(graphs), 0.6 + 3.4 * len(operations))
    # One colour per backend; its steady bars hatched and paler beside the first call's.
    styles = {
        f"{when} {_BACKEND_LABELS[b]}": {"color": f"C{k}", **extra}
        for k, b in enumerate(backends)
        for when, extra in (("first", {}), ("steady", {"alpha": 0.55, "hatch": "//"}))
    }
    for ax, operation in zip((row[0] for row in axes), operations):
        found = {r["graph"]: r for r in rows if r["operation"] == operation}
        series = [
            (
                f"{when} {_BACKEND_LABELS[b]}",
                [found.get(g, {}).get(f"{when}_{b}_ms") for g in graphs],
                None,
            )
            for b in backends
            for when in ("first", "steady")
        ]
        _grouped_bars(ax, graphs, series, legend=False, styles=styles)
        ax.set_title(operation, fontsize=9)
    _shared_legend(fig, axes)
    fig.suptitle(
        _header(
            document,
            f"time per graph class, first call and steady median, "
            f"dyng {document['machine']['dyng_version']}",
        ),
        fontsize=10,
    )
    yield "classes", fig


def _load_charts(document, figure):
    rows = document["rows"]
    fig, axes = figure(1, 1, 2.5 + 1.3 * len(rows), 4.5)
    _grouped_bars(
        axes[0][0],
        [f"{r['graph']}\n{r['condition']}" for r in rows],
        [
            ("Resources()", [r["default_ms"] for r in rows], None),
            ("Resources.sequential()", [r["sequential_ms"] for r in rows], None),
        ],
    )
    fig.suptitle(
        _header(
            document,
            f"sssp.compute beside busy neighbours, dyng {document['machine']['dyng_version']}",
        ),
        fontsize=10,
    )
    yield "", fig


# --- the peer benchmarks: this dyng and the one of --reference-python ----------------------


def _sides(document: dict):
    """Per operation (ms of this dyng, ms of the reference or None), and the two labels."""
    times = {
        r["operation"]: (
            r["seconds"] * 1e3,
            r["reference_seconds"] * 1e3 if r.get("reference_seconds") is not None else None,
        )
        for r in document["rows"]
    }
    first = document["rows"][0] if document["rows"] else {}
    this = document.get("dyng") or first.get("dyng") or "?"
    reference = document.get("reference_dyng") or first.get("reference_dyng")
    has_reference = any(ref is not None for _, ref in times.values())
    return times, f"dyng {this}", (f"reference dyng {reference}" if has_reference else None)


def _compute_series(times, groups, keys, this, reference):
    """Bars of this dyng and (when measured) the reference for the operations `keys(group)`."""
    series = [(this, [times.get(keys(g), (None, None))[0] for g in groups], None)]
    if reference:
        series.append((reference, [times.get(keys(g), (None, None))[1] for g in groups], None))
    return series


def _update_curves(times, prefix, this, reference):
    """The four curves of one panel: update and apply + recompute, for both dyngs."""
    counts = sorted(
        {int(op.rsplit(" ", 1)[1]) for op in times if op.startswith(f"{prefix} update ")}
    )
    curves = []
    for side, label, colour in ((0, this, _THIS_COLOUR), (1, reference, _REFERENCE_COLOUR)):
        if label is None:
            continue
        for kind, style in (("update", _UPDATE_STYLE), ("apply+recompute", _RECOMPUTE_STYLE)):
            points = [
                (c, times[f"{prefix} {kind} {c}"][side])
                for c in counts
                if times.get(f"{prefix} {kind} {c}", (None, None))[side] is not None
            ]
            curves.append((f"{kind.replace('+', ' + ')}, {label}", colour, style, points, None))
    return curves


def _mosp_charts(document, figure):
    times, this, reference = _sides(document)
    backends = document["settings"]["backends"]
    scale, repeats = document["settings"]["scale"], document["settings"]["repeats"]
    fig, axes = figure(1, 1, 3 + 1.5 * len(backends), 4.5)
    _grouped_bars(
        axes[0][0],
        backends,
        _compute_series(times, backends, lambda b: f"{b} compute", this, reference),
    )
    fig.suptitle(_header(document, f"mosp.compute on rmat{scale}, best of {repeats}"), fontsize=10)
    yield "compute", fig
    fig, axes = figure(1, len(backends), 1 + 4.2 * len(backends), 4)
    for j, backend in enumerate(backends):
        _update_lines(axes[0][j], _update_curves(times, backend, this, reference), backend)
    _shared_legend(fig, axes)
    fig.suptitle(_header(document, f"mosp.update vs apply + recompute on rmat{scale}"), fontsize=10)
    yield "update", fig


def _cycle_count_charts(document, figure):
    times, this, reference = _sides(document)
    cases, backends = document["cases"], document["settings"]["backends"]
    series = []
    for backend in backends:
        for label, side in ((this, 0), (reference, 1)):
            if label is not None:
                series.append(
                    (
                        f"{backend}, {label}",
                        [times.get(f"{c} {backend} compute", (None, None))[side] for c in cases],
                        None,
                    )
                )
    for tool in dict.fromkeys(p["operation"].split()[1] for p in document.get("peers", [])):
        found = {
            p["operation"].split()[0]: p
            for p in document["peers"]
            if p["operation"].split()[1] == tool
        }
        series.append(
            (
                tool,
                [found[c]["seconds"] * 1e3 if c in found else None for c in cases],
                [_bound(found[c]["operation"]) if c in found else "" for c in cases],
            )
        )
    fig, axes = figure(1, 1, 3 + 2.2 * len(cases), 4.8)
    _grouped_bars(axes[0][0], cases, series)
    fig.suptitle(
        _header(document, f"cycle_count.compute, best of {document['settings']['repeats']}"),
        fontsize=10,
    )
    yield "compute", fig
    updated = [c for c in cases if any(op.startswith(f"{c} ") and " update " in op for op in times)]
    if updated:
        fig, axes = figure(
            len(updated), len(backends), 1 + 4.2 * len(backends), 0.5 + 3.2 * len(updated)
        )
        for i, case in enumerate(updated):
            for j, backend in enumerate(backends):
                _update_lines(
                    axes[i][j],
                    _update_curves(times, f"{case} {backend}", this, reference),
                    f"{case}, {backend}",
                )
        _shared_legend(fig, axes)
        fig.suptitle(_header(document, "cycle_count.update vs apply + recompute"), fontsize=10)
        yield "update", fig


def _bound(operation: str) -> str:
    """`` (max=4)`` from ``rmat12-L5 igraph simple_cycles(max=4)``: the peer's own bound."""
    inside = operation.rsplit("(", 1)[-1].rstrip(")")
    return f" ({inside})" if "=" in inside else ""


def _apply_charts(document, figure):
    times, this, reference = _sides(document)
    operations = list(times)
    fig, axes = figure(1, 1, 9, 1.5 + 0.6 * len(operations))
    _grouped_bars(
        axes[0][0],
        operations,
        _compute_series(times, operations, lambda op: op, this, reference),
        horizontal=True,
    )
    s = document["settings"]
    fig.suptitle(
        _header(
            document, f"Graph.apply at scale {s['scale']}, best of {s['repeats']} x {s['rounds']}"
        ),
        fontsize=10,
    )
    yield "", fig


def _io_charts(document, figure):
    rows = document["rows"]
    readers = [r["reader"] for r in rows]
    fig, axes = figure(1, 2, 3 + 2.4 * len(rows), 4.2)
    for ax, key, unit in (
        (axes[0][0], "mb_per_s", "MB/s (higher is better)"),
        (axes[0][1], "peak_mib", "peak MiB"),
    ):
        bars = ax.bar(
            range(len(rows)), [r[key] for r in rows], color=[f"C{k}" for k in range(len(rows))]
        )
        ax.bar_label(bars, labels=[f"{r[key]:.0f}" for r in rows], fontsize=7, padding=1)
        ax.set_xticks(range(len(rows)), readers, fontsize=8)
        ax.set_ylabel(unit)
    fig.suptitle(
        _header(
            document,
            f"reading {document['edges']:,} weighted edges "
            f"({document['file_bytes'] / 2**20:.0f} MiB, "
            f"{document['threads']} threads)",
        ),
        fontsize=10,
    )
    yield "", fig


_CHARTS = {
    "sssp": _sssp_charts,
    "load": _load_charts,
    "mosp": _mosp_charts,
    "cycle_count": _cycle_count_charts,
    "apply": _apply_charts,
    "io": _io_charts,
}
