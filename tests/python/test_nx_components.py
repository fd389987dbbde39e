"""NetworkX's components functions through dyng: the same sets in the same order, the same
counts, booleans and errors as NetworkX, on random graphs of every class (self-loops, isolated
nodes, labels of mixed hashable types); and on ``dyng.nx`` graphs, components that follow every
edit, repaired by ``dyng.update`` rather than computed again."""

import random
from collections.abc import Iterator

import pytest
from _nx_setup import convert_every_call, nx  # noqa: F401 (an autouse fixture)

import dyng.nx  # noqa: E402

LABEL_KINDS = (
    lambda i: i,
    lambda i: f"n{i}",
    lambda i: (i, "t"),
    lambda i: frozenset({i}),
    lambda i: i + 0.5,
)
UNDIRECTED = (nx.connected_components, nx.number_connected_components, nx.is_connected)
DIRECTED = (
    nx.weakly_connected_components,
    nx.number_weakly_connected_components,
    nx.is_weakly_connected,
    nx.number_strongly_connected_components,
    nx.is_strongly_connected,
)


def random_graph(cls, seed, n=40, m=45):
    """Sparse enough for many components; self-loops and isolated nodes come by chance and are
    added for sure."""
    rng = random.Random(seed)
    labels = [LABEL_KINDS[i % len(LABEL_KINDS)](i) for i in range(n)]
    rng.shuffle(labels)
    G = cls()
    G.add_nodes_from(labels)
    for _ in range(m):
        G.add_edge(rng.choice(labels), rng.choice(labels))
    G.add_edge(labels[0], labels[0])
    G.add_node("isolated")
    return G, labels, rng


def answer(function, G, *args, backend=None):
    """The value or the exception (type, message) of one call; generators as lists."""
    try:
        value = function(G, *args) if backend is None else function(G, *args, backend=backend)
        return "value", list(value) if isinstance(value, Iterator) else value
    except (nx.NetworkXException, KeyError, TypeError) as error:
        return type(error), str(error)


def as_set(components):
    return {frozenset(c) for c in components}


def check_strong(G, components):
    """NetworkX's SCCs (as sets), each after every component it reaches."""
    assert as_set(components) == as_set(nx.strongly_connected_components.orig_func(G))
    position = {node: i for i, c in enumerate(components) for node in c}
    assert all(position[u] >= position[v] for u, v in G.edges())


@pytest.mark.parametrize("cls", (nx.Graph, nx.MultiGraph), ids=lambda c: c.__name__)
@pytest.mark.parametrize("seed", range(6))
def test_undirected_answers_equal_networkx(cls, seed):
    G, labels, rng = random_graph(cls, seed)
    for function in UNDIRECTED:
        assert answer(function, G, backend="dyng") == answer(function, G)
    for node in rng.sample(labels, 5) + ["isolated"]:
        assert answer(nx.node_connected_component, G, node, backend="dyng") == answer(
            nx.node_connected_component, G, node
        )
    components = list(nx.connected_components(G, backend="dyng"))
    assert all(type(c) is set for c in components) and len(components) > 2


@pytest.mark.parametrize("cls", (nx.DiGraph, nx.MultiDiGraph), ids=lambda c: c.__name__)
@pytest.mark.parametrize("seed", range(6))
def test_directed_answers_equal_networkx(cls, seed):
    G, _, _ = random_graph(cls, seed, m=70)
    for function in DIRECTED:
        assert answer(function, G, backend="dyng") == answer(function, G)
    components = list(nx.strongly_connected_components(G, backend="dyng"))
    assert max(map(len, components)) > 1 and all(type(c) is set for c in components)
    check_strong(G, components)


@pytest.mark.parametrize("seed", range(4))
def test_strong_components_of_a_dag_come_in_networkx_order(seed):
    rng = random.Random(seed)
    G = nx.DiGraph()
    G.add_nodes_from(rng.sample(range(30), 30))
    G.add_edges_from((u, v) for u in range(30) for v in range(u + 1, 30) if rng.random() < 0.1)
    assert answer(nx.strongly_connected_components, G, backend="dyng") == answer(
        nx.strongly_connected_components, G
    )


def test_connected_graphs_and_the_null_graph():
    ring = nx.cycle_graph(["a", "b", (1, 2)], create_using=nx.DiGraph)
    for function in (nx.is_weakly_connected, nx.is_strongly_connected):
        assert function(ring, backend="dyng") is True
        assert answer(function, nx.DiGraph(), backend="dyng") == answer(function, nx.DiGraph())
        assert answer(function, nx.DiGraph(), backend="dyng")[0] is nx.NetworkXPointlessConcept
    assert nx.is_connected(ring.to_undirected(), backend="dyng") is True
    assert answer(nx.is_connected, nx.Graph(), backend="dyng")[0] is nx.NetworkXPointlessConcept
    assert list(nx.strongly_connected_components(nx.DiGraph(), backend="dyng")) == []
    assert nx.number_connected_components(nx.Graph(), backend="dyng") == 0


def test_misuse_raises_what_networkx_raises():
    G, H = nx.DiGraph([(0, 1)]), nx.Graph([(0, 1)])
    misuse = (
        [(function, G) for function in UNDIRECTED]
        + [(function, H) for function in DIRECTED]
        + [(nx.strongly_connected_components, H)]
    )
    for function, graph in misuse:
        assert answer(function, graph, backend="dyng") == answer(function, graph)
        assert answer(function, graph, backend="dyng")[0] is nx.NetworkXNotImplemented
    assert answer(nx.node_connected_component, G, 0, backend="dyng")[0] is nx.NetworkXNotImplemented
    for node in ("absent", [1]):
        assert answer(nx.node_connected_component, H, node, backend="dyng") == answer(
            nx.node_connected_component, H, node
        )
    assert answer(nx.node_connected_component, H, "absent", backend="dyng")[0] is KeyError


