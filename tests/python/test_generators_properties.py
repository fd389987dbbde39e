"""Invariants of dyng.generators.legacy on random graphs (hypothesis), and its argument checks.

The exact batches are test_generators_legacy.py's business; here every batch must make sense
whatever the seed: the counts add up, deletions and re-weights hit stored edges, insertions are
no self-loops (and for cycle_enum_batch no edges), tree modes pick shortest-path-tree edges, a
local batch stays in its region, safe deletions cut no vertex off, and a seed gives one batch.
"""

from __future__ import annotations

import collections
import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import dyng
from dyng.generators import legacy

_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def graphs(draw, *, min_weights=1, max_weights=4, sorted_rows=False):
    n = draw(st.integers(2, 12))
    m = draw(st.integers(0, 40))
    k = draw(st.integers(min_weights, max_weights))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    weights = (
        np.asarray(
            draw(st.lists(st.integers(1, 9), min_size=m * k, max_size=m * k)), dtype=np.int32
        ).reshape(m, k)
        if k
        else None
    )
    props = "default" if sorted_rows else draw(st.sampled_from(["default", "mosp_compatible"]))
    return dyng.Graph.from_edges(
        np.asarray(src, dtype=np.int32),
        np.asarray(dst, dtype=np.int32),
        weights,
        num_vertices=n,
        properties=props,
        directed=draw(st.booleans()),
    )


def _rows(graph):
    """Row u of the graph's CSR as a list of (v, weights)."""
    csr = graph.to_csr()
    rows = []
    for u in range(graph.num_vertices):
        lo, hi = csr.row_ptr[u], csr.row_ptr[u + 1]
        w = csr.weights[lo:hi] if csr.weights is not None else [None] * (hi - lo)
        rows.append(
            [(int(v), None if x is None else x.tolist()) for v, x in zip(csr.col_ind[lo:hi], w)]
        )
    return rows


def _reachable(adjacency, source):
    seen, stack = {source}, [source]
    while stack:
        for w in adjacency[stack.pop()]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return seen


def _rows_after(rows, batch):
    """The stored rows after the batch as the tool applies it: a deletion removes one copy of
    (u, v) (one direction, also on an undirected graph); an insertion adds (u, v) if absent."""
    adjacency = [collections.Counter(v for v, _ in row) for row in rows]
    for u, v in zip(batch.delete_src.tolist(), batch.delete_dst.tolist()):
        if adjacency[u][v] > 0:
            adjacency[u][v] -= 1
    for u, v in zip(batch.insert_src.tolist(), batch.insert_dst.tolist()):
        adjacency[u][v] = max(adjacency[u][v], 1)
    return [[v for v, c in row.items() if c > 0] for row in adjacency]


def _ball(rows, centre, hops):
    undirected = [set() for _ in rows]
    for u, row in enumerate(rows):
        for v, _ in row:
            undirected[u].add(v)
            undirected[v].add(u)
    level = {centre: 0}
    frontier = [centre]
    while frontier:
        nxt = []
        for u in frontier:
            if level[u] == hops:
                continue
            for w in undirected[u]:
                if w not in level:
                    level[w] = level[u] + 1
                    nxt.append(w)
        frontier = nxt
    return set(level)


mosp_arguments = st.fixed_dictionaries(
    {
        "num_changes": st.integers(0, 15),
        "mode": st.sampled_from(["uniform", "targeted", "reweight", "increase"]),
        "seed": st.integers(0, 2**32 - 1),
        "insertion_percentage": st.floats(0, 100),
        "safe_deletions": st.booleans(),
        "local_hops": st.integers(0, 3),
        "weight_min": st.integers(1, 5),
        "weight_max": st.integers(5, 40),
    }
)


