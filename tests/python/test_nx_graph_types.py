"""dyng.nx.DiGraph and dyng.nx.Graph: NetworkX graphs whose cached dyng results follow every
edge change. After each round of changes (every mutating method, and weight changes through
the edge attribute dicts) a query equals NetworkX's own code run on the same graph object, and
the counters show that the cached result was repaired by an update, not computed again."""

import copy
import pickle
import random

import pytest
from _nx_setup import convert_every_call, nx  # noqa: F401 (an autouse fixture)

import dyng.nx  # noqa: E402

LABELS = [0, 1, 2, "a", "b", "c", (1, 2), (3, "x"), frozenset({7}), 2.5, "d", 9]


def networkx_answer(function, G, *args, **kwargs):
    """NetworkX's own implementation on the very same graph (same adjacency order)."""
    value = function.orig_func(G, *args, **kwargs)
    return list(value) if function is nx.bfs_layers else value


def as_ordered(value):
    if isinstance(value, dict):
        return [(key, as_ordered(item)) for key, item in value.items()]
    if isinstance(value, (list, tuple)):
        return [as_ordered(item) for item in value]
    return value


def on_dyng(G, function, *args):
    """`function` dispatched as a user calls it, checked to have run on dyng (NetworkX's own
    code on the graph would count in networkx_calls)."""
    before = G.dyng_stats.networkx_calls
    value = function(G, *args)
    value = list(value) if function is nx.bfs_layers else value
    assert G.dyng_stats.networkx_calls == before, G.dyng_stats.last_networkx_reason
    return value


def check_answers(G, source):
    """Every dispatched function dyng implements equals NetworkX on G, orders included where
    NetworkX's search fixes them."""
    for function in (
        nx.single_source_dijkstra,
        nx.dijkstra_predecessor_and_distance,
        nx.bfs_layers,
    ):
        assert as_ordered(on_dyng(G, function, source)) == as_ordered(
            networkx_answer(function, G, source)
        )
    for function in (nx.single_source_dijkstra_path_length, nx.single_source_shortest_path_length):
        assert on_dyng(G, function, source) == networkx_answer(function, G, source)
    if not G.is_directed():
        assert on_dyng(G, nx.transitivity) == networkx_answer(nx.transitivity, G)


def mutate(G, rng):
    """One round of changes, through every route that changes edges or their weights."""
    nodes = list(G)
    edges = list(G.edges())
    pick = rng.choice
    route = rng.randrange(11)
    if route == 0:
        G.add_edge(pick(LABELS), pick(LABELS), weight=rng.randint(1, 5))
    elif route == 1:
        G.add_edges_from(
            (pick(LABELS), pick(LABELS), {"weight": rng.randint(1, 5)}) for _ in range(3)
        )
    elif route == 2:
        G.add_weighted_edges_from([(pick(LABELS), pick(LABELS), rng.randint(1, 5))])
    elif route == 3 and edges:
        G.remove_edge(*pick(edges))
    elif route == 4 and edges:
        G.remove_edges_from(rng.sample(edges, min(2, len(edges))))
    elif route == 5 and edges:
        u, v = pick(edges)
        G[u][v]["weight"] = rng.randint(1, 5)
    elif route == 6 and edges:
        u, v = pick(edges)
        G.edges[u, v].update(weight=rng.randint(1, 5))
    elif route == 7 and edges:
        nx.set_edge_attributes(G, {pick(edges): rng.randint(1, 5)}, "weight")
    elif route == 8 and edges:
        u, v = pick(edges)
        G[u][v].pop("weight", None)  # NetworkX then reads weight 1
    elif route == 9 and nodes:
        G.remove_node(pick(nodes))
    else:
        G.add_edge(pick(LABELS), pick(LABELS))


@pytest.mark.parametrize("cls", (dyng.nx.DiGraph, dyng.nx.Graph), ids=lambda c: c.__name__)
@pytest.mark.parametrize("seed", range(6))
def test_queries_follow_random_changes(cls, seed):
    rng = random.Random(seed)
    G = cls()
    for _ in range(25):
        G.add_edge(rng.choice(LABELS), rng.choice(LABELS), weight=rng.randint(1, 5))
    source = rng.choice(list(G))
    G.add_edge(source, "anchor", weight=1)  # keeps the source in the graph
    check_answers(G, source)
    computed = G.dyng_stats.computes
    for _round in range(15):
        for _ in range(rng.randint(1, 4)):
            mutate(G, rng)
        if source not in G:
            G.add_edge(source, "anchor", weight=1)
        check_answers(G, source)
    stats = G.dyng_stats
    # The results of the first round were repaired, never computed again.
    assert stats.computes == computed
    assert stats.updates >= 15 and stats.batches >= 15


