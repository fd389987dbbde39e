"""NetworkX's pagerank through dyng: the same nodes in the same order, ranks within the issue's
bound ``2 * n * tol / (1 - alpha)`` in L1 of NetworkX's own, on random graphs (directed and
undirected, weighted and not, self-loops, dangling and isolated nodes, labels of mixed hashable
types), with personalization, dangling and nstart dicts (partial, with keys that are not nodes);
NetworkX's errors when max_iter runs out and for a personalization without weight; reasons for
what dyng declines; and on ``dyng.nx`` graphs, ranks that follow every edit, repaired by
``dyng.update``, one kept result per vectors."""

import random

import pytest
from _nx_setup import convert_every_call, nx  # noqa: F401 (an autouse fixture)

import dyng.nx  # noqa: E402
import dyng.nx._live  # noqa: E402

LABEL_KINDS = (
    lambda i: i,
    lambda i: f"n{i}",
    lambda i: (i, "t"),
    lambda i: frozenset({i}),
    lambda i: i + 0.5,
)


def random_graph(cls, seed, n=40, m=70, weighted=False):
    """Self-loops, dangling and isolated nodes added for sure; integer weights in [1, 5] on most
    edges when `weighted` (the others weigh NetworkX's default 1)."""
    rng = random.Random(seed)
    labels = [LABEL_KINDS[i % len(LABEL_KINDS)](i) for i in range(n)]
    rng.shuffle(labels)
    G = cls()
    G.add_nodes_from(labels)
    for _ in range(m):
        data = {"weight": rng.randint(1, 5)} if weighted and rng.random() < 0.8 else {}
        G.add_edge(rng.choice(labels[1:]), rng.choice(labels[1:]), **data)
    G.add_edge(labels[1], labels[1])
    G.add_edge(labels[2], labels[0])  # labels[0] has no out-edges in a directed graph
    G.add_node("isolated")
    return G, labels, rng


def check_close(ranks, expected, alpha=0.85, tol=1e-6):
    assert list(ranks) == list(expected)
    assert all(type(value) is float for value in ranks.values())
    l1 = sum(abs(ranks[node] - expected[node]) for node in expected)
    assert l1 <= 2 * len(expected) * tol / (1 - alpha), l1
    assert abs(sum(ranks.values()) - 1) < 1e-9


@pytest.mark.parametrize("cls", (nx.DiGraph, nx.Graph), ids=lambda c: c.__name__)
@pytest.mark.parametrize("weighted", (False, True), ids=("unweighted", "weighted"))
@pytest.mark.parametrize("seed", range(4))
def test_ranks_within_the_bound_of_networkx(cls, weighted, seed):
    G, _, rng = random_graph(cls, seed, weighted=weighted)
    alpha = rng.choice((0.85, 0.5, 0.95))
    tol = rng.choice((1e-6, 1e-8, 1e-4))
    for weight in ("weight", None):
        ranks = nx.pagerank(G, alpha=alpha, tol=tol, weight=weight, backend="dyng")
        check_close(
            ranks, nx.pagerank.orig_func(G, alpha=alpha, tol=tol, weight=weight), alpha, tol
        )


def test_views_rank_their_own_nodes():
    G, labels, _ = random_graph(nx.DiGraph, 5, weighted=True)
    views = (
        G.subgraph(labels[:25]),
        G.edge_subgraph(list(G.edges())[:30]),
        G.reverse(),
        nx.subgraph_view(G, filter_edge=lambda u, v: u != v),
    )
    for view in views:
        check_close(nx.pagerank(view, backend="dyng"), nx.pagerank.orig_func(view))


def test_should_run_sends_plain_graphs_of_any_size():
    should_run = dyng.nx.BackendInterface.should_run
    assert should_run("pagerank", (nx.DiGraph([(0, 1)]),), {}) is True


def test_running_out_of_iterations_raises_what_networkx_raises():
    G = nx.DiGraph(nx.gnm_random_graph(50, 200, directed=True, seed=3))
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank.orig_func(G, max_iter=2)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(G, max_iter=2, backend="dyng")
    assert nx.pagerank(nx.DiGraph(), backend="dyng") == {}


