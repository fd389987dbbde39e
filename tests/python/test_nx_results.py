"""The dyng NetworkX backend gives NetworkX's own answers: values, types and the orders NetworkX
documents or that its searches produce (paths, predecessor lists, BFS layers, key order), on
random graphs of every NetworkX class with node labels of mixed hashable types, ties in the
weights, hidden edges, missing weights, self-loops and isolated nodes."""

import random

import pytest
from _nx_setup import convert_every_call, nx  # noqa: F401 (an autouse fixture)

CLASSES = (nx.DiGraph, nx.Graph, nx.MultiDiGraph, nx.MultiGraph)
LABEL_KINDS = (
    lambda i: i,
    lambda i: f"n{i}",
    lambda i: (i, "t"),
    lambda i: frozenset({i}),
    lambda i: i + 0.5,
)


def random_graph(cls, seed, n=40, m=120, max_weight=4):
    """A graph of `cls` with labels of mixed types; weights 1..max_weight (many ties), some
    edges without the attribute (weight 1 in NetworkX), some hidden by weight=None."""
    rng = random.Random(seed)
    labels = [LABEL_KINDS[i % len(LABEL_KINDS)](i) for i in range(n)]
    rng.shuffle(labels)
    G = cls()
    G.add_nodes_from(labels)
    for _ in range(m):
        u, v = rng.choice(labels), rng.choice(labels)
        roll = rng.random()
        if roll < 0.1:
            G.add_edge(u, v)
        elif roll < 0.13 and not G.is_multigraph():
            G.add_edge(u, v, weight=None)
        else:
            G.add_edge(u, v, weight=rng.randint(1, max_weight), cost=rng.randint(1, 9))
    return G, labels, rng


def both(function, *args, **kwargs):
    """(NetworkX's answer, dyng's answer) of one call; an exception is an answer too."""
    answers = []
    for backend in ("networkx", "dyng"):
        try:
            value = function(*args, backend=backend, **kwargs)
            if function is nx.bfs_layers:
                value = list(value)
            answers.append(("value", value))
        except nx.NetworkXException as error:
            answers.append((type(error), str(error)))
    return answers


def in_order(value):
    """A result with every dict turned into its item list, so == also compares key order."""
    if isinstance(value, dict):
        return [(key, in_order(item)) for key, item in value.items()]
    if isinstance(value, (list, tuple)):
        return [in_order(item) for item in value]
    return value


SEEDS = range(8)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("seed", SEEDS)
def test_weighted_searches_equal_networkx(cls, seed):
    G, labels, rng = random_graph(cls, seed)
    sources = rng.sample(labels, 3)
    for source in sources:
        target = rng.choice(labels)
        for weight in ("weight", "cost", None):
            for cutoff in (None, 3, 2.5):
                nx_answer, dyng_answer = both(
                    nx.single_source_dijkstra_path_length, G, source, cutoff=cutoff, weight=weight
                )
                assert dyng_answer == nx_answer
                lengths = list(dyng_answer[1].values())
                assert lengths == sorted(lengths)  # nondecreasing, as NetworkX's
                for function in (
                    nx.single_source_dijkstra,
                    nx.dijkstra_predecessor_and_distance,
                    nx.single_source_dijkstra_path,
                ):
                    nx_answer, dyng_answer = both(function, G, source, cutoff=cutoff, weight=weight)
                    assert in_order(dyng_answer) == in_order(nx_answer), function.__name__
            for function in (nx.dijkstra_path, nx.dijkstra_path_length):
                nx_answer, dyng_answer = both(function, G, source, target, weight=weight)
                assert dyng_answer == nx_answer, function.__name__
            nx_answer, dyng_answer = both(
                nx.single_source_dijkstra, G, source, target, weight=weight
            )
            assert dyng_answer == nx_answer


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("seed", SEEDS)
def test_bfs_equals_networkx(cls, seed):
    G, labels, rng = random_graph(cls, seed, m=70)
    for source in rng.sample(labels, 4):
        for cutoff in (None, 0, 1, 2, 1.5, -1):
            nx_answer, dyng_answer = both(
                nx.single_source_shortest_path_length, G, source, cutoff=cutoff
            )
            assert dyng_answer == nx_answer
            levels = list(dyng_answer[1].values())
            assert levels == sorted(levels)
        nx_answer, dyng_answer = both(nx.bfs_layers, G, source)
        assert dyng_answer == nx_answer
        nx_answer, dyng_answer = both(nx.bfs_layers, G, [source])
        assert dyng_answer == nx_answer