def test_a_weight_change_goes_through_update():
    G = dyng.nx.DiGraph()
    G.add_weighted_edges_from([("s", "a", 1), ("a", "t", 1), ("s", "t", 5)])
    assert nx.single_source_dijkstra_path_length(G, "s") == {"s": 0, "a": 1, "t": 2}
    assert (G.dyng_stats.computes, G.dyng_stats.updates) == (1, 0)
    G["a"]["t"]["weight"] = 7
    assert nx.single_source_dijkstra_path_length(G, "s") == {"s": 0, "a": 1, "t": 5}
    assert (G.dyng_stats.computes, G.dyng_stats.updates, G.dyng_stats.batches) == (1, 1, 1)
    assert nx.single_source_dijkstra_path_length(G, "s") == {"s": 0, "a": 1, "t": 5}
    assert G.dyng_stats.batches == 1  # nothing changed, nothing applied


def test_weights_dyng_cannot_take_run_networkx_until_they_are_fixed():
    G = dyng.nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 1), (1, 2, 1), (0, 2, 3)])
    nx.single_source_dijkstra_path_length(G, 0)
    G[0][1]["weight"] = 0.5
    assert nx.single_source_dijkstra_path_length(G, 0) == {0: 0, 1: 0.5, 2: 1.5}
    assert G.dyng_stats.networkx_calls == 1
    assert "not an integer" in G.dyng_stats.last_networkx_reason
    assert "(0, 1)" in G.dyng_stats.last_networkx_reason
    G[0][1]["weight"] = 2
    assert nx.single_source_dijkstra_path_length(G, 0) == {0: 0, 1: 2, 2: 3}
    assert G.dyng_stats.networkx_calls == 1
    assert G.dyng_stats.computes == 1  # the result was kept current meanwhile


def test_callable_weights_and_functions_dyng_lacks_run_networkx_on_the_graph():
    G = dyng.nx.DiGraph([(0, 1), (1, 2), (2, 0)])
    assert nx.single_source_dijkstra_path_length(G, 0, weight=lambda u, v, d: 2) == {
        0: 0,
        1: 2,
        2: 4,
    }
    # A chord makes the hub scores unique (on the bare 3-cycle every vector is one, and
    # ARPACK's random start picks any).
    G.add_edge(0, 2)
    assert nx.hits(G)[0] == pytest.approx(nx.hits(nx.DiGraph(G))[0])
    assert G.dyng_stats.networkx_calls >= 2
    assert nx.is_strongly_connected(G)


def test_transitivity_is_kept_current():
    G = dyng.nx.Graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
    assert nx.transitivity(G) == networkx_answer(nx.transitivity, G)
    G.add_edge("a", "d")
    assert nx.transitivity(G) == networkx_answer(nx.transitivity, G) == 0.75
    G.remove_edge("a", "b")
    assert nx.transitivity(G) == networkx_answer(nx.transitivity, G)
    assert (G.dyng_stats.computes, G.dyng_stats.updates) == (1, 2)


def test_every_edge_is_watched_however_the_graph_was_built():
    plain = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3})])
    built = [
        dyng.nx.DiGraph(plain),
        dyng.nx.DiGraph({0: {1: {"weight": 2}}, 1: {2: {}}}),
        dyng.nx.DiGraph([(0, 1), (1, 2)]),
        dyng.nx.DiGraph(plain).copy(),
        dyng.nx.Graph(plain),
        dyng.nx.DiGraph(plain).to_undirected(),
        dyng.nx.Graph(plain).to_directed(),
        dyng.nx.DiGraph(plain).reverse(),
    ]
    for G in built:
        assert isinstance(G, (dyng.nx.DiGraph, dyng.nx.Graph))
        assert all(
            type(d) is dyng.nx._journal.EdgeData and d.seq > 0 for _, _, d in G.edges(data=True)
        )
        nx.single_source_dijkstra_path_length(G, 0)
        u, v = next(iter(G.edges()))
        G[u][v]["weight"] = 9
        check_answers(G, 0)
        assert G.dyng_stats.updates == 1


