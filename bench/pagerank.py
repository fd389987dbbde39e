"""``python -m bench pagerank``: PageRank, compute and update, against NetworkX, NetworKit and a
warm-started full iteration in the same run.

Graph: the bench's R-MAT (``bench.generators.rmat``, edge factor 16, ``--seed``) at ``--scale``
(default 20; ``--quick``: 12), directed and unweighted; ``--alpha`` 0.85 and ``--tol`` 1e-6, the
convergence test of ``networkx.pagerank`` (one iteration moves the ranks by less than ``n * tol``
in L1).

* **compute**: ``dyng.pagerank.compute`` on each backend of ``--backends`` and NetworKit's
  ``PageRank`` (``run()`` only; the graph is built before), interleaved. NetworKit stops when the
  L1 change is at most its ``tol``, so it gets ``tol = n * tol``, ``norm = L1Norm`` and
  ``distributeSinks`` (dangling vertices jump uniformly, as NetworkX's do). The first round (the
  first call on the graph) is reported apart from the median of the others. Every round the
  backends give the same bits, one more full iteration (``dyng.testing.oracles.pagerank_step``)
  moves dyng's ranks by less than ``n * tol``, and NetworKit's ranks lie within
  ``2 * n * tol / (1 - alpha)`` in L1 of dyng's.
* **networkx**, on R-MAT ``--nx-scale`` (default 16: an ``nx.DiGraph`` of R-MAT 20 takes minutes
  per ``nx.pagerank`` and gigabytes here): dyng's compute on each backend against
  ``nx.pagerank(G, alpha, tol=tol)`` on the same graph, converted to an ``nx.DiGraph`` once
  (untimed; ``nx.pagerank``'s own conversion to a SciPy matrix is part of its time). NetworkX's
  ranks must lie within the bound of dyng's.
* **update** (bench/pagerank_update.py): one sequence of ``--repeats`` + 1 batches of
  ``--changes`` changes (``bench.changes``, mode uniform: half deletions of existing edges, half
  insertions of new ones), each drawn from the graph the previous ones left. Per backend, three
  graphs walk it: ``update`` (``pagerank.update``, applying the batch included), ``recompute``
  (``Graph.apply`` untimed, then a cold ``compute``) and ``warm full`` (``pagerank.update`` with
  a repair budget of 0, which runs full iterations from the previous ranks to the same test: the
  honest baseline of an update; the batch applied inside, as for ``update``). Every round each
  update's ranks, and the warm ones, lie within the bound of the recompute's, one more full
  iteration moves them by less than ``n * tol``, and the backends' updates are the same bits.

Peers that are not installed (networkit, networkx) are skipped with a line saying so. Bars
(issue 43, the 2-core machine): compute >= 20x faster than ``nx.pagerank`` (each backend) and no
slower than NetworKit (the openmp backend, with NetworKit on as many threads); update <= 0.2x a
cold recompute and <= 0.5x the warm full iteration (each backend, first and steady); every
update within the bound (a wrong answer stops the run with exit status 1).
"""

from __future__ import annotations

import dataclasses
import sys
import time

import numpy as np

from bench import components, generators, pagerank_update, report, verify
from bench.components import add_peer_options, bar, phase_ms
from bench.components_update import summary
from bench.pagerank_update import check_close, check_converged, ranks_of
from bench.timing import Peer, run_interleaved

ALL_BACKENDS = ("sequential", "openmp")
DEFAULT_SCALE, QUICK_SCALE = 20, 12
DEFAULT_NX_SCALE = 16
NX_SPEEDUP_BAR = 20.0
NETWORKIT_BAR = 1.0
RECOMPUTE_BAR = 0.2
WARM_BAR = 0.5
PHASES = ("first", "steady")


def add_parser(sub) -> None:
    """The ``pagerank`` subcommand's options."""
    p = sub.add_parser(
        "pagerank",
        help="PageRank: compute vs NetworkX and NetworKit; update vs "
        "a cold recompute and a warm-started full iteration",
    )
    add_peer_options(
        p,
        "pagerank",
        DEFAULT_SCALE,
        QUICK_SCALE,
        DEFAULT_NX_SCALE,
        "comma list among sequential,openmp (default both)",
    )
    p.add_argument("--alpha", type=float, default=0.85, help="damping factor (default 0.85)")
    p.add_argument(
        "--tol",
        type=float,
        default=1e-6,
        help="converged when one iteration moves the ranks by < n * tol in L1 (default 1e-6)",
    )


@dataclasses.dataclass(frozen=True)
class Settings:
    scale: int
    repeats: int
    changes: int
    backends: tuple[str, ...]
    threads: int
    alpha: float
    tol: float
    nx_scale: int
    peers: bool
    seed: int


