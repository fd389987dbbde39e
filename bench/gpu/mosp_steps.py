# Where an OpenMP mosp compute spends its time (R-MAT 20, K = 3), through the public API: the
# three trees alone (sssp.compute per objective), then mosp without and with path costs, then the
# combined graph's parts (its build, the MOSP tree, the path costs). BACKEND=sequential|openmp picks
# the backend (default openmp). Run from the repository root:
#   PYTHONPATH=<dyng>:. python3 bench/gpu/mosp_steps.py
import os
import time

import numpy as np

import dyng
from bench import generators

edges = generators.rmat(20, 16, seed=1)
w = np.random.default_rng(12).integers(1, 101, size=(edges.num_edges, 3), dtype=np.int32)
res = getattr(dyng.Resources, os.environ.get("BACKEND", "openmp"))()
g = dyng.Graph.from_edges(edges.src, edges.dst, w, num_vertices=edges.num_vertices, resources=res)
print("cores", os.cpu_count(), "threads", res.num_threads)


def best(f, k=3):
    ts = []
    for _ in range(k):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return min(ts) * 1e3


for obj in range(3):
    print(f"sssp objective {obj}: {best(lambda: dyng.sssp.compute(g, 0, objective=obj)):.1f} ms")
print(
    f"sssp objective 0, no validation: {best(lambda: dyng.sssp.compute(g, 0, validate_inputs=False)):.1f} ms"
)
print(
    f"mosp no costs: {best(lambda: dyng.mosp.compute(g, 0, preferences=[2, 1, 3], compute_path_costs=False)):.1f} ms"
)
print(
    f"mosp no costs, no validation: {best(lambda: dyng.mosp.compute(g, 0, preferences=[2, 1, 3], compute_path_costs=False, validate_inputs=False)):.1f} ms"
)
print(f"mosp: {best(lambda: dyng.mosp.compute(g, 0, preferences=[2, 1, 3])):.1f} ms")
r = dyng.mosp.compute(g, 0, preferences=[2, 1, 3])
print("stats", r.stats.engine_used, r.stats.method, [s.method for s in r.stats.objectives])
# The combined graph's parts: its build (testing.combined_graph, the native builder), the MOSP
# tree on it (sssp.compute on a Graph of it), and the path costs (testing.mosp_path_costs).
parents = [r.parents(k).to_numpy() for k in range(3)]
print(
    f"combined graph build: {best(lambda: dyng.testing.combined_graph(parents, 0, [2, 1, 3])):.1f} ms"
)
csr = dyng.testing.combined_graph(parents, 0, [2, 1, 3])
cg = dyng.Graph.from_csr(csr.row_ptr, csr.col_ind, csr.weights, resources=res)
print(
    f"MOSP tree (sssp on the combined graph): {best(lambda: dyng.sssp.compute(cg, 0, validate_inputs=False)):.1f} ms"
)
mosp_parents = r.combined_parents.to_numpy()
print(
    f"path costs (testing.mosp_path_costs): {best(lambda: dyng.testing.mosp_path_costs(g, mosp_parents, 0)):.1f} ms"
)