@_SETTINGS
@given(graphs(), mosp_arguments, st.data())
def test_mosp_changes_invariants(graph, args, data):
    args["source"] = data.draw(st.integers(0, graph.num_vertices - 1))
    try:
        batch, report = legacy.mosp_changes(graph, **args)
    except dyng.InvalidArgumentError as error:
        # Refused only when there is nothing to draw from: no edge qualifies, or a tiny region.
        assert "no edge qualifies" in str(error) or "fewer than 2 vertices" in str(error)
        assume(False)
    again, again_report = legacy.mosp_changes(graph, **args)
    assert again_report == report
    for name in ("insert_src", "insert_dst", "insert_weights", "delete_src", "delete_dst"):
        assert np.array_equal(getattr(again, name), getattr(batch, name))

    rows = _rows(graph)
    stored = {(u, v) for u, row in enumerate(rows) for v, _ in row}
    k, mode = graph.num_weights, args["mode"]
    assert batch.insert_weights.shape == (batch.num_insertions, k)
    assert batch.insert_src.dtype == graph.vertex_dtype
    assert report.inserts + report.reweights == batch.num_insertions
    assert report.deletes == batch.num_deletions <= report.requested_deletes
    assert report.safe == args["safe_deletions"]
    pairs = list(zip(batch.insert_src.tolist(), batch.insert_dst.tolist()))
    assert all(u != v for u, v in pairs)
    deletions = list(zip(batch.delete_src.tolist(), batch.delete_dst.tolist()))
    assert all(d in stored and d[0] != d[1] for d in deletions)
    reweighted = pairs[report.inserts :]
    assert all(p in stored for p in reweighted)
    if mode == "uniform":
        assert report.inserts + report.requested_deletes == args["num_changes"]
    if mode == "reweight":
        assert report.reweights == args["num_changes"]
    if mode in ("targeted", "increase"):
        changed = deletions if mode == "targeted" else reweighted
        assert len(set(changed)) == len(changed) <= args["num_changes"]
        parents = [
            np.asarray(dyng.testing.dijkstra(graph, args["source"], objective=j)[1])
            for j in range(k)
        ]
        assert all(any(p[v] == u for p in parents) for u, v in changed)
    weights = batch.insert_weights.tolist()
    lo, hi = args["weight_min"], args["weight_max"]
    if mode in ("uniform", "reweight"):
        assert all(lo <= w <= hi for row in weights for w in row)
    if mode == "increase":
        for (u, v), new in zip(reweighted, weights):
            old = next(w for x, w in rows[u] if x == v)
            assert all(1 <= b - a <= hi for a, b in zip(old, new))
    if args["local_hops"] > 0:
        region = _ball(rows, report.centre, args["local_hops"])
        assert report.region == len(region) and report.local_hops == args["local_hops"]
        drawn = pairs[: report.inserts]
        tree_mode = mode in ("targeted", "increase")
        edges = deletions + pairs[report.inserts :]
        assert all(u in region and v in region for u, v in drawn)
        # A tree edge counts as local by its child: the tool tests only the child for region.
        assert all(v in region and (tree_mode or u in region) for u, v in edges)
    else:
        assert (report.centre, report.region, report.local_hops) == (-1, 0, 0)
    if args["safe_deletions"]:
        before = _reachable([[v for v, _ in row] for row in rows], args["source"])
        assert before <= _reachable(_rows_after(rows, batch), args["source"])
    assert report.summary.startswith(
        f"inserts={report.inserts} reweights={report.reweights} deletes={report.deletes}"
    )


@_SETTINGS
@given(
    graphs(min_weights=0, max_weights=3, sorted_rows=True),
    st.integers(0, 6),
    st.integers(0, 6),
    st.integers(0, 2**64 - 1),
    st.one_of(st.none(), st.integers(0, 14)),
)
def test_cycle_enum_batch_invariants(graph, deletions, insertions, seed, window):
    args = dict(
        num_deletions=deletions, num_insertions=insertions, seed=seed, locality_window=window
    )
    try:
        batch = legacy.cycle_enum_batch(graph, **args)
    except dyng.InvalidArgumentError:
        assume(False)
    stored = {(int(u), int(v)) for u, v in zip(*graph.edges()[:2])}
    dels = list(zip(batch.delete_src.tolist(), batch.delete_dst.tolist()))
    ins = list(zip(batch.insert_src.tolist(), batch.insert_dst.tolist()))
    assert len(dels) == deletions and len(ins) == insertions
    assert dels == sorted(set(dels)) and ins == sorted(set(ins))
    assert all(d in stored for d in dels)
    assert all(p not in stored and p[0] != p[1] for p in ins)
    if window is not None and max(window, 2) < graph.num_vertices:
        ids = [x for pair in dels + ins for x in pair]
        assert not ids or max(ids) - min(ids) < max(window, 2)
    if graph.weighted:
        assert batch.insert_weights.tolist() == [[1] * graph.num_weights] * insertions
    else:
        assert batch.insert_weights is None
    again = legacy.cycle_enum_batch(graph, **args)
    assert again.insert_src.tolist() == batch.insert_src.tolist()
    assert again.delete_src.tolist() == batch.delete_src.tolist()


