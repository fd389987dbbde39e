"""dyng.profile(): stages recorded by the C++ core for each algorithm and the graph's apply, the
Profiler's views (records, samples, counters, CSV, JSON), nesting, and resources scoping."""

import json

import numpy as np
import pytest
from _algorithm_examples import example, weighted_graph

import dyng
from dyng import _registry

HOST_BACKENDS = ["sequential", "openmp"]


def names(profiler, depth=None):
    return [r.name for r in profiler.stages if depth is None or r.depth == depth]


@pytest.fixture(params=HOST_BACKENDS)
def resources(request):
    return dyng.Resources(request.param)


def test_sssp_compute_stages(resources):
    g = weighted_graph(resources)
    with dyng.profile(resources) as prof:
        dyng.sssp.compute(g, 0)
    assert names(prof, 0) == ["sssp.compute"]
    inner = names(prof)
    for stage in ("sssp.reset", "sssp.loop", "sssp.finalize"):
        assert stage in inner
    top = prof.stages[0]
    assert top.calls == 1 and top.depth == 0
    # The children run inside the parent: their time cannot exceed it.
    assert sum(r.host_ms for r in prof.stages if r.depth == 1) <= top.host_ms + 1e-6
    assert all(r.device_ms == 0.0 for r in prof.stages)


def test_records_sum_samples_in_begin_order(resources):
    g = weighted_graph(resources)
    with dyng.profile(resources) as prof:
        dyng.sssp.compute(g, 0)
        dyng.sssp.compute(g, 1)
    records = {(r.name, r.depth): r for r in prof.stages}
    assert records[("sssp.compute", 0)].calls == 2
    by_key = {}
    for s in prof.samples:
        by_key.setdefault((s.name, s.depth), []).append(s.host_ms)
    for key, record in records.items():
        assert record.calls == len(by_key[key])
        assert record.host_ms == pytest.approx(sum(by_key[key]))
    assert prof.stages[0].name == "sssp.compute"
    # Samples come in end order: a parent after its children, start times never negative.
    assert prof.samples[-1].name == "sssp.compute"
    assert all(s.start_ms >= 0 for s in prof.samples)
    assert prof.total_host_ms("sssp.compute") == pytest.approx(records[("sssp.compute", 0)].host_ms)
    assert prof.total_host_ms("no.such.stage") == 0
    # A record passed for its name would match nothing and read as 0 ms: refused instead.
    with pytest.raises(TypeError, match=r"Profiler.total_host_ms\(\): name must be a str"):
        prof.total_host_ms(prof.stages[0])


def test_update_stages_apply_and_repair(resources):
    g = weighted_graph(resources)
    r = dyng.sssp.compute(g, 0)
    batch = dyng.EdgeBatch(insert=([1, 2], [5, 6], [1, 2]), delete=([0], [1]))
    with dyng.profile(resources) as prof:
        dyng.sssp.update(g, batch, r)
    assert names(prof, 0) == ["sssp.update"]
    depth1 = names(prof, 1)
    assert "graph.apply" in depth1 and "sssp.repair" in depth1
    assert "graph.resolve" in names(prof, 2)
    assert prof.counters["graph.apply.entries"] == 3


def test_budget_fallback_shows_recompute(resources):
    # Deleting the first edge of a chain cuts the whole tree: the repair passes its budget.
    n = 200
    g = dyng.Graph.from_edges(
        np.arange(n - 1), np.arange(1, n), np.ones(n - 1, np.int32), resources=resources
    )
    r = dyng.sssp.compute(g, 0)
    with dyng.profile(resources) as prof:
        stats = dyng.sssp.update(g, dyng.EdgeBatch(delete=([0], [1])), r)
    assert stats.fallback_used
    assert {"sssp.undo", "sssp.recompute"} <= set(names(prof, 2))
    assert prof.counters["update.recomputes"] == 1


@pytest.mark.parametrize("name", _registry.ALGORITHM_MODULES)
def test_every_algorithm_records_its_stages(name, resources):
    algorithm = example(name)
    graph = algorithm.graph(resources)
    with dyng.profile(resources) as prof:
        algorithm.run(getattr(dyng, name), graph)
    assert names(prof, 0) == [f"{name}.compute", f"{name}.update"]
    every = set(names(prof))
    for stage in algorithm.stages["host"]:
        assert stage in every, stage


def test_mosp_runs_a_search_per_objective_and_the_combined_one(resources):
    g = weighted_graph(resources, k=3, properties="mosp_compatible")
    with dyng.profile(resources) as prof:
        dyng.mosp.compute(g, 0)
    sssp_loops = sum(r.calls for r in prof.stages if r.name == "sssp.loop")
    assert sssp_loops >= 4


def test_dyng_update_one_stage_around_apply_and_repairs(resources):
    g = weighted_graph(resources)
    a, b = dyng.sssp.compute(g, 0), dyng.dynamic_bfs.compute(g, 0)
    with dyng.profile(resources) as prof:
        dyng.update(g, dyng.EdgeBatch(insert=([4], [9], [1])), a, b)
    assert names(prof, 0) == ["dyng.update"]
    assert {"graph.apply", "sssp.repair", "dynamic_bfs.repair"} <= set(names(prof, 1))


def test_graph_apply_alone(resources):
    g = weighted_graph(resources)
    with dyng.profile(resources) as prof:
        g.apply(dyng.EdgeBatch(insert=([1], [2], [3])))
    assert names(prof, 0) == ["graph.apply"]


