"""The writer cases of dyng.io, in one place: make_expected.py runs them with dyng 0.2.0 to make
tests/data/io/written/, and tests/python/test_io.py runs them with this dyng and compares the
bytes. `dyng` is whichever dyng module the caller imported; `path(name)` says where a file goes."""

from __future__ import annotations

import numpy as np


def write_all(dyng, path):
    io = dyng.io
    g = dyng.Graph.from_edges(
        [0, 1, 2, 0, 3], [1, 2, 0, 2, 3], [[3, 4], [5, 6], [7, 8], [1, 1], [-2, 2147483647]]
    )
    io.write_edge_list(path("graph.txt"), g)
    io.write_matrix_market(path("graph.mtx"), g)
    io.write_matrix_market(path("graph_col1.mtx"), g, weight_column=1)
    io.write_csr_triplet(path("graph_"), g)
    gu = dyng.Graph.from_edges([0, 1], [1, 2])
    io.write_edge_list(path("unweighted.txt"), gu)
    io.write_matrix_market(path("unweighted.mtx"), gu)
    io.write_edge_list(path("tuple.txt"), (np.array([0, 5], dtype=np.int64), [1, 2], [9, 8]))
    b = dyng.EdgeBatch(insert=([0, 1], [2, 3], [[1, 2], [3, 4]]), delete=([4], [5]))
    io.write_legacy_batch(path("insert.txt"), path("delete.txt"), b)
    io.write_batches(path("batches.dgt"), [b, dyng.EdgeBatch(delete=([1], [2]))])
    io.write_distances(path("distances.txt"), np.array([0, 5, 2**61 - 1, 12], dtype=np.int64))
    io.write_parents(path("parents.txt"), np.array([-1, 0, 1, 1]))
    io.write_path_costs(path("costs.txt"), np.array([[0, 0], [3, 2**61 - 1], [7, 9]]))
    io.write_histogram_csv(path("histogram.csv"), np.array([0, 0, 3, 0, 5], dtype=np.uint64))
    io.write_histogram_csv(path("histogram_nototal.csv"), [0, 0, 3], include_total=False)
