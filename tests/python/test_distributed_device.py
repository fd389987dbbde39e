"""On the GPU: a DistributedGraph in a device world (issue 47), each shard on its rank's GPU.

A world of one runs on any GPU machine: its shard must apply batches exactly as one device
dyng.Graph does, all or nothing, its weak components must equal dyng.components on one device
graph batch after batch, and sssp, not yet distributed over device shards, must say so. The
protocol of the weak components' rounds runs under mpiexec with every rank's shard on the one
GPU (the rounds themselves run on the host yet); a world of one GPU per rank needs the
multi-GPU kinds.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_distributed_graph import SEMANTICS, assert_applies_as_one_graph

import dyng
import dyng.distributed as dd

try:  # the mpiexec test needs mpi4py and an MPI; the others run without them
    from test_distributed_components_mpi import (
        COMPONENTS_SCRIPT,
        MPIEXEC,
        passed_components_run,
        run_ranks,
    )
except pytest.skip.Exception:
    COMPONENTS_SCRIPT = MPIEXEC = passed_components_run = run_ranks = None

pytestmark = pytest.mark.gpu
DEVICE_ONE = dd.Context(0, 1, 0, "device", "none", "none", None)


@pytest.mark.parametrize("seed", range(3))
def test_a_device_world_of_one_applies_batches_exactly_as_one_device_graph(seed):
    rng = np.random.default_rng(seed)
    n, m = 30, 90
    src, dst, w = rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(1, 9, m)
    graph = dd.DistributedGraph.from_edges(src, dst, w, semantics=SEMANTICS, context=DEVICE_ONE)
    reference = dyng.Graph.from_edges(
        src, dst, w, semantics=SEMANTICS, resources=dyng.Resources.cuda()
    )
    assert graph.local.space == reference.space == "device"
    assert_applies_as_one_graph(graph, reference, rng)


def test_sssp_not_yet_distributed_over_device_shards_says_so():
    graph = dd.DistributedGraph.from_edges([0, 1], [1, 2], [3, 4], context=DEVICE_ONE)
    with pytest.raises(dyng.NotSupportedError, match="host shards only"):
        dd.sssp_compute(graph, 0)


@pytest.mark.parametrize("seed", range(3))
def test_weak_components_of_a_device_world_of_one_equal_one_device_graphs(seed):
    rng = np.random.default_rng([47, seed])
    n, m = 60, 70
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    graph = dd.DistributedGraph.from_edges(src, dst, num_vertices=n, context=DEVICE_ONE)
    reference = dyng.Graph.from_edges(src, dst, num_vertices=n, resources=dyng.Resources.cuda())
    result = dd.components_compute(graph)
    assert_equals_a_fresh_compute(result, reference)
    for step in range(6):
        ref_src, ref_dst, _ = reference.edges()
        picks = rng.choice(len(ref_src), size=min(8, len(ref_src)), replace=False)
        k = int(rng.integers(1, 6))
        grow = 2 if step == 3 else 0  # one batch reaches ids past the last
        batch = dyng.EdgeBatch(
            insert=(rng.integers(0, n + grow, k), rng.integers(0, n + grow, k)),
            delete=(ref_src[picks], ref_dst[picks]),
        )
        reference.apply(batch)
        dd.components_update(graph, batch, result)
        assert_equals_a_fresh_compute(result, reference)
        n = reference.num_vertices


def assert_equals_a_fresh_compute(result, reference):
    fresh = dyng.components.compute(reference, kind="weak")
    assert result.labels.tolist() == fresh.labels.tolist()
    assert result.sizes.tolist() == fresh.sizes.tolist()
    assert result.count == fresh.count


@pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec (pip install mpich, or a system MPI)")
@pytest.mark.parametrize("ranks", [2, 3])
def test_weak_components_rounds_over_device_shards_equal_one_graphs(ranks, monkeypatch):
    # Every rank's shard on device 0: the shards' components and their repairs run on the GPU,
    # the rounds between the ranks on the host, and every answer must equal one host graph's.
    monkeypatch.setenv("DYNG_TEST_SHARDS", "cuda")
    assert run_ranks(COMPONENTS_SCRIPT, ranks) == passed_components_run(ranks)


def test_a_batch_of_device_arrays_is_refused_with_what_to_do():
    cupy = pytest.importorskip("cupy")
    graph = dd.DistributedGraph.from_edges([0, 1], [1, 2], [3, 4], context=DEVICE_ONE)
    batch = dyng.EdgeBatch(
        insert=(
            cupy.asarray([2], dtype=cupy.int32),
            cupy.asarray([0], dtype=cupy.int32),
            cupy.asarray([5], dtype=cupy.int32),
        )
    )
    with pytest.raises(dyng.NotSupportedError, match="pass NumPy arrays"):
        graph.apply(batch)
    assert graph.version == 0
