"""pagerank: NetworkX's answer and the NumPy oracle's within the convergence bound, updates within
2 * n * tol / (1 - alpha) of a fresh compute after adversarial batches (dangling vertices
appearing and disappearing, a hub losing all its out-edges, self-loops, vertex growth, weights),
the same bits on every host backend and team size, the options' refusals and the registry entry;
personalization and dangling vectors (NetworkX's and the oracle's answers, updates, vertex growth
with a short vector, a hub's rank falling onto a concentrated dangling vector) and nstart;
Stats.affected of certified updates, and a clone's update giving the original's bits (it carries
the totals the update starts from)."""

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
    return (
        src[first].astype(np.int32),
        dst[first].astype(np.int32),
        rng.integers(1, 9, len(first)).astype(np.int32),
    )


DEFAULT_OPTIONS = pagerank.Options()


def bound(n, options=DEFAULT_OPTIONS):
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
        "alpha",
        "tol",
        "max_iter",
        "weighted",
        "personalization",
        "dangling",
    ]
    assert [f.name for f in dataclasses.fields(pagerank.Stats)][-4:] == [
        "vertices_touched",
        "frontier_size",
        "residual",
        "touched_per_iteration",
    ]
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
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=320, directed=directed, resources=resources)
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
    check_adversarial_updates(g, r, pagerank.Options(weighted=weighted))


def check_adversarial_updates(g, r, options):
    """Updates `r` through adversarial_batches (the "hub" batch strips the vertex of most
    out-edges): each converged, within the bound of a fresh compute, ranks summing to 1."""
    for batch in adversarial_batches(g.num_vertices):
        if batch == "hub":
            s, d, _ = g.edges()
            hub = int(np.bincount(s).argmax())
            batch = dyng.EdgeBatch(delete=(s[s == hub], d[s == hub]))
        stats = pagerank.update(g, batch, r)
        fresh = pagerank.compute(g, options=options)
        assert stats.converged and r.residual < g.num_vertices * 1e-6
        diff = np.abs(r.ranks.to_numpy() - fresh.ranks.to_numpy()).sum()
        assert diff < bound(g.num_vertices), (batch, diff)
        assert abs(float(r.ranks.to_numpy().sum()) - 1.0) < 1e-9


def random_vectors(n, seed):
    """A personalization dict naming about half of 0..n-1 (some with 0) and a dangling array
    shorter than n, heavy on a few vertices."""
    rng = np.random.default_rng(seed)
    named = rng.choice(n, n // 2, replace=False)
    personalization = {int(v): float(rng.integers(0, 5)) for v in named}
    personalization[int(named[0])] = 3.0
    dangling = np.zeros(n - 7)
    dangling[rng.choice(n - 7, 3, replace=False)] = [5.0, 1.0, 0.5]
    return personalization, dangling


def as_dict(vector):
    return {v: float(w) for v, w in enumerate(vector)}


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_vectors_match_networkx_and_the_oracle(directed, weighted):
    n = 320
    src, dst, w = random_edges(300, 900, 5)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=n, directed=directed)
    personalization, dangling = random_vectors(n, 6)
    for p, d in ((personalization, None), (personalization, dangling), (None, dangling)):
        ranks = pagerank.compute(
            g, weighted=weighted, personalization=p, dangling=d
        ).ranks.to_numpy()
        expected = nx.pagerank(
            as_networkx(g, weighted),
            weight="weight",
            personalization=p,
            dangling=None if d is None else as_dict(d),
        )
        assert np.abs(ranks - np.array([expected[v] for v in range(n)])).sum() < bound(n)
        model = oracles.GraphModel(n, src.tolist(), dst.tolist(), w.tolist(), directed=directed)
        exact = oracles.pagerank_ranks(model, weighted=weighted, personalization=p, dangling=d)
        assert np.abs(ranks - np.array(exact)).sum() < bound(n)


@pytest.mark.parametrize("weighted", [False, True])
def test_update_with_vectors_stays_within_the_bound(resources, weighted):
    n = 200
    src, dst, w = random_edges(n, 700, 7)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=n, resources=resources)
    personalization, dangling = random_vectors(n, 8)
    options = pagerank.Options(
        weighted=weighted, personalization=personalization, dangling=dangling
    )
    r = pagerank.compute(g, options=options)
    check_adversarial_updates(g, r, options)


