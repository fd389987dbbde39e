"""dyng.profile() on the GPU: the device paths record their stages (device graph apply, sssp's
GPU search and repair, every registered algorithm), cuda_events gives
device times, sync_stages makes host times cover the device work, and NVTX is compiled into the
plugin. Skipped where no CUDA backend is usable (CI); must pass on a GPU before CUDA work is
done."""

from __future__ import annotations

import numpy as np
import pytest
from _algorithm_examples import example

import dyng
from dyng import _backend, _registry

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def cuda():
    return dyng.Resources.cuda()


def rmat_like(resources, n=1 << 16, m=1 << 20, k=1, seed=5, **kw):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    w = rng.integers(1, 101, (m, k)).astype(np.int32)
    return dyng.Graph.from_edges(
        src, dst, w if k > 1 else w[:, 0], num_vertices=n, resources=resources, **kw
    ), rng


def names(prof, depth=None):
    return [r.name for r in prof.stages if depth is None or r.depth == depth]


def test_nvtx_is_compiled_into_the_plugin():
    assert _backend.native().nvtx_available()


def test_sssp_stages_with_device_times(cuda):
    g, rng = rmat_like(cuda)
    with dyng.profile(cuda, cuda_events=True) as prof:
        r = dyng.sssp.compute(g, 0)
        batch = dyng.EdgeBatch(
            insert=(
                rng.integers(0, 1 << 16, 500),
                rng.integers(0, 1 << 16, 500),
                rng.integers(1, 101, 500),
            )
        )
        dyng.sssp.update(g, batch, r)
    records = {(s.name, s.depth): s for s in prof.stages}
    assert names(prof, 0) == ["sssp.compute", "sssp.update"]
    loop = records[("sssp.loop", 1)]
    assert loop.device_ms > 0.0
    assert {"graph.apply", "sssp.repair"} <= set(names(prof, 1))
    assert {"graph.resolve", "graph.write_rows"} <= set(names(prof, 2))
    # Every stage of a CUDA call is timed on the stream.
    assert all(s.device_ms > 0.0 for s in prof.samples if s.name in ("sssp.compute", "graph.apply"))


def test_a_compute_readies_its_result_so_the_first_update_allocates_nothing(cuda):
    # The repair memory, its mirror and the repair's bucket width come with the compute
    # (sssp.prepare_updates); a first update that made them would be a first-call cost.
    g, rng = rmat_like(cuda)
    with dyng.profile(cuda) as prof:
        r = dyng.sssp.compute(g, 0)
    assert "sssp.prepare_updates" in names(prof)
    assert {"sssp.repair_memory", "sssp.mirror"} <= set(names(prof))
    batch = dyng.EdgeBatch(
        insert=(rng.integers(0, 1 << 16, 50), rng.integers(0, 1 << 16, 50), np.full(50, 7)),
        delete=(g.edges()[0][:50], g.edges()[1][:50]),
    )
    with dyng.profile(cuda) as prof:
        dyng.sssp.update(g, batch, r)
    assert not {"sssp.repair_memory", "sssp.mirror", "sssp.sample_weights"} & set(names(prof))
    assert np.array_equal(r.distances.to_numpy(), dyng.sssp.compute(g, 0).distances.to_numpy())


def test_sync_stages_host_time_covers_device_time(cuda):
    g, _ = rmat_like(cuda)
    dyng.sssp.compute(g, 0)  # warm-up: module load, pool
    with dyng.profile(cuda, sync_stages=True, cuda_events=True) as prof:
        dyng.sssp.compute(g, 0)
    top = prof.stages[0]
    assert top.name == "sssp.compute"
    # The host waited for the stream at every stage end: it cannot have spent less than the
    # events measured (allow the events' resolution).
    assert top.host_ms + 0.05 >= top.device_ms > 0.0


@pytest.mark.parametrize("name", _registry.ALGORITHM_MODULES)
def test_every_algorithm_on_the_device(name, cuda):
    if "cuda" not in _registry.find(name).backends:
        pytest.skip(f"{name} has no CUDA backend yet")
    algorithm = example(name)
    graph = algorithm.graph(cuda)
    with dyng.profile(cuda, cuda_events=True) as prof:
        algorithm.run(getattr(dyng, name), graph)
    assert names(prof, 0) == [f"{name}.compute", f"{name}.update"]
    every = set(names(prof))
    for stage in algorithm.stages["cuda"]:
        assert stage in every, stage
    batch = algorithm.batch()
    assert prof.counters["graph.apply.entries"] == batch.num_insertions + batch.num_deletions


def test_host_graph_with_device_copy_records_the_sync(cuda):
    host = dyng.Resources("openmp")
    g, _ = rmat_like(host, n=4000, m=30000)
    r = dyng.sssp.compute(g, 0, resources=cuda)  # gives the host graph a device copy
    # The apply (and the device copy's sync) runs with the graph's resources, the repair with
    # the result's: each profile gets its own part.
    with dyng.profile(host) as on_host, dyng.profile(cuda) as on_device:
        dyng.sssp.update(g, dyng.EdgeBatch(insert=([1], [2], [3])), r)
    assert names(on_host, 0) == ["sssp.update"]
    assert {"graph.apply", "graph.sync_device"} <= set(names(on_host))
    assert names(on_device, 0) == ["sssp.repair"]