def random_vectors(labels, rng):
    """personalization, dangling and nstart dicts naming some nodes (a few with 0) and a key
    that is no node."""

    def one():
        named = rng.sample(labels, len(labels) // 3)
        vector = {node: rng.choice((0, 1, 2.5, 7)) for node in named}
        vector[named[0]] = 4
        vector["not a node"] = 100
        return vector

    return one(), one(), one()


@pytest.mark.parametrize("cls", (nx.DiGraph, nx.Graph), ids=lambda c: c.__name__)
@pytest.mark.parametrize("seed", range(3))
def test_vectors_within_the_bound_of_networkx(cls, seed):
    G, labels, rng = random_graph(cls, seed, weighted=True)
    personalization, dangling, nstart = random_vectors(labels, rng)
    cases = (
        {"personalization": personalization},
        {"dangling": dangling},
        {"personalization": personalization, "dangling": dangling, "nstart": nstart},
    )
    for arguments in cases:
        assert dyng.nx.BackendInterface.can_run("pagerank", (G,), arguments) is True
        check_close(
            nx.pagerank(G, backend="dyng", **arguments), nx.pagerank.orig_func(G, **arguments)
        )


def test_nstart_is_where_the_iteration_starts():
    G = nx.DiGraph(nx.gnm_random_graph(60, 240, directed=True, seed=4))
    exact = nx.pagerank.orig_func(G, tol=1e-12, max_iter=1000)
    # From the answer, two iterations converge; from the uniform vector they would not.
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(G, max_iter=2, backend="dyng")
    check_close(
        nx.pagerank(G, max_iter=2, nstart=exact, backend="dyng"),
        nx.pagerank.orig_func(G, max_iter=2, nstart=exact),
    )


def test_a_personalization_without_weight_raises_what_networkx_raises():
    G = nx.complete_graph(4)
    for personalization in ({0: 0, 1: 0, 2: 0, 3: 0}, {"elsewhere": 1}, {}):
        with pytest.raises(ZeroDivisionError):
            nx.pagerank.orig_func(G, personalization=personalization)
        assert (
            dyng.nx.BackendInterface.can_run("pagerank", (G,), {"personalization": personalization})
            is True
        )
        with pytest.raises(ZeroDivisionError):
            nx.pagerank(G, personalization=personalization, backend="dyng")


@pytest.mark.parametrize(
    "arguments, reason",
    [
        ({"personalization": [1, 0, 0]}, "personalization is a list, not a dict"),
        ({"personalization": {0: -1, 1: 2}}, "personalization[0] is -1"),
        ({"dangling": {1: float("nan")}}, "dangling[1] is nan"),
        ({"nstart": {0: "x"}}, "nstart[0] is 'x'"),
        ({"dangling": {0: 0, 7: 1}}, "dangling gives the graph's nodes no weight"),
        ({"nstart": {}}, "nstart gives the graph's nodes no weight"),
        ({"alpha": 1.0}, "alpha=1.0"),
        ({"max_iter": 0}, "max_iter=0"),
        ({"tol": 0}, "tol=0"),
    ],
)
def test_can_run_declines_what_dyng_cannot_honour_with_a_reason(arguments, reason):
    G = nx.DiGraph([(0, 1), (1, 2)])
    answer = dyng.nx.BackendInterface.can_run("pagerank", (G,), arguments)
    assert isinstance(answer, str) and reason in answer


def test_weights_dyng_cannot_take_and_multigraphs_are_declined():
    can_run = dyng.nx.BackendInterface.can_run
    G = nx.DiGraph([(0, 1, {"weight": 0.5}), (1, 2)])
    assert "not an integer" in can_run("pagerank", (G,), {})
    assert can_run("pagerank", (G,), {"weight": None}) is True
    assert "adds up parallel edges" in can_run("pagerank", (nx.MultiDiGraph([(0, 1)]),), {})
    hidden = nx.DiGraph([(0, 1, {"weight": None}), (1, 2)])
    assert "weight=None" in can_run("pagerank", (hidden,), {})
    assert can_run("pagerank", (hidden,), {"weight": None}) is True
    assert can_run("single_source_dijkstra", (hidden, 0), {}) is True


def test_a_dyng_nx_graph_runs_what_dyng_declines_in_networkx():
    # (NetworkX's pagerank then calls to_scipy_sparse_array, whose reason is the last one.)
    G = dyng.nx.DiGraph([(0, 1, {"weight": 0.5}), (1, 2), (2, 0)])
    assert nx.pagerank(G) == nx.pagerank.orig_func(G)
    personalization = {0: -1, 1: 3, 2: 0}  # NetworkX takes negative weights as they are
    assert nx.pagerank(G, weight=None, personalization=personalization) == nx.pagerank.orig_func(
        G, weight=None, personalization=personalization
    )
    assert G.dyng_stats.networkx_calls >= 2 and G.dyng_stats.computes == 0


def edit(G, rng, labels, routes=5):
    """One edit through one of the mutating methods (weights in [1, 5]); the last route, taken
    only when `routes` is 5, removes a node."""
    edges = list(G.edges())
    route = rng.randrange(routes)
    if route == 0 and edges:
        G.remove_edge(*rng.choice(edges))
    elif route == 1 and edges:
        G.remove_edges_from(rng.sample(edges, min(3, len(edges))))
    elif route == 2:
        G.add_weighted_edges_from(
            (rng.choice(labels), rng.choice(labels), rng.randint(1, 5)) for _ in range(3)
        )
    elif route == 3:
        G.add_edge(rng.choice(labels), rng.choice(labels), weight=rng.randint(1, 5))
    elif len(G) > 2:
        G.remove_node(rng.choice(list(G)))


@pytest.mark.parametrize("cls", (dyng.nx.DiGraph, dyng.nx.Graph), ids=lambda c: c.__name__)
@pytest.mark.parametrize("seed", range(3))
def test_a_dyng_nx_graph_keeps_its_ranks_current(cls, seed, monkeypatch):
    G, labels, rng = random_graph(cls, seed, n=30, m=60, weighted=True)
    G.remove_node("isolated")  # while every node has an edge, the kept results answer
    monkeypatch.setattr(dyng.nx._live, "snapshot_of", None)  # so no conversion answers
    for _ in range(15):
        for weight in ("weight", None):
            # NetworkX's own pagerank calls to_scipy_sparse_array, which runs in NetworkX.
            before = G.dyng_stats.networkx_calls
            ranks = nx.pagerank(G, weight=weight)
            assert G.dyng_stats.networkx_calls == before, G.dyng_stats.last_networkx_reason
            check_close(ranks, nx.pagerank.orig_func(G, weight=weight))
        for _ in range(rng.randint(1, 3)):
            edit(G, rng, labels, routes=4)
    assert G.dyng_stats.computes == 2 and G.dyng_stats.updates >= 20, G.dyng_stats


@pytest.mark.parametrize("cls", (dyng.nx.DiGraph, dyng.nx.Graph), ids=lambda c: c.__name__)
def test_added_and_removed_nodes_of_a_dyng_nx_graph_count_in_n(cls):
    G, labels, rng = random_graph(cls, 9, n=30, m=60, weighted=True)
    for _ in range(15):
        check_close(nx.pagerank(G), nx.pagerank.orig_func(G))
        G.add_node(("alone", rng.randrange(5)))
        edit(G, rng, labels)


@pytest.mark.parametrize("cls", (dyng.nx.DiGraph, dyng.nx.Graph), ids=lambda c: c.__name__)
def test_a_dyng_nx_graph_keeps_one_result_per_vectors(cls, monkeypatch):
    G, labels, rng = random_graph(cls, 11, n=30, m=60, weighted=True)
    G.remove_node("isolated")
    monkeypatch.setattr(dyng.nx._live, "snapshot_of", None)  # so no conversion answers
    personalization, dangling, nstart = random_vectors(labels, rng)
    cases = (
        {},
        {"personalization": personalization},
        {"dangling": dict(dangling)},
        {"personalization": personalization, "dangling": dangling, "nstart": nstart},
    )
    for _ in range(8):
        for arguments in cases:
            before = G.dyng_stats.networkx_calls
            ranks = nx.pagerank(G, **arguments)
            assert G.dyng_stats.networkx_calls == before, G.dyng_stats.last_networkx_reason
            check_close(ranks, nx.pagerank.orig_func(G, **arguments))
        for _ in range(rng.randint(1, 3)):
            edit(G, rng, labels, routes=4)
    # nstart picks where a first compute starts; the kept result answers whatever it is.
    assert G.dyng_stats.computes == 4 and G.dyng_stats.updates >= 20, G.dyng_stats
