"""pagerank: NetworkX's answer and the NumPy oracle's within the convergence bound, updates within
2 * n * tol / (1 - alpha) of a fresh compute after adversarial batches (dangling vertices
appearing and disappearing, a hub losing all its out-edges, self-loops, vertex growth, weights),
the same bits on every host backend and team size, the options' refusals and the registry entry."""

import dataclasses

import networkx as nx
import numpy as np
import pytest

import dyng
from dyng import pagerank
from dyng.testing import oracles


def random_edges(n, m, seed):
    """About m random edges, no two between the same pair of vertices (either way), so that
    NetworkX's graphs and the oracle's model, which keep one edge per pair, hold the same."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    _, first = np.unique(np.minimum(src, dst) * n + np.maximum(src, dst), return_index=True)
    first.sort()
    return (src[first].astype(np.int32), dst[first].astype(np.int32),
            rng.integers(1, 9, len(first)).astype(np.int32))


def bound(n, options=pagerank.Options()):
    return 2 * n * options.tol / (1 - options.alpha)


def as_networkx(graph, weighted):
    src, dst, weights = graph.edges()
    g = nx.DiGraph() if graph.directed else nx.Graph()
    g.add_nodes_from(range(graph.num_vertices))
    for u, v, w in zip(src.tolist(), dst.tolist(), np.asarray(weights).reshape(len(src), -1)):
        g.add_edge(u, v, weight=int(w[0]) if weighted else 1)
    return g


def test_shapes():
    assert [f.name for f in dataclasses.fields(pagerank.Options)] == [
        "alpha", "tol", "max_iter", "weighted"]
    assert [f.name for f in dataclasses.fields(pagerank.Stats)][-3:] == [
        "vertices_touched", "frontier_size", "residual"]
    g = dyng.Graph.from_edges([0, 1], [1, 2])
    r = pagerank.compute(g)
    assert r.ranks.dtype == np.float64 and r.space == "host"
    assert r.stats.path == "compute" and r.stats.converged and r.iterations == r.stats.iterations
    assert r.residual < 3 * 1e-6 and r.stats.method == "pull_power_iteration"
    assert abs(float(r.ranks.to_numpy().sum()) - 1.0) < 1e-12
    assert "iterations=" in repr(r)


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_compute_matches_networkx_and_the_oracle(resources, directed, weighted):
    src, dst, w = random_edges(300, 900, 1)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=320, directed=directed,
                              resources=resources)
    r = pagerank.compute(g, weighted=weighted)
    ranks = r.ranks.to_numpy()
    expected = nx.pagerank(as_networkx(g, weighted), weight="weight")
    assert np.abs(ranks - np.array([expected[v] for v in range(320)])).sum() < bound(320)
    model = oracles.GraphModel(320, src.tolist(), dst.tolist(), w.tolist(), directed=directed)
    exact = np.array(oracles.pagerank_ranks(model, weighted=weighted))
    assert np.abs(ranks - exact).sum() < bound(320)


def adversarial_batches(n):
    """Dangling vertices appear (all out-edges of 0..9 deleted later) and disappear (edges out of
    the new vertices), a hub loses its out-edges, self-loops, growth by 5 vertices."""
    yield dyng.EdgeBatch(insert=([n, n + 1, n + 4], [0, n + 4, n + 4], [1, 2, 3]))
    yield dyng.EdgeBatch(insert=([3, 3, 7], [3, 9, 7], [5, 1, 2]))
    yield "hub"
    yield dyng.EdgeBatch(insert=([n + 2, n + 3, 0], [1, 2, n + 2], [1, 1, 1]))


@pytest.mark.parametrize("weighted", [False, True])
def test_update_stays_within_the_bound_of_a_fresh_compute(resources, weighted):
    n = 200
    src, dst, w = random_edges(n, 700, 2)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=n, resources=resources)
    r = pagerank.compute(g, weighted=weighted)
    for batch in adversarial_batches(n):
        if batch == "hub":
            s, d, _ = g.edges()
            hub = int(np.bincount(s).argmax())
            batch = dyng.EdgeBatch(delete=(s[s == hub], d[s == hub]))
        stats = pagerank.update(g, batch, r)
        fresh = pagerank.compute(g, weighted=weighted)
        assert stats.converged and r.residual < g.num_vertices * 1e-6
        diff = np.abs(r.ranks.to_numpy() - fresh.ranks.to_numpy()).sum()
        assert diff < bound(g.num_vertices), (batch, diff)
        assert abs(float(r.ranks.to_numpy().sum()) - 1.0) < 1e-9


def test_a_small_batch_iterates_on_a_frontier():
    src, dst, w = random_edges(2000, 8000, 3)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=2000)
    r = pagerank.compute(g)
    cold = r.stats.frontier_visits
    stats = pagerank.update(g, dyng.EdgeBatch(insert=([1], [2], [1])), r)
    assert stats.path == "incremental" and stats.method == "frontier_power_iteration"
    # Seeds: vertex 2 and 1's out-neighbours (2 among them), then 1 itself.
    assert 2 <= stats.frontier_size < 20
    assert stats.frontier_visits < cold / 2 and stats.converged


def test_every_host_backend_and_team_size_gives_the_same_bits():
    # Over the OpenMP threshold (100,000 stored edges), so the teams run.
    src, dst, w = random_edges(30_000, 150_000, 4)
    batch = dyng.EdgeBatch(insert=(src[:50], dst[::-1][:50], w[:50]), delete=(src[:20], dst[:20]))
    answers = []
    for res in [dyng.Resources.sequential()] + [dyng.Resources.openmp(t) for t in (1, 2, 3)]:
        g = dyng.Graph.from_edges(src, dst, w, num_vertices=30_000, resources=res)
        r = pagerank.compute(g, weighted=True)
        computed = r.ranks.to_numpy().copy()
        pagerank.update(g, batch, r)
        answers.append((computed, r.ranks.to_numpy().copy(), r.iterations))
    for computed, updated, iterations in answers[1:]:
        assert np.array_equal(computed, answers[0][0])
        assert np.array_equal(updated, answers[0][1]) and iterations == answers[0][2]


@pytest.mark.parametrize("fields, message", [
    ({"alpha": 1.0}, "alpha"), ({"alpha": -0.1}, "alpha"), ({"tol": 0}, "tol"),
    ({"max_iter": 0}, "max_iter"), ({"weighted": "yes"}, "weighted")])
def test_bad_options_are_refused(fields, message):
    with pytest.raises(dyng.InvalidArgumentError, match=message):
        pagerank.Options(**fields)


def test_graph_refusals():
    unweighted = dyng.Graph.from_edges([0], [1])
    with pytest.raises(dyng.InvalidArgumentError, match="no edge weights"):
        pagerank.compute(unweighted, weighted=True)
    negative = dyng.Graph.from_edges([0], [1], [-2])
    with pytest.raises(dyng.InvalidArgumentError, match="non-negative"):
        pagerank.compute(negative, weighted=True)
    with pytest.raises(dyng.InvalidArgumentError, match="store_transposed"):
        pagerank.compute(dyng.Graph.from_edges([0], [1], store_transposed=False))


def test_registry_entry():
    info = [a for a in dyng.algorithms() if a.name == "pagerank"][0]
    assert (info.family, info.determinism, info.backends) == ("fixed_point", "tolerance",
                                                             ("sequential", "openmp", "cuda"))
