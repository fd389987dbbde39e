# The batches of issue 14's measurements (graph_apply_steps.py, apply_stages.py): half uniform-
# random insertions with weights 1..100, half deletions of existing edges picked uniformly (with
# replacement), for the R-MAT 22 edge list `edges` (bench.generators). Kept apart from
# bench.changes, whose batches insert new edges only and delete distinct ones, so that these
# figures stay comparable with the issue's own table.
import numpy as np

import dyng


def uniform_batch(edges, rng: np.random.Generator, k: int) -> dyng.EdgeBatch:
    ins = k // 2
    n = edges.num_vertices
    s = rng.integers(0, n, ins).astype(np.int32)
    d = rng.integers(0, n, ins).astype(np.int32)
    w = rng.integers(1, 101, ins).astype(np.int32)
    pick = rng.integers(0, len(edges.src), k - ins)
    return dyng.EdgeBatch(insert=(s, d, w), delete=(edges.src[pick], edges.dst[pick]))
