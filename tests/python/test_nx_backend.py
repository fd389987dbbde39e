"""The dyng NetworkX backend's contract with NetworkX's dispatcher: what can_run refuses and
why, what should_run keeps in NetworkX, one conversion per call, the function list, and
get_info loading neither NetworkX nor the native module."""

import inspect
import subprocess
import sys

import pytest
from _nx_setup import convert_every_call, nx  # noqa: F401 (an autouse fixture)

import dyng.nx  # noqa: E402
from dyng.nx import _checks, _conversions, _info, _snapshot  # noqa: E402

can_run = dyng.nx.BackendInterface.can_run
should_run = dyng.nx.BackendInterface.should_run


def weighted(weight_of_one_edge):
    G = nx.DiGraph([(0, 1, {"weight": 3}), (1, 2, {"weight": 1})])
    G.add_edge("x", ("y", 1), weight=weight_of_one_edge)
    return G


@pytest.mark.parametrize(
    "weight, words",
    [
        (2.5, "not an integer"),
        (2.0, "not an integer"),
        ("3", "not an integer"),
        (0, "below 1"),
        (-4, "below 1"),
        (False, "below 1"),
        (2**31, "above 2**31 - 1"),
    ],
)
def test_weights_dyng_cannot_take_are_refused_with_the_edge_named(weight, words):
    reason = can_run("single_source_dijkstra_path_length", (weighted(weight), 0), {})
    assert isinstance(reason, str)
    assert words in reason and "('x', ('y', 1))" in reason and repr(weight) in reason


def test_weights_it_takes():
    for weight in (1, 2**31 - 1, True, None):  # None hides the edge, as in NetworkX
        assert can_run("single_source_dijkstra", (weighted(weight), 0), {}) is True
    # Another attribute, missing on some edges (NetworkX reads 1): fine; so is no weight.
    assert (
        can_run("dijkstra_predecessor_and_distance", (weighted(2.5), 0), {"weight": "cost"}) is True
    )
    assert can_run("single_source_dijkstra", (weighted(2.5), 0), {"weight": None}) is True
    G = nx.MultiDiGraph([(0, 1, {"weight": 2}), (0, 1, {"weight": 1})])
    assert can_run("single_source_dijkstra_path_length", (G, 0), {}) is True
    G.add_edge(0, 1, weight=0.5)  # any parallel edge
    assert "not an integer" in can_run("single_source_dijkstra_path_length", (G, 0), {})


def test_arguments_dyng_lacks_are_refused():
    G = weighted(1)
    assert "function" in can_run("single_source_dijkstra", (G, 0), {"weight": lambda u, v, d: 1})
    assert "not a number" in can_run(
        "single_source_dijkstra_path_length", (G, 0), {"cutoff": "far"}
    )
    assert "2 sources" in can_run("bfs_layers", (G, [0, 1]), {})
    assert "iterator" in can_run("bfs_layers", (G, iter([0])), {})
    assert can_run("bfs_layers", (G, [0, 0]), {}) is True
    assert can_run("bfs_layers", (G, 0), {}) is True
    assert "directed" in can_run("transitivity", (G,), {})
    assert "multigraph" in can_run("transitivity", (nx.MultiGraph([(0, 1)]),), {})
    assert can_run("transitivity", (nx.Graph([(0, 1)]),), {}) is True
    assert "not fit" in can_run("dijkstra_path", (G, 0), {})  # no target
    assert "does not implement hits" in can_run("hits", (G,), {})


def test_refused_calls_raise_when_dyng_is_asked_for_and_fall_back_when_configured():
    G = weighted(2.5)
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, backend="dyng")
    expected = nx.single_source_dijkstra_path_length(G, "x")
    priority, fallback = nx.config.backend_priority.algos, nx.config.fallback_to_nx
    try:
        nx.config.backend_priority.algos = ["dyng"]
        nx.config.fallback_to_nx = True
        nx.config.backends.dyng.min_edges = 0
        assert nx.single_source_dijkstra_path_length(G, "x") == expected
    finally:
        nx.config.backend_priority.algos, nx.config.fallback_to_nx = priority, fallback
        nx.config.backends.dyng.min_edges = _info.get_info()["default_config"]["min_edges"]


