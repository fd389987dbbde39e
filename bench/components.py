"""``python -m bench components``: connected components, compute and update, against SciPy,
NetworKit and NetworkX in the same run.

Graph: the bench's R-MAT (``bench.generators.rmat``, edge factor 16, ``--seed``) at ``--scale``
(default 20; ``--quick``: 12), directed, unweighted for dyng (weights play no part).

* **compute**, per kind (``weak``, ``strong``): ``dyng.components.compute`` on each backend of
  ``--backends``, ``scipy.sparse.csgraph.connected_components(csr, directed=True,
  connection=kind)`` and NetworKit's ``WeaklyConnectedComponents`` /
  ``StronglyConnectedComponents`` (``run()`` only; the graph is built before), interleaved.
  Every round, every answer is turned into canonical labels (the smallest vertex id of the
  component) and must equal dyng's first backend, bit for bit.
* **update**, per kind, on one sequence of ``--repeats`` + 1 batches of ``--changes`` changes
  (``bench.changes``, mode uniform: half deletions of existing edges, half insertions of new
  ones), each drawn from the graph the previous ones left. Per backend, three dyng graphs start
  from the same graph and walk the sequence: ``update`` (``components.update`` of a result
  computed before the first batch), ``apply+recompute`` (``Graph.apply`` then ``compute``, both
  timed) and ``recompute`` (``apply`` untimed, ``compute`` timed). For ``weak``, NetworKit's
  ``DynConnectedComponents`` walks the same sequence on the underlying undirected graph (each
  batch as the pair additions and removals it makes there; its graph edits and its update timed
  together, as dyng's update includes applying the batch). The first batch is the first update
  after compute (column ``first``); the others are steady updates (their median). Every round the
  updated labels, sizes and count equal the recompute's and the apply+recompute's, bit for bit,
  the backends agree, NetworKit's canonical labels equal dyng's, and after the first batch the
  recompute equals SciPy's on the changed edge list. Then each backend walks the same sequence
  **back to back** on another clone: a fresh compute, then the updates one straight after the
  other, as a stream of batches runs (the result must equal the interleaved one). In the
  interleaved rounds each update comes after the other peers, up to a second of CPU-only work for
  strong components, and a GPU left idle that long runs the next update 0.3-0.5 ms slower
  (bench/README.md); the GPU's millisecond bars are judged on the back to back series, and the
  table shows both.
* **networkx**, per kind, on R-MAT ``--nx-scale`` (default 16: NetworkX keeps a graph in Python
  dicts, and at scale 20 it would not fit this machine's memory): dyng sequential compute
  against ``nx.weakly_connected_components`` / ``nx.strongly_connected_components`` (the
  components listed), equal answers checked.

Peers that are not installed (networkit, networkx) are skipped with a line saying so. Bars
(issue 42, the 2-core machine): weak compute <= 0.5x SciPy, strong <= 1.0x SciPy; update
<= 0.1x recompute (weak) and <= 0.3x (strong); update <= 1.1x apply+recompute; NetworKit's
dynamic update >= 10x dyng's update time. Each update bar is judged for the first update and
for the steady ones. With the cuda backend, the GPU bars in ms on R-MAT 22: weak compute <= 5,
strong <= 25; update of 1,000 changes <= 0.5 (weak) and <= 2 (strong), back to back.
"""

from __future__ import annotations

import dataclasses
import sys
import time

import numpy as np

from bench import components_update, generators, report, verify
from bench.components_update import labels_of, networkit_labels, scipy_labels, summary
from bench.timing import Peer, run_interleaved

KINDS = ("weak", "strong")
ALL_BACKENDS = ("sequential", "openmp", "cuda")
DEFAULT_SCALE, QUICK_SCALE = 20, 12
DEFAULT_NX_SCALE = 16
# NetworKit's DynConnectedComponents is built and searched on one core: past this scale its start
# alone outlasts a GPU call (bench/README.md), so the peer is left out with a line saying so.
DEFAULT_NETWORKIT_DYNAMIC_SCALE = 20
COMPUTE_BARS = {"weak": 0.5, "strong": 1.0}
RECOMPUTE_BARS = {"weak": 0.1, "strong": 0.3}
APPLY_RECOMPUTE_BAR = 1.1
NETWORKIT_SPEEDUP_BAR = 10.0
PHASES = ("first", "steady")
# The GPU machine's absolute bars, in ms, judged on R-MAT 22 with the cuda backend.
GPU_GRAPH = "rmat22"
GPU_BARS = {
    ("compute", "weak"): 5.0,
    ("compute", "strong"): 25.0,
    ("update", "weak"): 0.5,
    ("update", "strong"): 2.0,
}