def test_the_generators_are_lazy_and_the_answers_plain_python():
    G = nx.Graph([(0, 1), (2, 3)])
    components = nx.connected_components(G, backend="dyng")
    assert not isinstance(components, list) and next(components) == {0, 1}
    assert type(nx.number_connected_components(G, backend="dyng")) is int
    assert type(nx.is_connected(G, backend="dyng")) is bool


def check_live(G):
    """Every components function on the dyng.nx graph equals NetworkX's code on the same graph
    object, and ran on dyng."""
    before = G.dyng_stats.networkx_calls
    functions = DIRECTED if G.is_directed() else UNDIRECTED
    for function in functions:
        assert answer(function, G) == answer(function.orig_func, G), function.__name__
    if G.is_directed():
        check_strong(G, list(nx.strongly_connected_components(G)))
    else:
        for node in list(G)[:3]:
            assert nx.node_connected_component(G, node) == nx.node_connected_component.orig_func(
                G, node
            )
    assert G.dyng_stats.networkx_calls == before, G.dyng_stats.last_networkx_reason


def edit(G, rng, labels):
    """One edit through one of the mutating methods."""
    edges = list(G.edges())
    route = rng.randrange(6)
    if route == 0 and edges:
        G.remove_edge(*rng.choice(edges))
    elif route == 1 and edges:
        G.remove_edges_from(rng.sample(edges, min(3, len(edges))))
    elif route == 2 and len(G):
        G.remove_node(rng.choice(list(G)))
    elif route == 3:
        G.add_node(rng.choice(labels + ["new", ("new", 1)]))
    elif route == 4:
        G.add_edges_from((rng.choice(labels), rng.choice(labels)) for _ in range(3))
    else:
        G.add_edge(rng.choice(labels), rng.choice(labels))


@pytest.mark.parametrize("cls", (dyng.nx.DiGraph, dyng.nx.Graph), ids=lambda c: c.__name__)
@pytest.mark.parametrize("seed", range(4))
def test_a_dyng_nx_graph_keeps_its_components_current(cls, seed):
    G, labels, rng = random_graph(cls, seed, n=30, m=35)
    check_live(G)
    computed = G.dyng_stats.computes
    assert computed == (2 if G.is_directed() else 1)  # weak (and strong) labels, once each
    for _ in range(20):
        for _ in range(rng.randint(1, 3)):
            edit(G, rng, labels)
        check_live(G)
    stats = G.dyng_stats
    assert stats.computes == computed
    assert stats.updates >= computed * 15 and stats.batches >= 15


@pytest.mark.parametrize("cls", (dyng.nx.DiGraph, dyng.nx.Graph), ids=lambda c: c.__name__)
def test_edits_of_a_large_graph_are_repaired_in_place(cls):
    # Large enough that dyng's update policy repairs rather than recomputes.
    rng = random.Random(7)
    G = cls((rng.randrange(3000), rng.randrange(3000)) for _ in range(6000))
    count = (
        nx.number_weakly_connected_components if G.is_directed() else nx.number_connected_components
    )
    count(G)
    for _ in range(5):
        G.remove_edge(*rng.choice(list(G.edges())))
        G.add_edge(rng.randrange(3000), rng.randrange(3000))
        assert count(G) == count.orig_func(G)
    stats = G.dyng_stats
    assert (stats.computes, stats.updates) == (1, 5)
    assert stats.incremental >= 4, stats


def test_should_run_keeps_plain_graphs_in_networkx_except_to_count_strong_components():
    from dyng.nx._checks import min_edges

    should_run = dyng.nx.BackendInterface.should_run
    large = nx.gnm_random_graph(2000, min_edges(), directed=True, seed=1)
    assert should_run("number_strongly_connected_components", (large,), {}) is True
    for name in (
        "weakly_connected_components",
        "strongly_connected_components",
        "is_strongly_connected",
    ):
        assert "components search costs less" in should_run(name, (large,), {}), name
    small = nx.path_graph(50, create_using=nx.DiGraph)
    assert "min_edges" in should_run("number_strongly_connected_components", (small,), {})
    assert should_run("connected_components", (dyng.nx.Graph(small),), {}) is True


@pytest.mark.gpu
@pytest.mark.parametrize("cls", (dyng.nx.DiGraph, dyng.nx.Graph), ids=lambda c: c.__name__)
def test_components_with_the_gpu_as_the_default_backend_equal_networkx(cls):
    """The default resources are then the GPU: the converted graph and the dyng.nx graph's copy
    live there, and components (on the GPU too) must answer and follow edits."""
    assert dyng.get_default_resources().backend == "cuda"
    plain = nx.DiGraph if cls is dyng.nx.DiGraph else nx.Graph
    G, labels, rng = random_graph(plain, 3, m=60)
    functions = DIRECTED if G.is_directed() else UNDIRECTED
    for function in functions:
        assert answer(function, G, backend="dyng") == answer(function, G), function.__name__
    live = cls(G)
    nx.single_source_shortest_path_length(live, labels[0])  # a GPU result on the same copy
    for _ in range(5):
        edit(live, rng, labels)
        check_live(live)


def test_views_whose_rows_count_more_than_they_yield():
    # A multigraph's edge_subgraph: len() of a row counts neighbours without kept edges.
    G = nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 3), (3, 0)])
    view = G.edge_subgraph([(0, 1, 0), (2, 3, 0)])
    for function in UNDIRECTED:
        assert answer(function, view, backend="dyng") == answer(function, view)
    assert nx.single_source_shortest_path_length(view, 0, backend="dyng") == {0: 0, 1: 1}