def test_should_run_keeps_small_graphs_in_networkx():
    small = nx.path_graph(50, create_using=nx.DiGraph)
    reason = should_run("single_source_dijkstra_path_length", (small, 0), {})
    assert isinstance(reason, str) and "min_edges" in reason and "49 edges" in reason
    large = nx.gnm_random_graph(200, _checks.min_edges(), directed=True, seed=1)
    assert should_run("single_source_dijkstra_path_length", (large, 0), {}) is True
    assert isinstance(should_run("single_source_dijkstra", (large, 0), {}), str)
    assert "stops at the target" in should_run("single_source_dijkstra", (large, 0, 5), {})
    assert "BFS" in should_run("bfs_layers", (large, 0), {})
    assert should_run("transitivity", (nx.gnm_random_graph(100, 300, seed=1),), {}) is True
    assert should_run("single_source_dijkstra", (dyng.nx.DiGraph(small), 0), {}) is True
    try:
        nx.config.backends.dyng.min_edges = 10
        assert should_run("single_source_dijkstra_path_length", (small, 0), {}) is True
    finally:
        nx.config.backends.dyng.min_edges = _info.get_info()["default_config"]["min_edges"]


def test_can_run_and_the_conversion_read_the_graph_once(monkeypatch):
    conversions = []
    real = _snapshot.snapshot_of

    def counted(G, attrs):
        conversions.append(attrs)
        return real(G, attrs)

    for module in (_checks, _conversions):
        monkeypatch.setattr(module, "snapshot_of", counted)
    G = weighted(1)
    nx.config.cache_converted_graphs, cached = False, nx.config.cache_converted_graphs
    try:
        nx.single_source_dijkstra_path_length(G, 0, backend="dyng")
        assert conversions == [{"weight": 1}]
        list(nx.bfs_layers(G, 0, backend="dyng"))
        assert conversions == [{"weight": 1}, {}]
    finally:
        nx.config.cache_converted_graphs = cached


def test_dyng_really_answers(monkeypatch, tmp_path):
    # The suite counter sees every call that ran on dyng; a refused one is not among them.
    monkeypatch.setenv("DYNG_NX_SUITE_COUNTS", str(tmp_path))
    G = weighted(1)
    nx.single_source_dijkstra(G, 0, backend="dyng")
    list(nx.bfs_layers(G, 0, backend="dyng"))
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra(G, 0, weight=lambda u, v, d: 1, backend="dyng")
    calls = [
        line.split("\t")[1]
        for path in tmp_path.glob("calls-*.tsv")
        for line in path.read_text().splitlines()
    ]
    assert calls == ["single_source_dijkstra", "bfs_layers"]


def test_the_function_list_is_what_the_backend_implements_with_networkx_signatures():
    info = _info.get_info()
    assert set(info["functions"]) == set(_info.FUNCTIONS)
    for name in info["functions"]:
        ours = inspect.signature(getattr(dyng.nx.BackendInterface, name))
        theirs = inspect.signature(getattr(nx, name))
        assert list(ours.parameters) == [
            p for p in theirs.parameters if p not in ("backend", "backend_kwargs")
        ], name
        assert [p.default for p in ours.parameters.values()] == [
            theirs.parameters[p].default for p in ours.parameters
        ], name
        assert "dyng" in getattr(nx, name).backends, name


def test_get_info_imports_neither_networkx_nor_numpy_nor_the_native_module():
    # NetworkX calls it during every `import networkx`: what it loads, every NetworkX user pays.
    code = (
        "import sys, dyng.nx; info = dyng.nx.get_info(); "
        "print(sorted(m for m in ('networkx', 'numpy', 'dyng._core', 'dyng._graph', "
        "'dyng.nx._interface') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_results_convert_to_networkx_unchanged_and_graphs_back_to_networkx_graphs():
    value = {"a": [1, 2]}
    assert dyng.nx.BackendInterface.convert_to_nx(value) is value
    G = nx.MultiDiGraph([("a", "b", {"weight": 2}), ("b", "c", {"weight": 4})])
    converted = dyng.nx.BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1})
    back = dyng.nx.BackendInterface.convert_to_nx(converted)
    assert type(back) is nx.MultiDiGraph
    assert sorted(back.edges(data="weight")) == sorted(G.edges(data="weight"))
