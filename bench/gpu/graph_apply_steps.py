# Graph.apply, sssp.update and sssp.compute on R-MAT 22 (4,194,304 vertices, about 65 million
# edges, weights 1..100) on the device and with OpenMP (16 threads) on the host, through the public
# API, and the memory a device graph holds per stored edge, on the device and on the host. Batches
# are half uniform-random insertions and half deletions of existing edges; with CuPy installed, the
# same batches from CuPy arrays too (staged on the device, no host copy). Only public calls time
# anything, so the same script measures a peer build (dyng 0.2.0 on PYTHONPATH) in the same call;
# the figures that need this build's internals (bytes per edge) are skipped there. Run from the
# repository root on a machine with a GPU:
#   PYTHONPATH=<dyng>:. python3 bench/gpu/graph_apply_steps.py
import time

import numpy as np
from issue14_batches import uniform_batch  # beside this script (sys.path[0])

import dyng
from bench import generators

g0 = generators.by_name("rmat22", 1)
print("dyng", dyng.__version__, "from", dyng.__file__)
print("n", g0.num_vertices, "m", len(g0.src))
omp = dyng.Resources.openmp(num_threads=16)
cuda = dyng.Resources.cuda()
dev = dyng.Graph.from_edges(
    g0.src, g0.dst, g0.weights, num_vertices=g0.num_vertices, resources=cuda
)
m = dev.num_edges
rng = np.random.default_rng(5)


def batch(k):
    return uniform_batch(g0, rng, k)


t = time.perf_counter()
dev.apply(batch(1000))
print(f"first apply {1e3 * (time.perf_counter() - t):.2f} ms")
t = time.perf_counter()
c = dev.clone()
print(f"clone on the device {1e3 * (time.perf_counter() - t):.2f} ms")
del c
host = dyng.Graph.from_edges(
    g0.src, g0.dst, g0.weights, num_vertices=g0.num_vertices, resources=omp
)
native = getattr(dev, "_native", None)
if native is not None and hasattr(native, "device_bytes"):  # this build's internals only
    print(
        f"device graph: {native.device_bytes / m:.1f} B/edge on the device, "
        f"{native.host_bytes / m:.1f} B/edge on the host; "
        f"host graph: {host._native.host_bytes / m:.1f} B/edge"
    )
for k in (1000, 100000):
    for name, g in (("cuda", dev), ("openmp16", host)):
        ts = []
        for _rep in range(7):
            b = batch(k)
            t = time.perf_counter()
            g.apply(b)
            ts.append((time.perf_counter() - t) * 1e3)
        print(f"apply {k:>6} {name:9s} median {np.median(ts[1:]):7.2f} ms  min {min(ts[1:]):7.2f}")
try:
    import cupy
except ImportError:
    cupy = None


def on_device(b):
    w = b.insert_weights
    return dyng.EdgeBatch(
        insert=(cupy.asarray(b.insert_src), cupy.asarray(b.insert_dst), cupy.asarray(w)),
        delete=(cupy.asarray(b.delete_src), cupy.asarray(b.delete_dst)),
    )


if cupy is not None:
    for k in (1000, 100000):
        ts = []
        for _rep in range(7):
            b = on_device(batch(k))
            cupy.cuda.Device().synchronize()
            t = time.perf_counter()
            dev.apply(b)
            ts.append((time.perf_counter() - t) * 1e3)
        print(
            f"apply {k:>6} cuda, CuPy batch median {np.median(ts[1:]):7.2f} ms  min {min(ts[1:]):7.2f}"
        )
# sssp.update (its apply included) on both graphs, next to the apply alone above, then a fresh
# compute on the updated graphs.
results = {"cuda": dyng.sssp.compute(dev, 0), "openmp16": dyng.sssp.compute(host, 0)}
for k in (1000, 100000):
    for name, g in (("cuda", dev), ("openmp16", host)):
        ts = []
        for _rep in range(7):
            b = batch(k)
            t = time.perf_counter()
            st = dyng.sssp.update(g, b, results[name])
            ts.append((time.perf_counter() - t) * 1e3)
        print(
            f"sssp.update {k:>6} {name:9s} median {np.median(ts[1:]):7.2f} ms  min {min(ts[1:]):7.2f}  ({getattr(st, 'method', '-')})"
        )
    if cupy is not None:
        ts = []
        for _rep in range(7):
            b = on_device(batch(k))
            cupy.cuda.Device().synchronize()
            t = time.perf_counter()
            st = dyng.sssp.update(dev, b, results["cuda"])
            ts.append((time.perf_counter() - t) * 1e3)
        print(
            f"sssp.update {k:>6} cuda, CuPy batch median {np.median(ts[1:]):7.2f} ms  min {min(ts[1:]):7.2f}"
        )
for name, g in (("cuda", dev), ("openmp16", host)):
    ts = []
    for _rep in range(5):
        t = time.perf_counter()
        dyng.sssp.compute(g, 0)
        ts.append((time.perf_counter() - t) * 1e3)
    print(f"sssp.compute {name:9s} median {np.median(ts[1:]):7.2f} ms  min {min(ts[1:]):7.2f}")