def add_parser(sub) -> None:
    """The ``components`` subcommand's options."""
    p = sub.add_parser(
        "components",
        help="connected components (weak, strong): compute vs "
        "SciPy, NetworKit, NetworkX; update vs recompute and "
        "NetworKit's dynamic components",
    )
    add_peer_options(
        p,
        "components",
        DEFAULT_SCALE,
        QUICK_SCALE,
        DEFAULT_NX_SCALE,
        "comma list among sequential,openmp,cuda (default sequential,openmp)",
    )
    p.add_argument("--kinds", default="weak,strong", help="comma list of weak,strong")
    p.add_argument(
        "--networkit-dynamic-scale",
        type=int,
        default=DEFAULT_NETWORKIT_DYNAMIC_SCALE,
        help="largest --scale at which NetworKit's dynamic components walk the batches (default "
        f"{DEFAULT_NETWORKIT_DYNAMIC_SCALE}: its setup on R-MAT 22 ran 415 s on 16 "
        "cores without finishing)",
    )


def add_peer_options(p, name, default_scale, quick_scale, default_nx_scale, backends_help) -> None:
    """The options every R-MAT peer benchmark (components, pagerank) takes."""
    p.add_argument(
        "--scale",
        type=int,
        default=None,
        help=f"R-MAT scale (default {default_scale}; --quick: {quick_scale})",
    )
    p.add_argument(
        "--repeats",
        type=int,
        default=None,
        help="timed rounds after the warm-up round (default 5, --quick 3); the "
        "update sequence has this many batches plus the first",
    )
    p.add_argument(
        "--changes", type=int, default=1000, help="changes per batch, half deletions (default 1000)"
    )
    p.add_argument("--backends", default="sequential,openmp", help=backends_help)
    p.add_argument(
        "--threads",
        type=int,
        default=2,
        help="OpenMP threads of dyng's openmp backend and of NetworKit (default 2)",
    )
    p.add_argument(
        "--nx-scale",
        type=int,
        default=None,
        help=f"R-MAT scale of the NetworkX comparison (default {default_nx_scale}, "
        "--quick: the --scale; 0 leaves NetworkX out)",
    )
    p.add_argument("--no-peers", action="store_true", help="leave NetworKit and NetworkX out")
    p.add_argument("--quick", action="store_true", help="a small graph and 3 repeats")
    p.add_argument("--seed", type=int, default=1, help="graph and batch seed (default 1)")
    p.add_argument(
        "--json",
        default=None,
        metavar="PATH",
        help=f"where to write the JSON (default bench/results/{name}-<timestamp>.json)",
    )


@dataclasses.dataclass(frozen=True)
class Settings:
    scale: int
    repeats: int
    changes: int
    backends: tuple[str, ...]
    kinds: tuple[str, ...]
    threads: int
    nx_scale: int
    peers: bool
    seed: int
    networkit_dynamic_scale: int = DEFAULT_NETWORKIT_DYNAMIC_SCALE


def main(args, argv, run_document) -> int:
    """Runs the benchmark through the CLI's shared document writer `run_document`."""
    settings = Settings(
        **peer_settings(args, DEFAULT_SCALE, QUICK_SCALE, DEFAULT_NX_SCALE),
        kinds=names(args.kinds),
        networkit_dynamic_scale=args.networkit_dynamic_scale,
    )
    if (
        not peer_settings_valid(settings, ALL_BACKENDS)
        or not settings.kinds
        or any(k not in KINDS for k in settings.kinds)
    ):
        print(
            "bench components: error: --scale in [2, 26], --repeats and --threads >= 1, "
            "--changes >= 2, --nx-scale in [0, 26], --backends among sequential,openmp,cuda "
            "and --kinds among weak,strong",
            file=sys.stderr,
        )
        return 2
    return run_document(
        "components",
        args,
        argv,
        dataclasses.asdict(settings),
        lambda progress: run(settings, progress),
        bars,
        text,
    )


def peer_settings(args, default_scale, quick_scale, default_nx_scale) -> dict:
    """The settings of add_peer_options()'s options, with --quick's and the defaults' choices."""
    scale = args.scale or (quick_scale if args.quick else default_scale)
    nx_scale = (
        args.nx_scale
        if args.nx_scale is not None
        else (scale if args.quick else min(scale, default_nx_scale))
    )
    return dict(
        scale=scale,
        repeats=args.repeats or (3 if args.quick else 5),
        changes=args.changes,
        backends=names(args.backends),
        threads=args.threads,
        nx_scale=nx_scale,
        peers=not args.no_peers,
        seed=args.seed,
    )