def test_only_the_profiled_resources_and_their_copies():
    import copy

    profiled, other = dyng.Resources("sequential"), dyng.Resources("sequential")
    g_other = weighted_graph(other)
    g_copy = weighted_graph(copy.copy(profiled))
    with dyng.profile(profiled) as prof:
        dyng.sssp.compute(g_other, 0)
        dyng.sssp.compute(g_copy, 0)
    assert [r.calls for r in prof.stages if r.name == "sssp.compute"] == [1]


def test_default_resources_by_default():
    g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    with dyng.profile() as prof:
        dyng.sssp.compute(g, 0)
    assert names(prof, 0) == ["sssp.compute"]


def test_nesting_innermost_receives_then_outer_resumes(resources):
    g = weighted_graph(resources)
    with dyng.profile(resources) as outer:
        with dyng.profile(resources) as inner:
            dyng.sssp.compute(g, 0)
        dyng.dynamic_bfs.compute(g, 0)
    assert names(inner, 0) == ["sssp.compute"]
    assert names(outer, 0) == ["dynamic_bfs.compute"]


def test_nothing_recorded_after_the_block(resources):
    g = weighted_graph(resources)
    with dyng.profile(resources) as prof:
        pass
    dyng.sssp.compute(g, 0)
    assert prof.stages == [] and prof.samples == [] and prof.counters == {}


def test_reset_csv_json(resources):
    g = weighted_graph(resources)
    with dyng.profile(resources) as prof:
        dyng.sssp.compute(g, 0)
        g.apply(dyng.EdgeBatch(insert=([1], [2], [3])))
        csv = prof.to_csv().splitlines()
        assert csv[0] == "kind,name,value"
        stage_lines = [line for line in csv if line.startswith("stage,")]
        assert len(stage_lines) == len(prof.samples)
        assert stage_lines[-1].startswith("stage,graph.apply,")
        assert "counter,graph.apply.entries,1" in csv
        data = json.loads(prof.to_json())
        assert [s["name"] for s in data["stages"]] == names(prof)
        assert data["counters"] == [{"name": "graph.apply.entries", "value": 1}]
        prof.reset()
        assert prof.stages == [] and prof.counters == {}
        dyng.sssp.compute(g, 0)
    assert names(prof, 0) == ["sssp.compute"]


def test_samples_and_records_are_frozen_dataclasses():
    s = dyng.StageSample("a", 0, 1.0, 0.0)
    assert s.start_ms == 0.0
    with pytest.raises(AttributeError):
        s.name = "b"
    r = dyng.StageRecord("a", 0, 1, 1.0, 0.0)
    assert r == dyng.StageRecord("a", 0, 1, 1.0, 0.0)


def test_bad_resources_is_a_type_error():
    with pytest.raises(TypeError, match="dyng.Resources"):
        with dyng.profile("openmp"):
            pass


def test_to_dataframe_without_pandas(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("blocked")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match="pip install pandas"):
        dyng.Profiler().to_dataframe()


def test_repr():
    assert repr(dyng.Profiler()) == "dyng.Profiler(0 stages)"


def test_cuda_options_accepted_on_host(resources, capsys):
    g = weighted_graph(resources)
    with dyng.profile(resources, sync_stages=True, cuda_events=True) as prof:
        dyng.sssp.compute(g, 0)
    assert all(r.device_ms == 0.0 for r in prof.stages)
    assert names(prof, 0) == ["sssp.compute"]


def test_plot_draws_the_samples(resources, tmp_path):
    pytest.importorskip("matplotlib")
    g = weighted_graph(resources)
    with dyng.profile(resources) as prof:
        dyng.sssp.compute(g, 0)
    path = tmp_path / "stages.png"
    figure = prof.plot(path=path, title="sssp.compute")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert figure.axes and figure.axes[0].get_title() == "sssp.compute"


def test_to_dataframe_with_pandas(resources):
    pandas = pytest.importorskip("pandas")
    g = weighted_graph(resources)
    with dyng.profile(resources) as prof:
        dyng.sssp.compute(g, 0)
    frame = prof.to_dataframe()
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == ["name", "depth", "calls", "host_ms", "device_ms"]
    assert frame["name"].tolist() == names(prof)


def test_profiles_belong_to_the_thread_that_opened_them():
    # Two threads profile the default resources at once, their blocks overlapping: each profile
    # holds the stages of its own thread's calls only. The barriers make the overlap certain.
    import threading

    g = weighted_graph(None)
    opened, ran = threading.Barrier(2), threading.Barrier(2)
    seen = {}

    def work(name, call):
        with dyng.profile() as prof:
            opened.wait()
            call()
            ran.wait()
        seen[name] = names(prof, 0)

    threads = [
        threading.Thread(target=work, args=("sssp", lambda: dyng.sssp.compute(g, 0))),
        threading.Thread(target=work, args=("bfs", lambda: dyng.dynamic_bfs.compute(g, 0))),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"sssp": ["sssp.compute"], "bfs": ["dynamic_bfs.compute"]}


def test_another_threads_calls_are_not_recorded():
    import threading

    g = weighted_graph(None)
    with dyng.profile() as prof:
        worker = threading.Thread(target=lambda: dyng.sssp.compute(g, 0))
        worker.start()
        worker.join()
        dyng.dynamic_bfs.compute(g, 0)
    assert names(prof, 0) == ["dynamic_bfs.compute"]
