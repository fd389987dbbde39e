"""components' API: Options/Stats/Result shape, the kinds and the graphs that refuse one, read-only
views, Result.component, staleness, clones, growth, int64 ids, the CUDA refusal and the registry
entry."""

import dataclasses

import numpy as np
import pytest

import dyng
from dyng import components


def two_pieces():
    """Undirected 0-1-2 and 3-4."""
    return dyng.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False)


def test_shapes():
    assert [f.name for f in dataclasses.fields(components.Options)] == ["kind"]
    assert [f.name for f in dataclasses.fields(components.Stats)][-5:] == [
        "merged",
        "split",
        "relabelled",
        "searches",
        "search_size",
    ]
    r = components.compute(two_pieces())
    assert (r.labels.tolist(), r.sizes.tolist(), r.count) == ([0, 0, 0, 3, 3], [3, 0, 0, 2, 0], 2)
    assert isinstance(r.count, int) and r.kind == "weak" and r.space == "host"
    assert r.stats.path == "compute" and r.stats.method == "union_find"
    assert r.labels.dtype == np.int64 and r.sizes.dtype == np.int64
    assert "count=2" in repr(r) and "kind='weak'" in repr(r)


def test_views_are_read_only_and_keep_their_values():
    g = two_pieces()
    r = components.compute(g)
    labels = np.asarray(r.labels)
    with pytest.raises(ValueError):
        labels[0] = 7
    components.update(g, dyng.EdgeBatch(insert=([2], [3])), r)
    assert r.labels.tolist() == [0] * 5 and r.count == 1
    assert labels.tolist() == [0, 0, 0, 3, 3]


def test_component_of_a_vertex():
    r = components.compute(two_pieces())
    assert r.component(4).tolist() == [3, 4]
    assert r.component(np.int64(1)).tolist() == [0, 1, 2]
    with pytest.raises(dyng.InvalidArgumentError, match=r"v=5 is not a vertex"):
        r.component(5)
    with pytest.raises(dyng.InvalidArgumentError):
        r.component(-1)


def test_strong_kind_and_its_refusal_on_undirected_graphs():
    g = dyng.Graph.from_edges([0, 1, 2, 3], [1, 2, 0, 4])
    r = components.compute(g, kind="strong")
    assert (r.labels.tolist(), r.count, r.stats.method) == ([0, 0, 0, 3, 4], 3, "tarjan")
    assert components.compute(g, options=components.Options(kind="strong")).count == 3
    with pytest.raises(dyng.InvalidArgumentError, match='use kind="weak"'):
        components.compute(two_pieces(), kind="strong")
    with pytest.raises(dyng.InvalidArgumentError, match="kind must be"):
        components.compute(g, kind="both")
    with pytest.raises(dyng.InvalidArgumentError, match="kind cannot change"):
        r.set_options(kind="weak")


# Isolated vertices make the graph large enough that these small repairs stay within the
# default budget (a fifth of the stored edges plus vertices), so the counters are the repair's.
def test_strong_update_merges_and_splits():
    g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 3], num_vertices=100)
    r = components.compute(g, kind="strong")
    assert r.count == 100
    s = components.update(g, dyng.EdgeBatch(insert=([3], [1])), r)
    assert (r.labels.tolist()[:5], r.count, s.merged, s.path) == (
        [0, 1, 1, 1, 4],
        98,
        2,
        "incremental",
    )
    s = components.update(g, dyng.EdgeBatch(delete=([2], [3])), r)
    assert (r.labels.tolist()[:5], r.count, s.split, s.method) == (
        [0, 1, 2, 3, 4],
        100,
        2,
        "restricted_tarjan",
    )


def test_weak_update_counts_what_it_did():
    g = dyng.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 4], directed=False, num_vertices=100)
    r = components.compute(g)
    s = components.update(g, dyng.EdgeBatch(delete=([1], [2])), r)
    assert (r.labels.tolist()[:6], r.count) == ([0, 0, 2, 2, 2, 5], 97)
    # The side of 1 ran out first and holds 0, the old label: the rest is searched again.
    assert (s.split, s.merged, s.relabelled, s.searches, s.path) == (1, 0, 3, 2, "incremental")
    assert s.affected == 4  # vertices 2, 3, 4 relabelled, and sizes[0] and sizes[2]
    assert s.search_size >= 2