def main(args, argv, run_document) -> int:
    """Runs the benchmark through the CLI's shared document writer `run_document`."""
    settings = Settings(
        **components.peer_settings(args, DEFAULT_SCALE, QUICK_SCALE, DEFAULT_NX_SCALE),
        alpha=args.alpha,
        tol=args.tol,
    )
    if (
        not components.peer_settings_valid(settings, ALL_BACKENDS)
        or not 0.0 <= settings.alpha < 1.0
        or not settings.tol > 0.0
    ):
        print(
            "bench pagerank: error: --scale in [2, 26], --repeats and --threads >= 1, "
            "--changes >= 2, --nx-scale in [0, 26], --backends among sequential,openmp, "
            "--alpha in [0, 1) and --tol > 0",
            file=sys.stderr,
        )
        return 2
    return run_document(
        "pagerank",
        args,
        argv,
        dataclasses.asdict(settings),
        lambda progress: run(settings, progress),
        bars,
        text,
    )


@dataclasses.dataclass
class Context:
    """What every section reads: dyng, the settings, the graph and its dyng copies."""

    dyng: object
    settings: Settings
    edges: generators.EdgeGraph
    resources: dict
    base: dict
    log: object

    def compute(self, graph, backend: str):
        s = self.settings
        return self.dyng.pagerank.compute(
            graph, alpha=s.alpha, tol=s.tol, resources=self.resources[backend]
        )

    def bound(self, n: int) -> float:
        """The L1 distance allowed between two converged answers."""
        return 2 * n * self.settings.tol / (1 - self.settings.alpha)


def run(settings: Settings, progress) -> dict:
    """Every measurement; the benchmark's part of the JSON document."""
    import dyng

    skipped = []
    nk = components.optional_module("networkit", skipped) if settings.peers else None
    nx = (
        components.optional_module("networkx", skipped)
        if settings.peers and settings.nx_scale
        else None
    )
    makers = {
        "sequential": dyng.Resources.sequential,
        "openmp": lambda: dyng.Resources.openmp(num_threads=settings.threads),
    }
    resources = {b: makers[b]() for b in settings.backends}
    start = time.perf_counter()
    edges = generators.rmat(settings.scale, 16, settings.seed)
    progress(
        f"rmat{settings.scale}: n={edges.num_vertices:,} m={edges.num_edges:,} generated in "
        f"{time.perf_counter() - start:.1f} s; building the graphs (untimed)"
    )
    ctx = Context(
        dyng,
        settings,
        edges,
        resources,
        {b: components.dyng_graph(dyng, edges, resources[b]) for b in settings.backends},
        progress,
    )
    rows = [_measure_compute(ctx, nk)]
    if nx is not None:
        rows.append(_measure_networkx(ctx, nx))
    rows += pagerank_update.measure_updates(ctx)
    return report.peer_document(dyng, edges, skipped, rows)


def _networkit_peer(ctx: Context, nk) -> Peer:
    """NetworKit's PageRank set to NetworkX's stopping rule as far as its API allows."""
    nk.setNumberOfThreads(ctx.settings.threads)
    graph = components.networkit_graph(nk, ctx.edges)
    n = ctx.edges.num_vertices

    def make():
        algorithm = nk.centrality.PageRank(
            graph,
            damp=ctx.settings.alpha,
            tol=n * ctx.settings.tol,
            distributeSinks=nk.centrality.SinkHandling.DistributeSinks,
        )
        algorithm.norm = nk.centrality.Norm.L1_NORM
        algorithm.maxIterations = 100
        return algorithm

    def run(algorithm):
        algorithm.run()
        return algorithm

    return Peer("networkit", make, run)


def _measure_compute(ctx: Context, nk) -> dict:
    backends, edges = ctx.settings.backends, ctx.edges
    peers = [
        Peer(f"dyng {b}", lambda: None, lambda _, b=b: ctx.compute(ctx.base[b], b))
        for b in backends
    ]
    if nk is not None:
        peers.append(_networkit_peer(ctx, nk))
    iterations = {}

    def check(_, out):
        want = ranks_of(out[f"dyng {backends[0]}"])
        iterations["dyng"] = out[f"dyng {backends[0]}"].iterations
        check_converged(ctx, f"pagerank.compute() ({backends[0]})", want, edges)
        for b in backends[1:]:
            verify.assert_equal(
                f"pagerank.compute() ({b}) ranks vs {backends[0]}", ranks_of(out[f"dyng {b}"]), want
            )
        if "networkit" in out:
            iterations["networkit"] = out["networkit"].numberOfIterations()
            check_close(
                ctx, "NetworKit's PageRank vs dyng", np.asarray(out["networkit"].scores()), want
            )

    ctx.log(f"compute: {', '.join(p.name for p in peers)}, interleaved")
    samples = run_interleaved(
        peers,
        ctx.settings.repeats,
        check=check,
        progress=lambda m: ctx.log(f"compute {m}", throttle=True),
    )
    return {
        "section": "compute",
        "iterations": iterations,
        "peers": {name: summary(s) for name, s in samples.items()},
    }


