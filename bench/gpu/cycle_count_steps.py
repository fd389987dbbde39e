"""The time of cycle_count's GPU update beside the graph's apply and a compute, through the public
API, for batches of several sizes on the bench's R-MAT 12 case (max_length 5); prints each
update's path. Used on the H200: python3 bench/gpu/cycle_count_steps.py [counts...]."""

import sys
import time

import numpy as np

import dyng
from bench import changes, generators


def cycle_graph(resources):
    """The bench's cycle_count case: (R-MAT 12's edge list, its graph on `resources`)."""
    e = generators.rmat(12, 8, seed=1)
    graph = dyng.Graph.from_edges(
        e.src.astype(np.int32),
        e.dst.astype(np.int32),
        num_vertices=e.num_vertices,
        properties="cycle_enum_compatible",
        resources=resources,
    )
    return e, graph


def main(counts):
    e, g0 = cycle_graph(dyng.Resources.cuda())
    t = []
    for _ in range(15):
        start = time.perf_counter()
        dyng.cycle_count.compute(g0, max_length=5)
        t.append(time.perf_counter() - start)
    print(f"compute {min(t) * 1e3:.3f} ms")
    for count in counts:
        cb = changes.make_changes(e, count, "uniform", np.random.default_rng(1000 + count))
        batch = dyng.EdgeBatch(
            insert=(cb.insert_src.astype(np.int32), cb.insert_dst.astype(np.int32)),
            delete=(cb.delete_src.astype(np.int32), cb.delete_dst.astype(np.int32)),
        )
        apply_s, update_s = [], []
        for _ in range(10):
            g = g0.clone()
            r = dyng.cycle_count.compute(g, max_length=5)
            h = g0.clone()
            start = time.perf_counter()
            h.apply(batch)
            apply_s.append(time.perf_counter() - start)
            start = time.perf_counter()
            stats = dyng.cycle_count.update(g, batch, r)
            update_s.append(time.perf_counter() - start)
        print(
            f"{count} changes: apply {min(apply_s) * 1e3:.3f} ms, update {min(update_s) * 1e3:.3f} ms, "
            f"path {stats.path}, removed {stats.cycles_removed}, added {stats.cycles_added}"
        )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10, 100, 1000])