@pytest.mark.parametrize("seed", SEEDS)
def test_transitivity_equals_networkx(seed):
    G, _, _ = random_graph(nx.Graph, seed, n=30, m=150)
    expected = nx.transitivity(G)
    answer = nx.transitivity(G, backend="dyng")
    assert answer == expected and type(answer) is type(expected)


def test_transitivity_of_graphs_without_triangles_is_the_integer_0():
    for G in (nx.Graph(), nx.path_graph(5), nx.star_graph(4)):
        answer = nx.transitivity(G, backend="dyng")
        assert answer == 0 and type(answer) is int


def test_missing_nodes_raise_what_networkx_raises():
    G, _, _ = random_graph(nx.DiGraph, 0)
    calls = [
        (nx.single_source_dijkstra_path_length, ("absent",)),
        (nx.single_source_dijkstra, ("absent",)),
        (nx.dijkstra_predecessor_and_distance, ("absent",)),
        (nx.single_source_shortest_path_length, ("absent",)),
        (nx.dijkstra_path, ("absent", 0)),
        (nx.dijkstra_path_length, ("absent", 0)),
    ]
    for function, args in calls:
        nx_answer, dyng_answer = both(function, G, *args)
        assert dyng_answer == nx_answer and dyng_answer[0] != "value", function.__name__
    nx_answer, dyng_answer = both(nx.bfs_layers, G, ["absent"])
    assert dyng_answer == nx_answer and dyng_answer[0] is nx.NetworkXError


def test_unreachable_and_trivial_targets():
    G = nx.DiGraph([(1, 2), (3, 4)])
    for function in (nx.dijkstra_path, nx.dijkstra_path_length):
        for target in (4, 99, 1):
            nx_answer, dyng_answer = both(function, G, 1, target)
            assert dyng_answer == nx_answer
    for target in (4, 2, 1):
        nx_answer, dyng_answer = both(nx.single_source_dijkstra, G, 1, target)
        assert dyng_answer == nx_answer


def test_results_are_plain_python_values():
    G, labels, _ = random_graph(nx.DiGraph, 3)
    dist, paths = nx.single_source_dijkstra(G, labels[0], backend="dyng")
    assert all(type(d) is int for d in dist.values())
    assert all(type(p) is list for p in paths.values())
    pred, _ = nx.dijkstra_predecessor_and_distance(G, labels[0], backend="dyng")
    assert all(type(p) is list for p in pred.values())
    layers = nx.bfs_layers(G, labels[0], backend="dyng")
    assert not isinstance(layers, list)  # a generator, as NetworkX's
    assert all(type(layer) is list for layer in layers)


def test_a_long_weighted_path_with_many_ties():
    # A grid has many equally short paths; NetworkX picks one by its search order.
    G = nx.grid_2d_graph(12, 12)
    nx.set_edge_attributes(G, 1, "weight")
    source = (0, 0)
    expected = nx.single_source_dijkstra(G, source)
    assert in_order(nx.single_source_dijkstra(G, source, backend="dyng")) == in_order(expected)
    expected = nx.dijkstra_predecessor_and_distance(G, source)
    answer = nx.dijkstra_predecessor_and_distance(G, source, backend="dyng")
    assert in_order(answer) == in_order(expected)


@pytest.mark.gpu
@pytest.mark.parametrize("cls", (nx.DiGraph, nx.Graph), ids=lambda c: c.__name__)
def test_answers_from_a_graph_kept_on_the_gpu_equal_networkx(cls):
    """With a usable CUDA backend the default resources are the GPU, so the backend's graphs and
    results live there; the answers it hands NetworkX must still come back to the host."""
    import dyng

    assert dyng.get_default_resources().backend == "cuda"
    G, labels, rng = random_graph(cls, 11)
    for source in rng.sample(labels, 3):
        for function in (
            nx.single_source_dijkstra_path_length,
            nx.single_source_shortest_path_length,
        ):
            nx_answer, dyng_answer = both(function, G, source)
            assert dyng_answer == nx_answer, function.__name__
    if cls is nx.Graph:
        assert nx.transitivity(G, backend="dyng") == nx.transitivity(G)