def test_directed_safe_batches_keep_reachability_under_apply():
    # On a directed graph the tool's probe and Graph.apply agree, so the applied batch itself
    # keeps every vertex that the source reached.
    rng = np.random.default_rng(3)
    for seed in range(40):
        n = 15
        src, dst = rng.integers(0, n, 40), rng.integers(0, n, 40)
        g = dyng.Graph.from_edges(src, dst, rng.integers(1, 9, 40), num_vertices=n)
        batch, report = legacy.mosp_changes(g, num_changes=10, seed=seed, safe_deletions=True)
        before = _reachable([[v for v, _ in row] for row in _rows(g)], 0)
        g.apply(batch)
        assert before <= _reachable([[v for v, _ in row] for row in _rows(g)], 0)


def test_report_is_a_frozen_dataclass_with_0_2_fields():
    fields = [f.name for f in dataclasses.fields(legacy.MospChangeReport)]
    assert fields == [
        "inserts",
        "reweights",
        "deletes",
        "requested_deletes",
        "safe_rounds",
        "safe",
        "centre",
        "local_hops",
        "region",
        "summary",
    ]
    _, report = legacy.mosp_changes(dyng.Graph.from_edges([0, 1], [1, 0], [1, 1]), num_changes=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.inserts = 3


def test_generators_is_a_public_module():
    assert "generators" in dyng.__all__
    assert dyng.generators.legacy is legacy
    assert legacy.__all__ == ["MospChangeReport", "mosp_changes", "cycle_enum_batch"]


_RING = dict(src=[0, 1, 2, 3], dst=[1, 2, 3, 0])


@pytest.mark.parametrize(
    "args, error, words",
    [
        ({"num_changes": -1}, dyng.InvalidArgumentError, "num_changes=-1"),
        (
            {"num_changes": 2, "weight_min": 5, "weight_max": 4},
            dyng.InvalidArgumentError,
            "weight_min=5 exceeds weight_max=4",
        ),
        ({"num_changes": 2, "weight_min": 0}, dyng.InvalidArgumentError, "weight_min=0"),
        ({"num_changes": 2, "mode": "sideways"}, dyng.InvalidArgumentError, "mode='sideways'"),
        ({"num_changes": 2, "source": 4}, dyng.InvalidArgumentError, "source=4"),
        ({"num_changes": 2.0}, dyng.InvalidArgumentError, "num_changes=2.0"),
        ({"num_changes": 2, "safe_deletions": 1}, dyng.InvalidArgumentError, "safe_deletions=1"),
        ({"num_changes": 2, "seed": -1}, TypeError, "seed=-1"),
        ({"num_changes": 2, "insertion_percentage": None}, TypeError, "insertion_percentage=None"),
    ],
)
def test_mosp_changes_refuses_bad_arguments(args, error, words):
    g = dyng.Graph.from_edges(_RING["src"], _RING["dst"], [3, 4, 5, 6])
    with pytest.raises(error, match=words.replace("(", r"\(")) as info:
        legacy.mosp_changes(g, **args)
    assert str(info.value).startswith("mosp_changes(): ") and "; " in str(info.value)


def test_mosp_changes_needs_weights():
    with pytest.raises(dyng.NotSupportedError, match="unweighted"):
        legacy.mosp_changes(dyng.Graph.from_edges(_RING["src"], _RING["dst"]), num_changes=1)
    with pytest.raises(TypeError, match="dyng.Graph"):
        legacy.mosp_changes([0, 1], num_changes=1)


@pytest.mark.parametrize(
    "args, words",
    [
        ({"num_deletions": -1}, "num_deletions=-1"),
        ({"num_insertions": -2}, "num_insertions=-2"),
        ({"num_deletions": 5}, "num_deletions=5 but only 4 stored edges"),
        ({"num_insertions": 9}, "num_insertions=9"),
        ({"num_deletions": True}, "num_deletions=True"),
    ],
)
def test_cycle_enum_batch_refuses_bad_arguments(args, words):
    g = dyng.Graph.from_edges(_RING["src"], _RING["dst"])
    with pytest.raises(dyng.InvalidArgumentError, match=words) as info:
        legacy.cycle_enum_batch(g, **args)
    assert str(info.value).startswith("cycle_enum_batch(): ") and "; " in str(info.value)


def test_cycle_enum_batch_refuses_unsorted_rows():
    g = dyng.Graph.from_edges([0, 0], [2, 1], properties="mosp_compatible", num_vertices=3)
    with pytest.raises(dyng.InvalidArgumentError, match="row 0"):
        legacy.cycle_enum_batch(g, num_insertions=1)
    assert legacy.cycle_enum_batch(g).empty  # nothing asked, nothing read
