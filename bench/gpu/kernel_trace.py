# What one steady call does on the GPU, launch by launch: the CUDA runtime calls the host makes
# (launches, copies, waits, allocations) and the kernels the device runs, recorded by CUPTI
# through PyTorch's profiler (Nsight Systems does not run on the lent machines). Per call it
# prints the host's time in each kind of runtime call, the kernels' busy time, the device's idle
# gaps between them, and the kernels by name; so a small batch's time can be split into
# launches, waits and work (--stack: and the Python calls between them). Calls: Graph.apply,
# sssp.update, weak (and, named in --calls, strong) components.update and pagerank.update of
# --changes on R-MAT --scale, and
# (when named in --calls) mosp.update of 1,000 changes on R-MAT 20 with K = 3 and
# cycle_count.update of 10 changes on R-MAT 12 (max_length 5), as first_call_stages.py has them;
# each
# after --warm steady calls (--first: the first call of a fresh clone and result, the process
# warmed up by a steady series on another clone first). --python N: also each call N more times
# under cProfile, the Python functions by their own time (the host time between the native
# steps: argument checks, the apply's and the repair's wrappers).
# Run from the repository root on the GPU machine (PyTorch with CUDA must import):
#   PYTHONPATH=<dyng>:.:bench/gpu python3 bench/gpu/kernel_trace.py [--scale 22] [--out DIR]
import argparse
import collections
import cProfile
import json
import os
import pstats
import time

import numpy as np
import torch
from issue14_batches import uniform_batch
from other_cases import cycle_case, mosp_case  # beside this script (sys.path[0]), as is
from torch.profiler import ProfilerActivity, profile

import dyng
from bench import generators

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--scale", type=int, default=22)
parser.add_argument("--changes", type=int, default=1000)
parser.add_argument("--warm", type=int, default=3)
parser.add_argument("--calls", default="apply,sssp,weak,pagerank")
parser.add_argument(
    "--first", action="store_true", help="trace the first call of a fresh clone, not a steady one"
)
parser.add_argument("--stack", action="store_true", help="trace the Python calls too")
parser.add_argument("--python", type=int, default=0, help="cProfile over N more calls")
parser.add_argument("--out", default=os.environ.get("OUT", "."))
args = parser.parse_args()
os.makedirs(args.out, exist_ok=True)  # the traces are written there at the end of each call
resources = dyng.Resources.cuda()
rng = np.random.default_rng(3)
torch.cuda.init()  # CUPTI attaches to this process's context before dyng's first launch
print("dyng", dyng.__version__, "from", dyng.__file__, "torch", torch.__version__)
edges = generators.rmat(args.scale, 16, seed=1)
base = dyng.Graph.from_edges(
    edges.src, edges.dst, edges.weights, num_vertices=edges.num_vertices, resources=resources
)


def batch():
    return uniform_batch(edges, rng, args.changes)


OWN_CASES = {"mosp": mosp_case, "cycle_count": cycle_case}
own_bases = {}


def make_call(name):
    """A fresh clone and result, warmed up; returns the steady call (batch -> anything) and
    the batches' maker."""
    make_batch = batch
    if name in OWN_CASES:
        if name not in own_bases:
            own_bases[name] = OWN_CASES[name](resources, rng)
        source, make_batch = own_bases[name]
    else:
        source = base
    g = source.clone()
    if name == "apply":
        call = g.apply
    else:
        algorithm, compute = {
            "sssp": (dyng.sssp, lambda: dyng.sssp.compute(g, 0)),
            "weak": (dyng.components, lambda: dyng.components.compute(g)),
            "strong": (dyng.components, lambda: dyng.components.compute(g, kind="strong")),
            "pagerank": (dyng.pagerank, lambda: dyng.pagerank.compute(g)),
            "mosp": (dyng.mosp, lambda: dyng.mosp.compute(g, 0, preferences=[2, 1, 3])),
            "cycle_count": (dyng.cycle_count, lambda: dyng.cycle_count.compute(g, max_length=5)),
        }[name]
        result = compute()

        def call(b):
            return algorithm.update(g, b, result)

    for _ in range(0 if args.first else args.warm):
        call(make_batch())
    resources.synchronize()
    return call, make_batch