def test_a_hub_falls_onto_a_concentrated_dangling_vector():
    # Hub 0 and 1..30 point at each other; when the hub loses its out-edges its rank steps to
    # vertex 31 only, which then holds most of the mass.
    spokes = np.arange(1, 31, dtype=np.int32)
    g = dyng.Graph.from_edges(
        np.concatenate((np.zeros(30, np.int32), spokes)),
        np.concatenate((spokes, np.zeros(30, np.int32))),
        num_vertices=32,
    )
    r = pagerank.compute(g, dangling={31: 1.0})
    assert r.ranks.to_numpy()[31] < 0.1
    stats = pagerank.update(g, dyng.EdgeBatch(delete=([0] * 30, spokes)), r)
    fresh = pagerank.compute(g, dangling={31: 1.0})
    assert stats.converged and r.ranks.to_numpy()[31] > 0.5
    # Seeds: the changed edges' heads 1..30, and 31, which the hub's dangling rank feeds.
    assert stats.frontier_size == 31
    assert np.abs(r.ranks.to_numpy() - fresh.ranks.to_numpy()).sum() < bound(32)


def test_vertex_growth_with_a_short_personalization_vector():
    g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0])
    r = pagerank.compute(g, personalization=[1.0, 1.0])
    # 3 is new and only gives (its teleport share is 0, so its rank stays 0); 4 receives.
    stats = pagerank.update(g, dyng.EdgeBatch(insert=([3, 2], [1, 4])), r)
    ranks = r.ranks.to_numpy()
    assert stats.converged and len(ranks) == 5 and ranks[3] == 0.0 and ranks[4] > 0
    model = oracles.GraphModel(5, [0, 1, 2, 3, 2], [1, 2, 0, 1, 4])
    exact = oracles.pagerank_ranks(model, personalization=[1.0, 1.0])
    assert np.abs(ranks - np.array(exact)).sum() < bound(5)


def test_the_definition_is_fixed_and_tol_is_not():
    src, dst, w = random_edges(300, 1000, 11)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=300)
    r = pagerank.compute(g, personalization={5: 1.0})
    for fields in ({"personalization": {5: 2.0, 6: 1.0}}, {"dangling": [0, 1]}, {"alpha": 0.9}):
        with pytest.raises(dyng.InvalidArgumentError, match="cannot change"):
            r.set_options(**fields)
    r.set_options(personalization={5: 1.0})  # the same vector: allowed
    r.set_options(tol=1e-9, max_iter=200)
    stats = pagerank.update(g, dyng.EdgeBatch(insert=([1], [2], [1])), r)
    fresh = pagerank.compute(g, options=r.options)
    assert stats.converged
    assert np.abs(r.ranks.to_numpy() - fresh.ranks.to_numpy()).sum() < bound(300, r.options)


def test_nstart_starts_the_iteration_there():
    src, dst, w = random_edges(500, 2000, 9)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=500)
    cold = pagerank.compute(g, personalization={3: 1.0})
    warm = pagerank.compute(g, personalization={3: 1.0}, nstart=cold.ranks.to_numpy())
    assert warm.iterations < cold.iterations and warm.stats.converged
    assert np.abs(warm.ranks.to_numpy() - cold.ranks.to_numpy()).sum() < bound(500)
    other = pagerank.compute(g, nstart={7: 2.0})
    assert np.abs(other.ranks.to_numpy() - pagerank.compute(g).ranks.to_numpy()).sum() < bound(500)
    with pytest.raises(dyng.InvalidArgumentError, match="nstart"):
        pagerank.compute(g, nstart=[-1.0, 2.0])
    with pytest.raises(dyng.InvalidArgumentError, match="nstart has 501 entries"):
        pagerank.compute(g, nstart=np.ones(501))


def test_option_vectors_are_read_only_float64_arrays():
    o = pagerank.Options(personalization={2: 1, 0: 3}, dangling=[1, 2])
    assert o.personalization.tolist() == [3.0, 0.0, 1.0] and o.dangling.dtype == np.float64
    assert not o.personalization.flags.writeable
    assert o == pagerank.Options(personalization=[3, 0, 1], dangling=np.array([1.0, 2.0]))
    assert o != pagerank.Options(personalization=[3, 0, 1])
    assert dataclasses.replace(o, alpha=0.5).personalization.tolist() == [3.0, 0.0, 1.0]


