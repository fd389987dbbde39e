"""On the GPU: a DistributedGraph in a device world (issue 47), each shard on its rank's GPU.

A world of one runs on any GPU machine: its shard must apply batches exactly as one device
dyng.Graph does, all or nothing, and the algorithms not yet distributed over device shards
must say so. Several ranks need one GPU each (the multi-GPU kinds).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_distributed_graph import SEMANTICS, assert_applies_as_one_graph

import dyng
import dyng.distributed as dd

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


def test_algorithms_not_yet_distributed_over_device_shards_say_so():
    graph = dd.DistributedGraph.from_edges([0, 1], [1, 2], [3, 4], context=DEVICE_ONE)
    with pytest.raises(dyng.NotSupportedError, match="host shards only"):
        dd.sssp_compute(graph, 0)
    with pytest.raises(dyng.NotSupportedError, match="host shards only"):
        dd.components_compute(graph)


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
