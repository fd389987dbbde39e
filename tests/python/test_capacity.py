"""Vertex counts whose row storage cannot fit in memory raise instead of killing the process."""

import numpy as np
import pytest

import dyng

HUGE_ID = 2**40  # 2**40 rows of int64 offsets: tens of TiB, more than any test machine has.


def test_from_edges_with_a_huge_id_raises_out_of_memory():
    src = np.array([0], dtype=np.int64)
    dst = np.array([HUGE_ID], dtype=np.int64)
    with pytest.raises(dyng.OutOfMemoryError, match=str(HUGE_ID + 1)):
        dyng.Graph.from_edges(src, dst, [1])


def test_batch_growing_to_a_huge_id_raises_and_changes_nothing():
    graph = dyng.Graph.from_edges(np.array([0, 1], dtype=np.int64),
                                  np.array([1, 2], dtype=np.int64), [3, 4])
    result = dyng.sssp.compute(graph, 0)
    before = graph.to_csr()
    batch = dyng.EdgeBatch(insert=(np.array([0], dtype=np.int64),
                                   np.array([HUGE_ID], dtype=np.int64), [1]))
    with pytest.raises(dyng.OutOfMemoryError, match="vertex id"):
        dyng.sssp.update(graph, batch, result)
    after = graph.to_csr()
    assert graph.version == 0 and graph.num_vertices == 3
    assert np.array_equal(before.row_ptr, after.row_ptr)
    assert np.array_equal(before.col_ind, after.col_ind)
    assert result.distances.tolist() == [0, 3, 7]