@pytest.mark.parametrize("field", ["personalization", "dangling"])
@pytest.mark.parametrize(
    "value, message",
    [
        ([1, -1], r"\[1\] is -1"),
        ([1, float("nan")], "non-negative finite"),
        ([0, 0], "sums to 0"),
        ({}, "sums to 0"),
        ([[1, 2]], "1-d"),
        ("ab", "sequence of numbers"),
        ({-1: 1}, "key -1"),
        ({"a": 1}, "key 'a'"),
        ({0: "x"}, "not a number"),
        ([1e308, 1e308], "finite"),
    ],
)
def test_bad_vectors_are_refused_naming_the_field(field, value, message):
    with pytest.raises(dyng.InvalidArgumentError, match=f"{field}.*{message}"):
        pagerank.Options(**{field: value})


def test_a_vector_longer_than_the_graph_is_refused():
    g = dyng.Graph.from_edges([0, 1], [1, 2])
    with pytest.raises(dyng.InvalidArgumentError, match="dangling has 4 entries"):
        pagerank.compute(g, dangling=[1, 1, 1, 1])


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


def test_a_batch_whose_first_round_reads_most_edges_iterates_fully_on_the_host():
    # Deleting 20,000 of ~150,000 edges lists heads whose in-edges alone pass 0.4 of an
    # iteration's reads (edges plus 20,000 vertices): the update runs full iterations from the
    # previous ranks instead of the frontier. One insertion afterwards, from a vertex that kept
    # out-edges, is a frontier again; so is any batch on a small graph (the floor of 2^16 reads).
    src, dst, w = random_edges(20000, 150000, 3)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=20000)
    r = pagerank.compute(g)
    stats = pagerank.update(g, dyng.EdgeBatch(delete=(src[:20000], dst[:20000])), r)
    assert stats.path == "recompute" and stats.method == "warm_power_iteration"
    assert stats.converged
    fresh = pagerank.compute(g).ranks.to_numpy()
    assert np.abs(r.ranks.to_numpy() - fresh).sum() < bound(20000)
    stats = pagerank.update(g, dyng.EdgeBatch(insert=([src[30000]], [dst[40000]], [1])), r)
    assert stats.path == "incremental" and stats.method == "frontier_power_iteration"
    small_src, small_dst, small_w = random_edges(2000, 8000, 3)
    small = dyng.Graph.from_edges(small_src, small_dst, small_w, num_vertices=2000)
    r = pagerank.compute(small)
    stats = pagerank.update(small, dyng.EdgeBatch(delete=(small_src[:1500], small_dst[:1500])), r)
    assert stats.path == "incremental"


def test_stats_count_the_vertices_of_every_iteration():
    src, dst, w = random_edges(500, 2000, 5)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=500)
    r = pagerank.compute(g, tol=1e-9)
    assert r.stats.touched_per_iteration == (500,) * r.stats.iterations
    stats = pagerank.update(g, dyng.EdgeBatch(insert=([1, 7], [2, 9], [1, 1])), r)
    touched = stats.touched_per_iteration
    assert isinstance(touched, tuple) and len(touched) == stats.iterations
    assert sum(touched) == stats.vertices_touched and touched[0] == stats.frontier_size
    assert all(0 < count <= 500 for count in touched)


def test_an_update_within_the_test_skips_the_full_iterations():
    # n * tol = 2: the compute's residual and a small batch's change stay below it, so the
    # frontier's bound certifies the test; one more full iteration (NumPy) checks it.
    src, dst, w = random_edges(2000, 8000, 4)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=2000)
    r = pagerank.compute(g, tol=1e-3)
    stats = pagerank.update(g, dyng.EdgeBatch(insert=([1, 5], [2, 6], [1, 1])), r)
    assert stats.path == "incremental" and stats.converged
    assert all(count < 2000 for count in stats.touched_per_iteration)
    got = r.ranks.to_numpy()
    s, d, _ = g.edges()
    moved = np.abs(oracles.pagerank_step(2000, s, d, got) - got).sum()
    assert moved <= r.residual < 2000 * 1e-3 and abs(got.sum() - 1) < 1e-12
    fresh = pagerank.compute(g, tol=1e-3).ranks.to_numpy()
    assert np.abs(got - fresh).sum() < bound(2000, pagerank.Options(tol=1e-3))