def summarize(name, events, wall_ms):
    """Host runtime calls by kind, kernels by name, and the device's gaps, from a trace."""
    runtime = collections.defaultdict(lambda: [0, 0.0])
    kernels = collections.defaultdict(lambda: [0, 0.0])
    busy = []
    for e in events:
        if e.get("ph") != "X":
            continue
        cat = e.get("cat", "")
        dur = e.get("dur", 0.0) / 1e3
        if cat in ("cuda_runtime", "cuda_driver"):
            runtime[e["name"]][0] += 1
            runtime[e["name"]][1] += dur
        elif cat in ("kernel", "gpu_memcpy", "gpu_memset"):
            key = e["name"][:90]
            kernels[(cat, key)][0] += 1
            kernels[(cat, key)][1] += dur
            busy.append((e["ts"] / 1e3, e["ts"] / 1e3 + dur))
    busy.sort()
    span = busy[-1][1] - busy[0][0] if busy else 0.0
    work = sum(b - a for a, b in busy)
    print(f"\n== {name}: wall {wall_ms:.3f} ms (profiled)")
    print(
        f"  device: {len(busy)} kernels/copies, busy {work:.3f} ms over a span of {span:.3f} ms"
        f" (idle {span - work:.3f} ms)"
    )
    gaps = sorted(((b[0] - a[1], i) for i, (a, b) in enumerate(zip(busy, busy[1:]))), reverse=True)
    print("  largest device gaps (ms, after item #):", [(round(g, 3), i) for g, i in gaps[:8]])
    print("  host runtime calls: count, total ms")
    for key, (count, total) in sorted(runtime.items(), key=lambda kv: -kv[1][1]):
        print(f"    {key:40s} {count:4d} {total:8.3f}")
    calls = sorted(
        (e for e in events if e.get("ph") == "X" and e.get("cat") == "python_function"),
        key=lambda e: e["ts"],
    )
    first = min((e["ts"] for e in events if e.get("cat") == "cuda_runtime"), default=0)
    print("  Python calls of 5 us or more (start after the first runtime call, us; length, us):")
    for e in calls:
        if e.get("dur", 0) >= 5 and e["ts"] >= first - 2000:
            print(f"    {e['ts'] - first:9.1f} {e['dur']:8.1f}  {e['name'][:80]}")
    print("  device items: count, total ms")
    for (cat, key), (count, total) in sorted(kernels.items(), key=lambda kv: -kv[1][1]):
        print(f"    {cat:10s} {count:4d} {total:8.3f}  {key}")


for name in args.calls.split(","):
    if args.first:  # the kernels loaded and the pool primed, so that the trace shows the clone's
        warm, make_batch = make_call(name)  # and the result's own first-call costs
        for _ in range(args.warm):
            warm(make_batch())
        warm = None
    call, make_batch = make_call(name)
    b = make_batch()
    # --stack: the Python calls too, so the host's time between two native steps has a name (the
    # tracer slows every Python call down, so the host's gaps grow).
    with profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], with_stack=args.stack
    ) as prof:
        start = time.perf_counter()
        call(b)
        resources.synchronize()
        wall = 1e3 * (time.perf_counter() - start)
    path = os.path.join(args.out, f"trace_{name}.json")
    prof.export_chrome_trace(path)
    with open(path) as f:
        summarize(name, json.load(f).get("traceEvents", []), wall)
    if args.python:
        batches = [make_batch() for _ in range(args.python)]
        profiler = cProfile.Profile()
        start = time.perf_counter()
        profiler.enable()
        for b in batches:
            call(b)
        profiler.disable()
        resources.synchronize()
        mean = 1e3 * (time.perf_counter() - start) / args.python
        print(f"  Python functions over {args.python} calls (mean {mean:.3f} ms a call, profiled):")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(18)