def _measure_networkx(ctx: Context, nx) -> dict:
    """dyng against nx.pagerank on a graph small enough for NetworkX's time and memory."""
    edges = generators.rmat(ctx.settings.nx_scale, 16, ctx.settings.seed)
    graphs = {
        b: components.dyng_graph(ctx.dyng, edges, ctx.resources[b]) for b in ctx.settings.backends
    }
    ctx.log(
        f"networkx: building an nx.DiGraph of rmat{ctx.settings.nx_scale} "
        f"({edges.num_edges:,} edges, untimed)"
    )
    nx_graph = nx.DiGraph()
    nx_graph.add_nodes_from(range(edges.num_vertices))
    nx_graph.add_edges_from(zip(edges.src.tolist(), edges.dst.tolist()))
    s = ctx.settings
    peers = [
        Peer(f"dyng {b}", lambda: None, lambda _, b=b: ctx.compute(graphs[b], b))
        for b in s.backends
    ]
    peers.append(
        Peer("networkx", lambda: None, lambda _: nx.pagerank(nx_graph, alpha=s.alpha, tol=s.tol))
    )

    def check(_, out):
        got = np.fromiter(
            (out["networkx"][v] for v in range(edges.num_vertices)),
            dtype=np.float64,
            count=edges.num_vertices,
        )
        check_close(ctx, "nx.pagerank vs dyng", got, ranks_of(out[f"dyng {s.backends[0]}"]))

    samples = run_interleaved(
        peers, s.repeats, check=check, progress=lambda m: ctx.log(f"networkx {m}", throttle=True)
    )
    return {
        "section": "networkx",
        "graph": edges.name,
        "n": edges.num_vertices,
        "m": edges.num_edges,
        "peers": {name: summary(v) for name, v in samples.items()},
    }


def bars(document: dict) -> list[dict]:
    """The issue's host bars on this run's ratios; SKIP where a peer did not run."""
    backends = document["settings"]["backends"]
    rows = {row["section"]: row for row in document["rows"]}
    out = []
    nx_row = rows.get("networkx")
    for b in backends:
        speedup = (
            None
            if nx_row is None
            else nx_row["peers"]["networkx"]["ms"] / nx_row["peers"][f"dyng {b}"]["ms"]
        )
        out.append(
            bar(
                f"compute {b} >= {NX_SPEEDUP_BAR:g}x faster than nx.pagerank "
                f"({nx_row['graph'] if nx_row else 'not run'})",
                speedup,
                lambda r: r >= NX_SPEEDUP_BAR,
            )
        )
    nk = rows["compute"]["peers"].get("networkit")
    omp = rows["compute"]["peers"].get("dyng openmp")
    out.append(
        bar(
            f"compute openmp <= {NETWORKIT_BAR:g}x NetworKit's time (same threads)",
            None if nk is None or omp is None else omp["ms"] / nk["ms"],
            lambda r: r <= NETWORKIT_BAR,
        )
    )
    update = rows["update"]
    for b in backends:
        for phase in PHASES:
            upd = phase_ms(update["peers"][f"dyng {b} update"], phase)
            where = f"update {update['changes']} ({b}, {phase})"
            out.append(
                bar(
                    f"{where} <= {RECOMPUTE_BAR}x cold recompute",
                    upd / phase_ms(update["peers"][f"dyng {b} recompute"], phase),
                    lambda r: r <= RECOMPUTE_BAR,
                )
            )
            out.append(
                bar(
                    f"{where} <= {WARM_BAR}x warm full iteration",
                    upd / phase_ms(update["peers"][f"dyng {b} warm full"], phase),
                    lambda r: r <= WARM_BAR,
                )
            )
    out.append(
        bar(
            "every update within 2 * n * tol / (1 - alpha) of a fresh compute (worst "
            "distance / bound)",
            update["worst_fraction_of_bound"],
            lambda r: r <= 1.0,
        )
    )
    return out


def text(document: dict) -> str:
    s, graph = document["settings"], document["graph"]
    title = (
        f"pagerank on {graph['name']} ({graph['n']:,} vertices, {graph['m']:,} edges), "
        f"alpha {s['alpha']}, tol {s['tol']:g}, {s['repeats']} repeats + 1 warm-up "
        f"(medians), {document['cores']} cores, OpenMP threads {s['threads']}, dyng "
        f"{document['machine']['dyng_version']}"
    )
    return report.peer_text(
        document,
        title,
        lambda row: (
            pagerank_update.row_lines(row) if row["section"] == "update" else _compute_lines(row)
        ),
    )


def _compute_lines(row: dict) -> list[str]:
    peers = row["peers"]
    if row["section"] == "compute":
        title = "compute (first = the first call, then the median); iterations " + ", ".join(
            f"{k} {v}" for k, v in row["iterations"].items()
        )
    else:
        title = f"networkx compute on {row['graph']} ({row['m']:,} edges)"
    lines = [title, f"  {'peer':<32} {'first ms':>10} {'median ms':>10}"]
    lines += [f"  {name:<32} {p['first_ms']:>10.2f} {p['ms']:>10.2f}" for name, p in peers.items()]
    return lines