@pytest.mark.parametrize("vectors", [False, True], ids=("uniform", "vectors"))
def test_affected_counts_the_ranks_an_update_changed(vectors):
    # A certified update scales the ranks back to a sum of 1, which moves nearly all of them; an
    # empty batch after it starts from a sum of exactly 1 and changes nothing.
    src, dst, w = random_edges(2000, 8000, 4)
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=2000)
    p, d = random_vectors(2000, 3) if vectors else (None, None)
    r = pagerank.compute(g, tol=1e-3, personalization=p, dangling=d)
    for k in range(4):
        before = r.ranks.to_numpy().copy()
        batch = (
            dyng.EdgeBatch(
                insert=([1 + k, 5], [2, 6 + k], [1, 1]),
                delete=(src[k * 3 : k * 3 + 3], dst[k * 3 : k * 3 + 3]),
            )
            if k < 3
            else dyng.EdgeBatch()
        )
        stats = pagerank.update(g, batch, r)
        assert stats.path == "incremental" and max(stats.touched_per_iteration, default=0) < 2000
        after = r.ranks.to_numpy()
        assert np.count_nonzero(after != before) == stats.affected
        assert abs(after.sum() - 1) < 1e-12
    assert stats.affected == 0 and np.array_equal(after, before)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("vectors", [False, True], ids=("uniform", "vectors"))
def test_every_host_backend_and_team_size_gives_the_same_bits(vectors, weighted):
    # Over the OpenMP threshold (100,000 stored edges), so the teams run. The second batch
    # starts from the dangling mass and sum the first one kept (unweighted); its deletions leave
    # some vertices without out-edges and its insertions give some of them one back.
    src, dst, w = random_edges(30_000, 150_000, 4)
    batches = [
        dyng.EdgeBatch(insert=(src[:50], dst[::-1][:50], w[:50]), delete=(src[:20], dst[:20])),
        dyng.EdgeBatch(
            insert=(np.arange(29_000, 29_040), src[:40], w[:40]),
            delete=(src[100:400], dst[100:400]),
        ),
    ]
    p, d = random_vectors(30_000, 10) if vectors else (None, None)
    answers = []
    for res in [dyng.Resources.sequential()] + [dyng.Resources.openmp(t) for t in (1, 2, 3)]:
        g = dyng.Graph.from_edges(src, dst, w, num_vertices=30_000, resources=res)
        r = pagerank.compute(g, weighted=weighted, personalization=p, dangling=d)
        answers.append([r.ranks.to_numpy().copy()])
        for batch in batches:
            pagerank.update(g, batch, r)
            answers[-1] += [r.ranks.to_numpy().copy(), r.iterations]
    for answer in answers[1:]:
        assert all(np.array_equal(a, b) for a, b in zip(answer, answers[0]))


def test_an_update_of_a_clone_gives_the_bits_of_the_original_s():
    # A clone carries the dangling mass and sum its next update starts from (the sums over every
    # vertex would give other bits).
    src, dst, _ = random_edges(20_000, 60_000, 8)
    g = dyng.Graph.from_edges(src, dst, num_vertices=20_000)
    r = pagerank.compute(g, tol=1e-3)
    batches = [
        dyng.EdgeBatch(
            insert=(np.arange(k, 2000, 7), np.arange(k + 1, 2001, 7)),
            delete=(src[k * 50 : k * 50 + 40], dst[k * 50 : k * 50 + 40]),
        )
        for k in range(4)
    ]
    for batch in batches[:2]:
        pagerank.update(g, batch, r)
    copy = r.clone()
    for batch in batches[2:]:
        dyng.update(g, batch, r, copy)
        assert r.stats.path == "incremental"
        assert np.array_equal(r.ranks.to_numpy(), copy.ranks.to_numpy())


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"alpha": 1.0}, "alpha"),
        ({"alpha": -0.1}, "alpha"),
        ({"tol": 0}, "tol"),
        ({"max_iter": 0}, "max_iter"),
        ({"weighted": "yes"}, "weighted"),
    ],
)
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
    assert (info.family, info.determinism, info.backends) == (
        "fixed_point",
        "tolerance",
        ("sequential", "openmp", "cuda"),
    )
