"""The load benchmark: the default backend beside busy neighbours, against the sequential one.

``dyng.Resources()`` picks OpenMP with every core. On a machine that other processes keep busy a
thread team waits at each barrier for a member the scheduler has parked, so the default must
notice and run fewer threads (or the sequential kernel). Per graph and per neighbour condition
this times ``sssp.compute`` with ``Resources()`` and with ``Resources.sequential()``,
interleaved, while the neighbours run:

* ``quiet``: no neighbour (the figures the change must leave as they were);
* ``spin``: one process spinning in a Python loop (a busy core);
* ``memory``: one process streaming 2 x 256 MiB arrays through NumPy copies (a busy core that
  also takes memory bandwidth).

``ratio = Resources() ms / sequential ms``; the bar is ratio <= 1.1 with each neighbour on rmat18
and grid512. Every round checks that both peers give the same distances.
"""

from __future__ import annotations

import contextlib
import dataclasses
import subprocess
import sys
import time

from bench import generators, report, verify
from bench.timing import Peer, run_interleaved

SOURCE = 0
DEFAULT_GRAPHS = ("rmat18", "grid512")
CONDITIONS = ("quiet", "spin", "memory")
BAR_RATIO = 1.1

_NEIGHBOURS = {
    "spin": "while True:\n    pass\n",
    "memory": (
        "import numpy as np\n"
        "a = np.ones(32 << 20); b = np.empty_like(a)\n"
        "while True:\n    np.copyto(b, a); np.copyto(a, b)\n"
    ),
}


@dataclasses.dataclass(frozen=True)
class Settings:
    graphs: tuple[str, ...] = DEFAULT_GRAPHS
    conditions: tuple[str, ...] = CONDITIONS
    repeats: int = 7
    seed: int = 1
    # Seconds a neighbour runs before the first timed round (the memory one allocates first).
    settle_seconds: float = 1.0


@contextlib.contextmanager
def neighbour(condition: str, settle_seconds: float):
    """Runs the condition's neighbour process for the duration of the block."""
    if condition == "quiet":
        yield
        return
    process = subprocess.Popen(
        [sys.executable, "-c", _NEIGHBOURS[condition]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(settle_seconds)
        if process.poll() is not None:
            raise RuntimeError(f"the {condition} neighbour exited early ({process.returncode})")
        yield
    finally:
        process.kill()
        process.wait()


def run(dyng, settings: Settings, progress) -> tuple[list[dict], list[dict]]:
    graphs, rows = [], []
    for name in settings.graphs:
        log = lambda message, _name=name, **kw: progress(f"{_name}: {message}", **kw)  # noqa: E731
        log(f"generating with seed {settings.seed}")
        edges = generators.by_name(name, settings.seed)
        graphs.append(
            {"name": name, "n": edges.num_vertices, "m": edges.num_edges, "params": edges.params}
        )
        graph = dyng.Graph.from_edges(
            edges.src, edges.dst, edges.weights, num_vertices=edges.num_vertices
        )
        for condition in settings.conditions:
            rows.append(_measure(dyng, name, graph, condition, settings, log))
        del graph, edges
    return graphs, rows


def _measure(dyng, name, graph, condition, settings, log) -> dict:
    peers = {"default": dyng.Resources(), "sequential": dyng.Resources.sequential()}
    timed = [
        Peer(
            label, lambda: None, lambda _, res=res: dyng.sssp.compute(graph, SOURCE, resources=res)
        )
        for label, res in peers.items()
    ]
    methods = {label: [] for label in peers}

    def check(_round, out):
        for label, result in out.items():
            methods[label].append(result.stats.method)
        verify.assert_equal(
            f"{name} {condition}: Resources() distances vs sequential",
            out["default"].distances.to_numpy(),
            out["sequential"].distances.to_numpy(),
        )

    log(f"{condition}: Resources() / sequential, interleaved")
    with neighbour(condition, settings.settle_seconds):
        samples = run_interleaved(
            timed,
            settings.repeats,
            check=check,
            progress=lambda m: log(f"{condition} {m}", throttle=True),
        )
    default_ms = samples["default"].median_ms
    sequential_ms = samples["sequential"].median_ms
    return {
        "graph": name,
        "condition": condition,
        "default_ms": default_ms,
        "sequential_ms": sequential_ms,
        "ratio": default_ms / sequential_ms,
        "default_backend": peers["default"].backend,
        "methods": methods,
        "samples": {label: dataclasses.asdict(s) for label, s in samples.items()},
    }


def bars(rows: list[dict], graphs=DEFAULT_GRAPHS) -> list[dict]:
    out = []
    for graph in graphs:
        for condition in ("spin", "memory"):
            row = next(
                (r for r in rows if r["graph"] == graph and r["condition"] == condition), None
            )
            name = (
                f"Resources() compute <= {BAR_RATIO}x sequential on {graph}, {condition} neighbour"
            )
            if row is None:
                out.append({"bar": name, "status": "SKIP", "value": None})
            else:
                ok = row["ratio"] <= BAR_RATIO
                out.append(
                    {
                        "bar": name,
                        "status": "PASS" if ok else "FAIL",
                        "value": round(row["ratio"], 3),
                    }
                )
    return out


def text(document: dict) -> str:
    lines = [
        f"dyng {document['machine']['dyng_version']}: sssp.compute, Resources() vs "
        f"sequential beside busy neighbours ({document['settings']['repeats']} repeats, "
        f"medians; load {document['machine']['loadavg_start']})",
        "",
        f"{'graph':<10} {'condition':<8} {'default ms':>11} {'sequential ms':>14} "
        f"{'ratio':>7}  default kernels",
    ]
    for row in document["rows"]:
        kernels = ",".join(sorted(set(row["methods"]["default"])))
        lines.append(
            f"{row['graph']:<10} {row['condition']:<8} {row['default_ms']:>11.1f} "
            f"{row['sequential_ms']:>14.1f} {row['ratio']:>7.3f}  {kernels}"
        )
    return "\n".join(lines + [""] + report.bars_lines(document["bars"]))