def peer_settings_valid(settings, all_backends) -> bool:
    """Whether peer_settings() came out within the ranges the benchmarks run."""
    return (
        2 <= settings.scale <= 26
        and settings.repeats >= 1
        and settings.threads >= 1
        and settings.changes >= 2
        and 0 <= settings.nx_scale <= 26
        and bool(settings.backends)
        and all(b in all_backends for b in settings.backends)
    )


def names(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def optional_module(module: str, skipped: list[str]):
    """The peer's module, or None with a line in `skipped` saying how to get it."""
    try:
        return __import__(module)
    except ImportError as error:
        skipped.append(f"{module}: not installed ({error}); `pip install {module}` adds it")
        return None


@dataclasses.dataclass
class _Context:
    dyng: object
    settings: Settings
    edges: generators.EdgeGraph
    resources: dict
    base: dict
    log: object
    nk: object = None
    nk_graph: object = None
    nk_dynamic: bool = False


def run(settings: Settings, progress) -> dict:
    """Every measurement; the benchmark's part of the JSON document."""
    import dyng

    _require_backends(dyng, settings.backends)
    skipped = []
    nk = optional_module("networkit", skipped) if settings.peers else None
    nx = optional_module("networkx", skipped) if settings.peers and settings.nx_scale else None
    makers = {
        "sequential": dyng.Resources.sequential,
        "openmp": lambda: dyng.Resources.openmp(num_threads=settings.threads),
        "cuda": dyng.Resources.cuda,
    }
    resources = {b: makers[b]() for b in settings.backends}
    start = time.perf_counter()
    edges = generators.rmat(settings.scale, 16, settings.seed)
    progress(
        f"rmat{settings.scale}: n={edges.num_vertices:,} m={edges.num_edges:,} generated in "
        f"{time.perf_counter() - start:.1f} s; building the graphs (untimed)"
    )
    ctx = _Context(
        dyng,
        settings,
        edges,
        resources,
        {b: dyng_graph(dyng, edges, resources[b]) for b in settings.backends},
        progress,
    )
    if nk is not None:
        nk.setNumberOfThreads(settings.threads)
        ctx.nk, ctx.nk_graph = nk, networkit_graph(nk, edges)
        ctx.nk_dynamic = settings.scale <= settings.networkit_dynamic_scale
        if not ctx.nk_dynamic and "weak" in settings.kinds:
            skipped.append(
                f"networkit dynamic: left out at scale {settings.scale} (above "
                f"--networkit-dynamic-scale {settings.networkit_dynamic_scale}: its setup on a "
                "graph this large outlasts the run); NetworKit's static components still run"
            )
    rows = [_measure_compute(ctx, kind) for kind in settings.kinds]
    batches = components_update.draw_batches(edges, settings, progress)
    for kind in settings.kinds:
        rows += components_update.measure_updates(ctx, kind, batches)
    if nx is not None:
        rows += _measure_networkx(dyng, nx, settings, progress)
    return report.peer_document(dyng, edges, skipped, rows)


def _require_backends(dyng, backends) -> None:
    """Refuses, before minutes of graph building, a backend dyng.components does not have."""
    have = next(a.backends for a in dyng.algorithms() if a.name == "components")
    missing = [b for b in backends if b not in have]
    if missing:
        raise RuntimeError(
            f"dyng {dyng.__version__}'s components has no {', '.join(missing)} "
            f"backend (it has {', '.join(have)}); leave it out of --backends"
        )


def dyng_graph(dyng, edges, res):
    graph = dyng.Graph.from_edges(
        edges.src, edges.dst, num_vertices=edges.num_vertices, resources=res
    )
    if graph.num_edges != edges.num_edges:
        raise verify.VerificationError(
            f"Graph.from_edges(): {graph.num_edges} edges stored for {edges.name}, expected "
            f"{edges.num_edges} (the list has no duplicates or self-loops)"
        )
    return graph


def networkit_graph(nk, edges):
    return nk.GraphFromCoo(
        (edges.src.astype(np.uint64), edges.dst.astype(np.uint64)),
        n=edges.num_vertices,
        directed=True,
    )


def _measure_compute(ctx: _Context, kind: str) -> dict:
    dyng, first = ctx.dyng, ctx.settings.backends[0]
    csr = verify.scipy_csr(ctx.edges)
    peers = [
        Peer(
            f"dyng {b}",
            lambda: None,
            lambda _, b=b: dyng.components.compute(
                ctx.base[b], kind=kind, resources=ctx.resources[b]
            ),
        )
        for b in ctx.settings.backends
    ]
    peers.append(Peer("scipy", lambda: None, lambda _: scipy_labels(csr, kind)))
    if ctx.nk is not None:
        static = (
            ctx.nk.components.WeaklyConnectedComponents
            if kind == "weak"
            else ctx.nk.components.StronglyConnectedComponents
        )
        peers.append(Peer("networkit", lambda: static(ctx.nk_graph), lambda a: a.run()))

    def check(_, out):
        want = labels_of(out[f"dyng {first}"])
        verify.assert_equal(
            f"components.compute({kind!r}) ({first}) labels vs SciPy",
            want,
            verify.canonical_labels(out["scipy"]),
        )
        for b in ctx.settings.backends[1:]:
            verify.assert_equal(
                f"components.compute({kind!r}) ({b}) labels vs {first}",
                labels_of(out[f"dyng {b}"]),
                want,
            )
        if "networkit" in out:
            verify.assert_equal(
                f"NetworKit {kind} components vs dyng", networkit_labels(out["networkit"]), want
            )

    ctx.log(f"compute {kind}: {', '.join(p.name for p in peers)}, interleaved")
    samples = run_interleaved(
        peers,
        ctx.settings.repeats,
        check=check,
        progress=lambda m: ctx.log(f"compute {kind} {m}", throttle=True),
    )
    return {
        "section": "compute",
        "kind": kind,
        "peers": {name: summary(s) for name, s in samples.items()},
    }


def _measure_networkx(dyng, nx, settings: Settings, progress) -> list[dict]:
    """dyng sequential against NetworkX on a graph small enough for NetworkX's memory."""
    edges = generators.rmat(settings.nx_scale, 16, settings.seed)
    res = dyng.Resources.sequential()
    graph = dyng_graph(dyng, edges, res)
    progress(
        f"networkx: building an nx.DiGraph of rmat{settings.nx_scale} "
        f"({edges.num_edges:,} edges, untimed)"
    )
    nx_graph = nx.DiGraph()
    nx_graph.add_nodes_from(range(edges.num_vertices))
    nx_graph.add_edges_from(zip(edges.src.tolist(), edges.dst.tolist()))
    rows = []
    for kind in settings.kinds:
        listing = (
            nx.weakly_connected_components if kind == "weak" else nx.strongly_connected_components
        )
        peers = [
            Peer(
                "dyng sequential",
                lambda: None,
                lambda _, kind=kind: dyng.components.compute(graph, kind=kind, resources=res),
            ),
            Peer("networkx", lambda: None, lambda _, f=listing: list(f(nx_graph))),
        ]

        def check(_, out, kind=kind):
            labels = np.empty(edges.num_vertices, dtype=np.int64)
            for component in out["networkx"]:
                members = np.fromiter(component, dtype=np.int64, count=len(component))
                labels[members] = members.min()
            verify.assert_equal(
                f"NetworkX {kind} components vs dyng", labels, labels_of(out["dyng sequential"])
            )

        samples = run_interleaved(
            peers,
            settings.repeats,
            check=check,
            progress=lambda m: progress(f"networkx {m}", throttle=True),
        )
        rows.append(
            {
                "section": "networkx",
                "kind": kind,
                "graph": edges.name,
                "n": edges.num_vertices,
                "m": edges.num_edges,
                "peers": {name: summary(s) for name, s in samples.items()},
            }
        )
    return rows


def phase_ms(summary: dict, phase: str) -> float:
    return summary["first_ms"] if phase == "first" else summary["ms"]


def bar(name, value, ok) -> dict:
    if value is None:
        return {"bar": name, "status": "SKIP", "value": None}
    return {"bar": name, "status": "PASS" if ok(value) else "FAIL", "value": round(value, 4)}


def bars(document: dict) -> list[dict]:
    """The issue's bars on this run's ratios; SKIP where a peer or kind did not run."""
    out, backends = [], document["settings"]["backends"]
    for row in document["rows"]:
        kind, peers = row["kind"], row["peers"]
        if row["section"] == "compute":
            limit = COMPUTE_BARS[kind]
            for b in backends:
                out.append(
                    bar(
                        f"{kind} compute {b} <= {limit}x SciPy",
                        peers[f"dyng {b}"]["ms"] / peers["scipy"]["ms"],
                        lambda r, limit=limit: r <= limit,
                    )
                )
        elif row["section"] == "update":
            out += _update_bars(row, backends)
        if "cuda" in backends and row["section"] in ("compute", "update"):
            out += _gpu_bars(row, document["graph"]["name"])
    return out


def _gpu_bars(row: dict, graph: str) -> list[dict]:
    """Milliseconds of the cuda backend against the issue's GPU bars (SKIP off R-MAT 22)."""
    section, kind = row["section"], row["kind"]
    limit = GPU_BARS[(section, kind)]
    if section == "compute":
        timed = [("", row["peers"]["dyng cuda"]["ms"])]
    else:
        update = row["peers"]["dyng cuda update, back to back"]
        timed = [(f" back to back ({phase})", phase_ms(update, phase)) for phase in PHASES]
    what = "compute" if section == "compute" else f"update {row['changes']}"
    return [
        bar(
            f"{kind} {what} cuda{phase} <= {limit:g} ms on {GPU_GRAPH} (GPU)",
            ms if graph == GPU_GRAPH else None,
            lambda v, limit=limit: v <= limit,
        )
        for phase, ms in timed
    ]


def _update_bars(row: dict, backends) -> list[dict]:
    kind, peers, out = row["kind"], row["peers"], []
    limit = RECOMPUTE_BARS[kind]
    nk = peers.get("networkit dynamic")
    for b in backends:
        for phase in PHASES:
            upd = phase_ms(peers[f"dyng {b} update"], phase)
            where = f"{kind} update {row['changes']} ({b}, {phase})"
            out.append(
                bar(
                    f"{where} <= {limit}x recompute",
                    upd / phase_ms(peers[f"dyng {b} recompute"], phase),
                    lambda r, limit=limit: r <= limit,
                )
            )
            out.append(
                bar(
                    f"{where} <= {APPLY_RECOMPUTE_BAR}x apply+recompute",
                    upd / phase_ms(peers[f"dyng {b} apply+recompute"], phase),
                    lambda r: r <= APPLY_RECOMPUTE_BAR,
                )
            )
            name = f"{where} >= {NETWORKIT_SPEEDUP_BAR:g}x faster than NetworKit dynamic"
            if nk is None and kind == "strong":
                name += " (NetworKit has no dynamic strong components)"
            out.append(
                bar(
                    name,
                    None if nk is None else phase_ms(nk, phase) / upd,
                    lambda r: r >= NETWORKIT_SPEEDUP_BAR,
                )
            )
    return out


def text(document: dict) -> str:
    s, graph = document["settings"], document["graph"]
    title = (
        f"components on {graph['name']} ({graph['n']:,} vertices, {graph['m']:,} edges), "
        f"{s['repeats']} repeats + 1 warm-up (medians), {document['cores']} cores, "
        f"OpenMP threads {s['threads']}, dyng {document['machine']['dyng_version']}"
    )
    return report.peer_text(document, title, _row_lines)


def _row_lines(row: dict) -> list[str]:
    peers, kind = row["peers"], row["kind"]
    if row["section"] == "update":
        lines = [
            f"update {kind}, {row['changes']} changes a batch: first batch after compute, "
            "then the median of the steady ones",
            f"  {'peer':<36} {'first ms':>10} {'steady ms':>10}",
        ]
        lines += [
            f"  {name:<36} {p['first_ms']:>10.2f} {p['ms']:>10.2f}" for name, p in peers.items()
        ]
        for backend, rounds in row["stats"].items():
            lines.append(
                f"  {backend} update paths: "
                + ", ".join(
                    f"{r['path']} (merged {r['merged']}, split {r['split']}, searches "
                    f"{r['searches']}, visited {r['search_size']})"
                    for r in rounds[:3]
                )
                + (", ..." if len(rounds) > 3 else "")
            )
        return lines
    reference = "scipy" if row["section"] == "compute" else "networkx"
    title = (
        f"compute {kind}"
        if row["section"] == "compute"
        else f"networkx {kind} compute on {row['graph']} ({row['m']:,} edges)"
    )
    lines = [
        f"{title}: ratio = ms / {reference} ms",
        f"  {'peer':<32} {'median ms':>10} {'ratio':>8}",
    ]
    lines += [
        f"  {name:<32} {p['ms']:>10.2f} {p['ms'] / peers[reference]['ms']:>7.3f}x"
        for name, p in peers.items()
    ]
    return lines
