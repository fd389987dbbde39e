"""Machine description, results table, bars (targets checked as ratios) and the JSON file."""

from __future__ import annotations

import importlib
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import scipy

RESULTS_DIR = Path(__file__).resolve().parent / "results"
# Settings that change OpenMP timings a lot; OMP_WAIT_POLICY=passive matters on a busy machine.
_OPENMP_ENV = (
    "OMP_NUM_THREADS",
    "OMP_WAIT_POLICY",
    "GOMP_SPINCOUNT",
    "OMP_PROC_BIND",
    "OMP_PLACES",
)


def machine(dyng) -> dict:
    """What the numbers depend on; load averages are added at start and end by the caller."""
    try:
        affinity = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        affinity = None
    return {
        "cpu_count": os.cpu_count(),
        "cpu_affinity": affinity,
        "platform": platform.platform(),
        "processor": platform.processor(),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "openmp_env": {name: os.environ[name] for name in _OPENMP_ENV if name in os.environ},
        "dyng_version": str(getattr(dyng, "__version__", "unknown")),
        "dyng_build_config": build_config(dyng),
    }


def build_config(dyng):
    """dyng.config()["build"] (spec sec. 8), else the native module's build_config."""
    try:
        return dyng.config()["build"]
    except Exception as error:  # noqa: BLE001 - a missing config() is reported, not fatal
        reason = f"{type(error).__name__}: {error}"
    try:
        native = importlib.import_module(f"{dyng.__name__}._core")
        return dict(native.build_config)
    except Exception as error:  # noqa: BLE001
        return {"unavailable": f"{reason}; {type(error).__name__}: {error}"}


def bars(rows: list[dict]) -> list[dict]:
    """The issue's targets, each PASS/FAIL from ratios measured in this run, SKIP if not run."""

    def find(graph, operation):
        return next((r for r in rows if r["graph"] == graph and r["operation"] == operation), None)

    out = []
    for graph in ("rmat18", "grid512"):
        row = find(graph, "compute")
        out.append(
            _bar(f"compute seq <= 1.0x SciPy on {graph}", 1.0, row and row.get("ratio_seq"), graph)
        )
    row = find("rmat18", "update uniform 1000")
    for b in ("seq", "omp"):
        out.append(
            _bar(
                f"update 1,000 uniform ({b}) <= 0.5x recompute on rmat18",
                0.5,
                row and row.get(f"ratio_{b}"),
                "rmat18",
            )
        )
    worst = None
    for r in rows:
        if r["operation"].startswith("update"):
            for b in ("seq", "omp", "cuda"):
                ratio = r.get(f"ratio_{b}")
                if ratio is not None and (worst is None or ratio > worst[0]):
                    worst = (ratio, f"{r['graph']} {r['operation']} {b}")
    out.append(
        _bar("no update > 1.1x recompute (worst case)", 1.1, worst and worst[0], worst and worst[1])
    )
    # The CUDA bars (issue 3): absolute times on the GPU, and update against recompute.
    row = find("rmat22", "compute")
    out.append(
        _bar(
            "compute cuda <= 20 ms on rmat22",
            20.0,
            row and row.get("dyng_cuda_ms"),
            "rmat22",
            unit="ms",
        )
    )
    row = find("grid2048", "compute")
    out.append(
        _bar(
            "compute cuda <= 30 ms on grid2048",
            30.0,
            row and row.get("dyng_cuda_ms"),
            "grid2048",
            unit="ms",
        )
    )
    row = find("rmat22", "update uniform 1000")
    out.append(
        _bar(
            "update 1,000 uniform cuda <= 5 ms on rmat22",
            5.0,
            row and row.get("dyng_cuda_ms"),
            "rmat22",
            unit="ms",
        )
    )
    out.append(
        _bar(
            "update 1,000 uniform cuda below recompute on rmat22",
            1.0,
            row and row.get("ratio_cuda"),
            "rmat22",
            strict=True,
        )
    )
    return out


def _bar(name, limit, ratio, where, unit="x", strict=False):
    """A target: `ratio` is a ratio (unit "x") or, for the GPU's absolute bars, milliseconds."""
    if ratio is None:
        return {
            "bar": name,
            "limit": limit,
            "ratio": None,
            "where": where,
            "status": "SKIP",
            "unit": unit,
        }
    ok = ratio < limit if strict else ratio <= limit
    return {
        "bar": name,
        "limit": limit,
        "ratio": ratio,
        "where": where,
        "unit": unit,
        "status": "PASS" if ok else "FAIL",
    }


_FIXED_COLUMNS = (("graph", "{}", 9), ("n", "{:,}", 10), ("m", "{:,}", 11), ("operation", "{}", 20))


