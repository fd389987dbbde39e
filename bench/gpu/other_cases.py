# The mosp and cycle_count cases that first_call_stages.py --others and kernel_trace.py share:
# mosp on R-MAT 20 with three weights an edge (batches of 1,000 of issue 14's changes, new edges
# with three weights), and cycle_count on cycle_count_steps.py's R-MAT 12 (batches of 10). Not
# run on its own.
import numpy as np
from cycle_count_steps import cycle_graph  # beside this module (sys.path[0]), as is
from issue14_batches import uniform_batch

import dyng
from bench import generators


def mosp_case(resources, rng):
    """(R-MAT 20 with K = 3 weights on `resources`, a maker of its batches of 1,000 changes)."""
    e20 = generators.rmat(20, 16, seed=1)
    w = np.random.default_rng(12).integers(1, 101, size=(e20.num_edges, 3), dtype=np.int32)
    graph = dyng.Graph.from_edges(
        e20.src, e20.dst, w, num_vertices=e20.num_vertices, resources=resources
    )

    def mosp_batch():
        b = uniform_batch(e20, rng, 1000)
        k = b.insert_src.size
        return dyng.EdgeBatch(
            insert=(b.insert_src, b.insert_dst, rng.integers(1, 101, (k, 3), dtype=np.int32)),
            delete=(b.delete_src, b.delete_dst),
        )

    return graph, mosp_batch


def cycle_case(resources, rng):
    """(cycle_count_steps.py's R-MAT 12 on `resources`, a maker of its batches of 10 changes)."""
    e12, graph = cycle_graph(resources)

    def cycle_batch():
        b = uniform_batch(e12, rng, 10)
        return dyng.EdgeBatch(
            insert=(b.insert_src.astype(np.int32), b.insert_dst.astype(np.int32)),
            delete=(b.delete_src.astype(np.int32), b.delete_dst.astype(np.int32)),
        )

    return graph, cycle_batch
