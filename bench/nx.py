"""``python -m bench nx``: the same NetworkX query, repeated while the graph changes, three ways.

The graph is a road network: a 4-neighbour grid of ``--scale`` x 1,000,000 vertices (1000 x
1000 at scale 1), each road a pair of directed edges with travel times 1..100
(bench.generators.grid). Before timing, ``--changes / 2`` random directed edges are closed
(removed). Every round then makes ``--changes`` edge changes, the same on every graph: the
closed edges reopen (``add_edge`` with their weight) and as many other random edges close
(``remove_edge``); then it asks ``nx.single_source_dijkstra_path_length(G, 0)``:

* ``networkx``: NetworkX's own Dijkstra on an ``nx.DiGraph``;
* ``dyng stateless``: the same ``nx.DiGraph`` with ``backend="dyng"``: every change drops
  NetworkX's conversion cache, so each query converts the graph and computes afresh;
* ``dyng.nx graph``: a ``dyng.nx.DiGraph`` built from the same edges: the changes are recorded
  as a pending batch and the query repairs the cached result with ``dyng.update``.

The three answers must be equal dicts every round (else the run stops with status 1). Times are
medians over ``--rounds`` rounds, interleaved per round; the first query of the graph type (its
compute) is reported apart, and so is the time each graph takes to make the changes (recording
them costs the graph type a little). ``ratio = ms / networkx ms`` (below 1: faster).
"""

from __future__ import annotations

import math
import statistics
import sys
import time

import numpy as np

from bench import generators

QUERY = "single_source_dijkstra_path_length"
PEERS = ("networkx", "dyng stateless", "dyng.nx graph")


def add_parser(sub) -> None:
    """The ``nx`` subcommand's options."""
    p = sub.add_parser(
        "nx",
        help="a repeated NetworkX shortest-path query on a changing 1M-vertex "
        "road grid: NetworkX, dyng's backend, dyng.nx.DiGraph",
    )
    p.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="vertices in millions (default 1: a 1000 x 1000 grid)",
    )
    p.add_argument(
        "--changes", type=int, default=1000, help="edge changes between queries (default 1000)"
    )
    p.add_argument("--rounds", type=int, default=3, help="timed rounds (default 3)")
    p.add_argument(
        "--quick",
        action="store_true",
        help="scale 0.01 (a 100 x 100 grid), 100 changes: a fast look",
    )
    p.add_argument("--seed", type=int, default=1, help="weights and changes seed (default 1)")
    p.add_argument(
        "--json",
        default=None,
        metavar="PATH",
        help="where to write the JSON (default bench/results/nx-<timestamp>.json)",
    )


def main(args, argv, run_document) -> int:
    """Runs the benchmark through the CLI's shared document writer `run_document`."""
    scale, changes = (0.01, 100) if args.quick else (args.scale, args.changes)
    if not scale > 0 or changes < 2 or args.rounds < 1:
        print(
            "bench nx: error: --scale must be > 0, --changes >= 2 and --rounds >= 1",
            file=sys.stderr,
        )
        return 2
    side = max(2, round(1000 * math.sqrt(scale)))
    settings = {
        "side": side,
        "vertices": side * side,
        "changes": changes,
        "rounds": args.rounds,
        "seed": args.seed,
        "query": QUERY,
    }
    return run_document(
        "nx",
        args,
        argv,
        settings,
        lambda progress: run(side, changes, args.rounds, args.seed, progress),
        bars,
        text,
    )


class _Changes:
    """The closures and reopenings of every round, drawn once so every graph gets the same."""

    def __init__(self, graph, count, seed):
        self.rng = np.random.default_rng(seed)
        self.graph = graph
        self.half = count // 2
        self.closed = self._draw(set())

    def _draw(self, avoid):
        picked = []
        while len(picked) < self.half:
            for i in self.rng.integers(0, self.graph.num_edges, self.half).tolist():
                if i not in avoid and len(picked) < self.half:
                    avoid.add(i)
                    picked.append(i)
        return picked

    def edges(self, picked):
        g = self.graph
        return [(int(g.src[i]), int(g.dst[i]), int(g.weights[i])) for i in picked]

    def next_round(self):
        """(edges to reopen, edges to close) of the next round."""
        reopen = self.closed
        self.closed = self._draw(set(reopen))
        return self.edges(reopen), self.edges(self.closed)


def _apply(G, reopen, close):
    t = time.perf_counter()
    for u, v, w in reopen:
        G.add_edge(u, v, weight=w)
    for u, v, _ in close:
        G.remove_edge(u, v)
    return (time.perf_counter() - t) * 1e3


def _timed(query):
    t = time.perf_counter()
    answer = query()
    return answer, (time.perf_counter() - t) * 1e3