def test_stale_results_and_clones():
    g = two_pieces()
    r = components.compute(g)
    copy = r.clone()
    g.apply(dyng.EdgeBatch(delete=([0], [1])))
    with pytest.raises(dyng.StaleResultError):
        components.update(g, dyng.EdgeBatch(delete=([3], [4])), r)
    assert copy.labels.tolist() == r.labels.tolist() == [0, 0, 0, 3, 3]
    assert components.compute(g).labels.tolist() == [0, 1, 1, 3, 3]


def test_graph_growth_and_int64_ids():
    g = dyng.Graph.from_edges(
        np.array([0, 1], dtype=np.int64), np.array([1, 2], dtype=np.int64), [1, 1], directed=False
    )
    r = components.compute(g)
    s = components.update(g, dyng.EdgeBatch(insert=([6, 5], [2, 5], [1, 1])), r)
    assert r.labels.tolist() == [0, 0, 0, 3, 4, 5, 0]
    assert r.count == 4 and s.path == "incremental"
    assert r.labels.tolist() == components.compute(g).labels.tolist()


def test_module_update_with_other_results():
    g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    weak, dist = components.compute(g), dyng.sssp.compute(g, 0)
    dyng.update(g, dyng.EdgeBatch(delete=([1], [2])), weak, dist)
    assert weak.labels.tolist() == [0, 0, 2] and dist.distances.tolist()[1] == 1


def test_every_backend_is_listed():
    assert components.ALGORITHM.backends == ("sequential", "openmp", "cuda")
    row = "| `components`: dynamic connected components (weak and strong) | yes | yes | yes |"
    assert row in dyng._registry.feature_table()


def test_registry_entry():
    info = {a.name: a for a in dyng.algorithms()}["components"]
    assert (info.family, info.maturity, info.determinism) == ("fixed_point", "stable", "bitwise")
    assert dyng.citation_keys("components") == ["dyng2027"]


def _only_sequential(monkeypatch):
    record = dataclasses.replace(components.ALGORITHM, backends=("sequential",))
    monkeypatch.setattr(components.Result, "_ALGORITHM", record)


def test_an_automatic_backend_the_algorithm_lacks_falls_back_to_a_host_one(monkeypatch):
    # As on a machine whose automatic choice is the GPU, for an algorithm that has no GPU backend
    # yet: a script that never named a backend must still run (here: automatic OpenMP, an
    # algorithm with the sequential backend only).
    _only_sequential(monkeypatch)
    monkeypatch.setattr(dyng._resources, "_default", dyng.Resources())
    graph = two_pieces()
    if graph.resources.backend == "sequential":
        pytest.skip("the automatic choice here is already sequential (no OpenMP in this build)")
    r = components.compute(graph)
    assert r._resources.backend == "sequential" and r.labels.tolist() == [0, 0, 0, 3, 3]
    components.update(graph, dyng.EdgeBatch(insert=([2], [3])), r)
    assert r.labels.tolist() == [0] * 5


def test_a_backend_someone_named_is_refused_not_replaced(monkeypatch):
    _only_sequential(monkeypatch)
    with pytest.raises(dyng.NotSupportedError, match="not on openmp"):
        components.compute(two_pieces(), resources="openmp")
    graph = dyng.Graph.from_edges([0], [1], resources=dyng.Resources.openmp())
    with pytest.raises(dyng.NotSupportedError, match="not on openmp"):
        components.compute(graph)


@pytest.mark.gpu
def test_with_the_gpu_as_the_automatic_choice_components_run_there():
    assert dyng.get_default_resources().backend == "cuda"
    graph = dyng.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False, num_vertices=8)
    assert graph.space == "device"
    r = components.compute(graph)
    assert r.space == "device" and r.labels.to_numpy().tolist()[:5] == [0, 0, 0, 3, 3]
    dyng.update(graph, dyng.EdgeBatch(insert=([2, 6], [3, 7]), delete=([0], [1])), r)
    fresh = components.compute(graph)
    assert (
        r.labels.to_numpy().tolist() == fresh.labels.to_numpy().tolist() == [0, 1, 1, 1, 1, 5, 6, 6]
    )
