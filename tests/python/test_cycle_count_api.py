"""cycle_count's API: options and their errors, the graph requirements and their error classes,
the Result protocol (counts, count, total, bound, to_dict, staleness, clones, set_options) and
the stats of an update, against the facts of spec section 6 and 0.2.0's observed behaviour."""

import numpy as np
import pytest

import dyng
from dyng import cycle_count


def triangle_and_pair():
    # 0 -> 1 -> 2 -> 0 and 1 <-> 0.
    return dyng.Graph.from_edges([0, 1, 2, 1], [1, 2, 0, 0], properties="cycle_enum_compatible")


def test_defaults_and_fields():
    o = cycle_count.Options()
    assert (o.max_length, o.method, o.mode, o.cuda_engine, o.scheduler, o.work_items) == (
        -1,
        "johnson",
        "simple",
        "automatic",
        "work_queue",
        "automatic",
    )
    assert cycle_count.Options(scheduler="naive", work_items="two_hop").work_items == "two_hop"


@pytest.mark.parametrize("bad", [0, 1, -2, 2.5, True, "3"])
def test_bad_max_length(bad):
    with pytest.raises(dyng.InvalidArgumentError, match="max_length"):
        cycle_count.compute(triangle_and_pair(), max_length=bad)


@pytest.mark.parametrize("field", ["method", "mode", "cuda_engine", "scheduler", "work_items"])
def test_bad_choices(field):
    with pytest.raises(dyng.InvalidArgumentError, match=field):
        cycle_count.Options(**{field: "nonsense"})


def test_result_protocol():
    g = triangle_and_pair()
    r = cycle_count.compute(g)
    assert r.counts.dtype == np.uint64 and r.counts.tolist() == [0, 0, 1, 1]
    assert (r.bound, r.total, r.to_dict()) == (3, 2, {2: 1, 3: 1})
    assert [r.count(length) for length in (-1, 0, 1, 2, 3, 4, 99)] == [0, 0, 0, 1, 1, 0, 0]
    assert isinstance(r.total, int) and r.space == "host" and r.graph_version == 0
    assert "counts={2: 1, 3: 1}" in repr(r)
    assert r.stats.path == "compute" and r.stats.affected == 2
    assert not hasattr(r, "source")
    two = cycle_count.compute(g, max_length=2)
    assert two.counts.tolist() == [0, 0, 1] and two.bound == 2


def test_bound_follows_the_vertex_count():
    g = dyng.Graph.from_edges([0], [1], properties="cycle_enum_compatible")
    assert cycle_count.compute(g).bound == 2
    assert cycle_count.compute(g, max_length=9).bound == 2
    single = dyng.Graph.from_edges([], [], num_vertices=1)
    assert cycle_count.compute(single).counts.tolist() == [0, 0, 0]


def test_update_stats_and_growth():
    g = dyng.Graph.from_edges([0, 1], [1, 0], properties="cycle_enum_compatible")
    r = cycle_count.compute(g)
    s = cycle_count.update(g, dyng.EdgeBatch(insert=([1, 2, 3], [2, 3, 1])), r)
    assert r.counts.tolist() == [0, 0, 1, 1, 0] and r.bound == 4
    assert (s.affected, s.iterations, s.frontier_visits) == (1, 0, 3)
    assert (s.deletions, s.insertions, s.cycles_removed, s.cycles_added) == (0, 3, 0, 1)
    assert s.engine_used == "operators" and s.path == "incremental"
    s = cycle_count.update(g, dyng.EdgeBatch(delete=([1], [0])), r)
    assert r.to_dict() == {3: 1} and (s.deletions, s.cycles_removed, s.affected) == (1, 1, 1)


def test_weights_and_self_loops_are_ignored():
    g = dyng.Graph.from_edges([0, 1, 1], [1, 0, 1], [5, 7, 1])
    assert cycle_count.compute(g).to_dict() == {2: 1}


def test_requirements_and_their_errors():
    with pytest.raises(dyng.NotSupportedError, match="int32"):
        cycle_count.compute(dyng.Graph.from_edges([0, 1], [1, 0], vertex_dtype="int64"))
    with pytest.raises(dyng.InvalidArgumentError, match="sorted rows without parallel edges"):
        cycle_count.compute(
            dyng.Graph.from_edges([0, 1], [1, 0], [[1], [1]], properties="mosp_compatible")
        )
    with pytest.raises(TypeError):
        cycle_count.compute([0, 1])


def test_stale_results_and_fixed_fields():
    g = triangle_and_pair()
    r = cycle_count.compute(g, max_length=3)
    g.apply(dyng.EdgeBatch(delete=([2], [0])))
    with pytest.raises(dyng.StaleResultError):
        cycle_count.update(g, dyng.EdgeBatch(delete=([1], [0])), r)
    with pytest.raises(dyng.InvalidArgumentError, match="max_length"):
        r.set_options(max_length=4)
    copy = cycle_count.compute(g).clone()
    assert copy.to_dict() == {2: 1} and copy.graph_version == g.version
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(copy)


def test_a_backend_an_algorithm_lacks_is_refused_clearly():
    # The check runs before any native state is chosen (on a GPU machine Resources.cuda() itself
    # succeeds, so the refusal must come from here); an algorithm whose record lacks a backend.
    import types

    from dyng._result import _check_backend

    host_only = types.SimpleNamespace(
        _ALGORITHM=types.SimpleNamespace(name="host_only", backends=("sequential", "openmp"))
    )
    with pytest.raises(dyng.NotSupportedError, match="sequential, openmp backends"):
        _check_backend(host_only, types.SimpleNamespace(backend="cuda"), "host_only.compute")
    _check_backend(host_only, types.SimpleNamespace(backend="openmp"), "x")
    assert cycle_count.ALGORITHM.backends == ("sequential", "openmp", "cuda")