def _columns(rows: list[dict]):
    """The fixed columns, then per backend that ran: time, reference, ratio, update path."""
    ran = [b for b in ("seq", "omp", "cuda") if any(f"dyng_{b}_ms" in r for r in rows)]
    columns = list(_FIXED_COLUMNS)
    columns += [(f"dyng_{b}_ms", "{:.2f}", 12) for b in ran]
    columns += [(f"{when}_{b}_ms", "{:.2f}", 13) for b in ran for when in ("first", "steady")]
    columns += [(f"ref_{b}_ms", "{:.2f}", 11) for b in ran]
    columns += [(f"ratio_{b}", "{:.3f}x", 10) for b in ran]
    columns += [(f"path_{b}", "{}", 12) for b in ran]
    if any("cuda_gteps" in r for r in rows):
        columns.append(("cuda_gteps", "{:.2f}", 10))
        columns.append(("cuda_bandwidth_fraction", "{:.1%}", 23))
    return columns


def table(rows: list[dict]) -> str:
    columns = _columns(rows)
    lines = ["  ".join(name.rjust(width) for name, _, width in columns)]
    for row in rows:
        cells = []
        for name, fmt, width in columns:
            value = row.get(name)
            cells.append(("-" if value is None else fmt.format(value)).rjust(width))
        lines.append("  ".join(cells))
    return "\n".join(lines)


def text(document: dict) -> str:
    """The human-readable report printed on stdout."""
    env = document["machine"]
    s = document["settings"]
    lines = [
        f"dyng sssp benchmark  {document['started']}",
        f"dyng {env['dyng_version']}  build_config {json.dumps(env['dyng_build_config'])}",
        f"CPUs: {env['cpu_count']} (usable {env['cpu_affinity']})  load avg (1/5/15 min) "
        f"start {load_average(env['loadavg_start'])}  end {load_average(env['loadavg_end'])}",
        f"repeats {s['repeats']} (+1 warm-up, medians)  seed {s['seed']}  OpenMP threads "
        f"{s['threads']}  source 0  OpenMP env {env['openmp_env'] or 'unset'}",
        "",
        "Times in ms (median). Reference (ref_*): SciPy dijkstra for compute (same value in both",
        "columns); recompute on the same backend for update. ratio = dyng / reference.",
        "first / steady: compute's first call on the fresh graph / median; update's first",
        "update of a fresh result (= dyng_*) / median of later updates of one result.",
        "",
        table(document["rows"]),
        "",
        "Bars (ratios measured in this run):",
    ]
    for bar in document["bars"]:
        unit = bar.get("unit", "x")
        ratio = "-" if bar["ratio"] is None else f"{bar['ratio']:.3f}{unit}"
        lines.append(
            f"  {bar['status']:4}  {bar['bar']}: {ratio} (limit {bar['limit']}{unit}"
            f"{'' if bar['where'] is None else ', ' + bar['where']})"
        )
    return "\n".join(lines)


def bars_lines(bars: list[dict]) -> list[str]:
    """Bars of the {status, bar, value} kind (bench load, apply, mosp), one line each."""
    lines = ["Bars"]
    for bar in bars:
        value = "" if bar["value"] is None else f" ({bar['value']})"
        lines.append(f"  {bar['status']:<4} {bar['bar']}{value}")
    return lines


def peer_document(dyng, edges, skipped: list, rows: list[dict]) -> dict:
    """The measured part of a peer benchmark's document (components, pagerank): the machine,
    what was skipped, the rows, and the graph they ran on."""
    found = machine(dyng)
    return {
        "machine": found,
        "cores": found["cpu_count"],
        "skipped": skipped,
        "rows": rows,
        "graph": {
            "name": edges.name,
            "n": edges.num_vertices,
            "m": edges.num_edges,
            "params": edges.params,
        },
    }


def peer_text(document: dict, title: str, row_lines) -> str:
    """A peer benchmark's report: `title`, the load, what was skipped, each row by
    `row_lines(row)`, then the bars."""
    lines = [
        title,
        f"load average start {load_average(document['loadavg_start'])}, end "
        f"{load_average(document['loadavg_end'])}",
    ]
    lines += [f"skipped: {line}" for line in document["skipped"]]
    for row in document["rows"]:
        lines += [""] + row_lines(row)
    return "\n".join(lines + [""] + bars_lines(document["bars"]))


def load_average(values) -> str:
    """1/5/15-minute load averages as "a/b/c"."""
    return "/".join(f"{v:.2f}" for v in values)


def default_json_path(started: time.struct_time, benchmark: str = "sssp") -> Path:
    """``bench/results/<benchmark>-<start time>.json``, named like the report's header says."""
    return RESULTS_DIR / f"{benchmark}-{time.strftime('%Y%m%d-%H%M%S', started)}.json"


def write_json(document: dict, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1, default=_json_default) + "\n")
    return path


def _json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)
