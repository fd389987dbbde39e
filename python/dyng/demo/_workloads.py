"""What the demo keeps current: each graph with its stream of batches and the results on it.

A ``Tracked`` result says how to compute it fresh, which of its arrays are its answer, and,
for an iterative answer (pagerank), the L1 distance within which an update must lie of a fresh
compute (the bound its module documents); exact answers must be equal bit for bit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from dyng import generators
from dyng.demo import _stream

__all__ = ["Tracked", "Workload", "build"]

# Payment cycles up to this many payments (a longer loop is not a pattern anyone looks for, and
# the count of all simple cycles grows too fast to be the demo's point).
CYCLE_BOUND = 6


@dataclasses.dataclass(frozen=True)
class Tracked:
    """One result kept current: `label` in the report, `algorithm` its dyng module."""

    label: str
    algorithm: str
    compute: Callable
    answers: Callable
    l1_bound: Callable | None = None


@dataclasses.dataclass
class Workload:
    """A graph, the events that change it, and the results kept current on it."""

    name: str
    description: str
    graph: object
    events: object
    tracked: list


def build(sizes, seed):
    """The three workloads (roads, followers, payments) for `sizes`, drawn from `seed`."""
    rng = np.random.default_rng(seed)
    return [_roads(sizes, rng), _followers(sizes, rng), _payments(sizes, rng)]


def _graph(edges):
    return edges.to_graph(vertex_dtype="int32")


def _roads(sizes, rng):
    import dyng

    side = sizes.road_side
    streets = generators.street_grid(side, seed=rng)
    edges = streets.edges()
    centre = (side // 2) * side + side // 2
    events = _stream.RoadEvents(
        streets,
        closures=sizes.road_closures,
        changes=3 * sizes.road_closures,
        rng=rng,
    )
    tracked = [
        Tracked(
            "sssp",
            "sssp",
            lambda g: dyng.sssp.compute(g, centre),
            lambda r: {"distances": r.distances, "parents": r.parents},
        ),
        Tracked(
            "dynamic_bfs",
            "dynamic_bfs",
            lambda g: dyng.dynamic_bfs.compute(g, centre),
            lambda r: {"levels": r.levels},
        ),
    ]
    return Workload(
        "roads",
        f"{edges.num_vertices} junctions, {edges.num_edges} one-way "
        f"street segments with travel times; from the centre junction {centre}",
        _graph(edges),
        events,
        tracked,
    )


def _followers(sizes, rng):
    import dyng

    scale = sizes.follower_scale
    edges = generators.rmat(scale, sizes.follower_edge_factor, seed=rng)
    events = _stream.EdgeSetEvents(
        edges,
        lambda count, r: generators.rmat_pairs(scale, count, seed=r),
        insertions=sizes.follows,
        deletions=sizes.follows,
        rng=rng,
    )
    tracked = [
        Tracked(
            "components (weak)",
            "components",
            lambda g: dyng.components.compute(g, kind="weak"),
            _component_answers,
        ),
        Tracked(
            "components (strong)",
            "components",
            lambda g: dyng.components.compute(g, kind="strong"),
            _component_answers,
        ),
        Tracked(
            "pagerank",
            "pagerank",
            dyng.pagerank.compute,
            lambda r: {"ranks": r.ranks},
            _pagerank_bound,
        ),
    ]
    return Workload(
        "followers",
        f"{edges.num_vertices} accounts, {edges.num_edges} follows (R-MAT)",
        _graph(edges),
        events,
        tracked,
    )


def _payments(sizes, rng):
    import dyng

    accounts = sizes.payment_accounts
    edges = generators.payments(accounts, sizes.payments_per_account, seed=rng)
    events = _stream.EdgeSetEvents(
        edges,
        lambda count, r: generators.payment_pairs(accounts, count, seed=r),
        insertions=sizes.payments,
        deletions=sizes.payments,
        rng=rng,
    )
    tracked = [
        Tracked(
            f"cycle_count (<= {CYCLE_BOUND})",
            "cycle_count",
            lambda g: dyng.cycle_count.compute(g, max_length=CYCLE_BOUND),
            lambda r: {"counts": r.counts},
        ),
    ]
    return Workload(
        "payments",
        f"{accounts} accounts, {edges.num_edges} payer->payee pairs; "
        f"cycles of up to {CYCLE_BOUND} payments",
        _graph(edges),
        events,
        tracked,
    )


def _component_answers(result):
    return {"labels": result.labels, "sizes": result.sizes, "count": np.array([result.count])}


def _pagerank_bound(graph, result):
    """pagerank's documented distance of an update from a fresh compute: 2 n tol / (1 - alpha)
    in L1."""
    options = result.options
    return 2 * graph.num_vertices * options.tol / (1 - options.alpha)