def test_it_is_a_networkx_graph():
    G = dyng.nx.DiGraph([(0, 1)])
    assert isinstance(G, nx.DiGraph) and G.__networkx_backend__ == "dyng"
    assert isinstance(dyng.nx.Graph(), nx.Graph)
    assert isinstance(G.to_undirected(), dyng.nx.Graph)
    H = nx.relabel_nodes(G, {0: "zero"}, copy=False)
    assert H is G and list(nx.bfs_layers(G, "zero")) == [["zero"], [1]]


def test_views_are_answered_from_their_own_edges():
    G = dyng.nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": 1}), (0, 2, {"weight": 5})])
    nx.single_source_dijkstra_path_length(G, 0)
    view = G.subgraph([0, 2])
    assert nx.single_source_dijkstra_path_length(view, 0) == {0: 0, 2: 5}
    assert nx.single_source_dijkstra_path_length(G.reverse(copy=False), 2) == {2: 0, 1: 1, 0: 2}
    G.remove_edge(1, 2)
    assert nx.single_source_dijkstra_path_length(view, 0) == {0: 0, 2: 5}
    assert nx.single_source_dijkstra_path_length(G, 0) == {0: 0, 1: 1, 2: 5}
    assert G.dyng_stats.computes == 1


@pytest.mark.parametrize(
    "duplicate",
    [copy.deepcopy, lambda G: pickle.loads(pickle.dumps(G)), lambda G: G.copy()],
    ids=["deepcopy", "pickle", "copy"],
)
def test_copies_keep_their_own_results_current(duplicate):
    G = dyng.nx.Graph(
        [("a", "b", {"weight": 2}), ("b", "c", {"weight": 2}), ("a", "c", {"weight": 3})]
    )
    nx.single_source_dijkstra_path_length(G, "a")
    H = duplicate(G)
    H["a"]["c"]["weight"] = 9
    H.add_edge("c", "d", weight=1)
    check_answers(H, "a")
    check_answers(G, "a")
    assert nx.single_source_dijkstra_path_length(G, "a") == {"a": 0, "b": 2, "c": 3}
    assert "d" not in G


def test_clear_starts_afresh():
    G = dyng.nx.DiGraph([(0, 1), (1, 2)])
    assert nx.single_source_shortest_path_length(G, 0) == {0: 0, 1: 1, 2: 2}
    G.clear_edges()
    assert nx.single_source_shortest_path_length(G, 0) == {0: 0}
    G.clear()
    G.add_edges_from([("x", "y")])
    assert nx.single_source_shortest_path_length(G, "x") == {"x": 0, "y": 1}
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(G, 0)


def test_isolated_and_new_sources():
    G = dyng.nx.DiGraph([(0, 1)])
    nx.single_source_shortest_path_length(G, 0)
    G.add_node("lonely")
    assert nx.single_source_dijkstra_path_length(G, "lonely") == {"lonely": 0}
    assert list(nx.bfs_layers(G, "lonely")) == [["lonely"]]
    G.add_edge("lonely", 0)
    assert nx.single_source_shortest_path_length(G, "lonely") == {"lonely": 0, 0: 1, 1: 2}


def test_a_failed_update_drops_the_copy_and_the_next_call_rebuilds_it(monkeypatch):
    G = dyng.nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": 1})])
    nx.single_source_dijkstra_path_length(G, 0)
    G.add_edge(0, 2, weight=1)

    def broken(*args, **kwargs):
        raise MemoryError("simulated")

    monkeypatch.setattr(dyng, "update", broken)
    with pytest.raises(MemoryError):
        nx.single_source_dijkstra_path_length(G, 0)
    monkeypatch.undo()
    G.add_edge(2, 3, weight=4)
    assert nx.single_source_dijkstra_path_length(G, 0) == {0: 0, 1: 1, 2: 1, 3: 5}
    assert G.dyng_stats.computes == 2


def test_too_many_unusable_weights_drop_the_copy_until_the_graph_changes(monkeypatch):
    monkeypatch.setattr(dyng.nx._mirror, "MAX_BAD", 2)
    G = dyng.nx.DiGraph([(i, i + 1, {"weight": 0.5}) for i in range(5)])
    assert nx.single_source_dijkstra_path_length(G, 0)[5] == 2.5
    assert nx.single_source_dijkstra_path_length(G, 0)[5] == 2.5
    assert G.dyng_stats.networkx_calls == 2 and G.dyng_stats.computes == 0
    for u, v in G.edges:
        G[u][v]["weight"] = 1
    assert nx.single_source_dijkstra_path_length(G, 0)[5] == 5
    assert G.dyng_stats.networkx_calls == 2 and G.dyng_stats.computes == 1