def run(side, changes, rounds, seed, progress) -> dict:
    """Builds the graphs, runs the rounds; the benchmark's document part."""
    import networkx as nx

    import dyng.nx

    query = getattr(nx, QUERY)
    grid = generators.grid(side, side, seed)
    progress(f"grid {side} x {side}: {grid.num_vertices:,} vertices, {grid.num_edges:,} edges")
    edges = list(zip(grid.src.tolist(), grid.dst.tolist(), grid.weights.tolist()))
    plain = nx.DiGraph()
    t = time.perf_counter()
    plain.add_weighted_edges_from(edges)
    build_plain = time.perf_counter() - t
    live = dyng.nx.DiGraph()
    t = time.perf_counter()
    live.add_weighted_edges_from(edges)
    build_live = time.perf_counter() - t
    del edges
    progress(f"built nx.DiGraph in {build_plain:.1f} s, dyng.nx.DiGraph in {build_live:.1f} s")
    plan = _Changes(grid, changes, seed)
    for G in (plain, live):
        _apply(G, [], plan.edges(plan.closed))
    first, first_ms = _timed(lambda: query(live, 0))
    progress(f"dyng.nx graph: first query (compute) {first_ms:.0f} ms")
    samples = {peer: [] for peer in PEERS}
    change_ms = {"nx.DiGraph": [], "dyng.nx.DiGraph": []}
    for round_ in range(rounds):
        reopen, close = plan.next_round()
        change_ms["nx.DiGraph"].append(_apply(plain, reopen, close))
        change_ms["dyng.nx.DiGraph"].append(_apply(live, reopen, close))
        expected, ms = _timed(lambda: query(plain, 0, backend="networkx"))
        samples["networkx"].append(ms)
        answers = {}
        answers["dyng stateless"], ms = _timed(lambda: query(plain, 0, backend="dyng"))
        samples["dyng stateless"].append(ms)
        answers["dyng.nx graph"], ms = _timed(lambda: query(live, 0))
        samples["dyng.nx graph"].append(ms)
        for peer, answer in answers.items():
            if answer != expected:
                raise RuntimeError(
                    f"round {round_ + 1}: {peer} answered differently from "
                    f"NetworkX ({len(answer)} vs {len(expected)} nodes)"
                )
        progress(
            f"round {round_ + 1}/{rounds}: "
            + ", ".join(f"{peer} {samples[peer][-1]:.0f} ms" for peer in PEERS)
        )
    reference = statistics.median(samples["networkx"])
    rows = [
        {
            "peer": peer,
            "median_ms": statistics.median(samples[peer]),
            "ratio": statistics.median(samples[peer]) / reference,
            "samples_ms": samples[peer],
        }
        for peer in PEERS
    ]
    stats = live.dyng_stats
    return {
        "vertices": grid.num_vertices,
        "edges": grid.num_edges,
        "rows": rows,
        "first_query_ms": first_ms,
        "build_s": {"nx.DiGraph": build_plain, "dyng.nx.DiGraph": build_live},
        "change_ms": {name: statistics.median(ms) for name, ms in change_ms.items()},
        "dyng_stats": {
            "computes": stats.computes,
            "updates": stats.updates,
            "incremental": stats.incremental,
            "recomputed": stats.recomputed,
            "networkx_calls": stats.networkx_calls,
        },
        "reached": len(first),
    }


def bars(document: dict) -> list[dict]:
    """Both dyng ways answer faster than NetworkX; the graph type faster than stateless."""
    by = {row["peer"]: row for row in document["rows"]}
    checks = [
        ("dyng stateless <= 1.0x networkx", by["dyng stateless"]["ratio"], 1.0),
        ("dyng.nx graph <= 1.0x networkx", by["dyng.nx graph"]["ratio"], 1.0),
        (
            "dyng.nx graph <= 1.0x dyng stateless",
            by["dyng.nx graph"]["median_ms"] / by["dyng stateless"]["median_ms"],
            1.0,
        ),
    ]
    return [
        {
            "bar": name,
            "limit": limit,
            "ratio": ratio,
            "status": "PASS" if ratio <= limit else "FAIL",
        }
        for name, ratio, limit in checks
    ]


def text(document: dict) -> str:
    settings = document["settings"]
    lines = [
        f"nx: {QUERY}(G, 0) on a {settings['side']} x {settings['side']} road grid "
        f"({document['vertices']:,} vertices, {document['edges']:,} edges), "
        f"{settings['changes']} edge changes between queries, {settings['rounds']} rounds",
        f"{'peer':<16} {'median ms':>10} {'ratio':>7}",
    ]
    for row in document["rows"]:
        lines.append(f"{row['peer']:<16} {row['median_ms']:>10.1f} {row['ratio']:>6.3f}x")
    change = document["change_ms"]
    lines.append(
        f"first dyng.nx query (compute): {document['first_query_ms']:.0f} ms; making "
        f"the changes: nx.DiGraph {change['nx.DiGraph']:.1f} ms, dyng.nx.DiGraph "
        f"{change['dyng.nx.DiGraph']:.1f} ms; dyng.nx stats {document['dyng_stats']}"
    )
    lines.append("Bars")
    for b in document.get("bars", []):
        lines.append(f"  {b['status']:<4} {b['bar']} ({b['ratio']:.3f}x)")
    return "\n".join(lines)
