# Where a first call's extra time goes (issue 44, "no first-call tax"): per graph, the profile
# stages of the first Graph.apply on a fresh clone and of the first sssp.update of a fresh result,
# beside the median of the steady calls after them. Every call is profiled with a wait after each
# stage and CUDA event times (dyng.profile(sync_stages=True, cuda_events=True)), so the first and
# the steady calls are timed alike; the wall time of each call is printed too. Three cases per
# graph and batch size:
#   apply:        a fresh clone, its first apply, then 4 more applies;
#   update:       a fresh clone and a fresh compute, its first sssp.update, then 4 more updates;
#   update-warm:  the same clone after those, a fresh compute, its first update (the graph has
#                 applied batches before, so what is left is the result's own first-call cost).
# --others adds, per graph, weak components and pagerank (a fresh clone and compute, the first
# update, then the steady ones), and mosp (R-MAT 20, K = 3, 1,000 changes) and cycle_count
# (R-MAT 12, max_length 5, 10 changes) alike.
# Each batch is made before its call's clock starts. --plain times the same calls without the
# profiler (no stage waits): the figures a user's own timing sees, stages not shown.
# A warm-up on a small grid first (kernels loaded, the pool primed; --cold: none, so the first
# figures also hold the process's one-off costs). mosp and cycle_count (--others) are not warmed
# up: their first figures hold their kernels' loading. dyng's log runs at "info",
# so a re-layout of the rows says so. Run from the repository root on the GPU machine:
#   PYTHONPATH=<dyng>:.:bench/gpu python3 bench/gpu/first_call_stages.py [--graphs rmat22,grid2048]
#     [--changes 1000]
import argparse
import statistics
import time

import numpy as np
from issue14_batches import uniform_batch
from other_cases import cycle_case, mosp_case  # beside this script (sys.path[0]), as is

import dyng
from bench import generators

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--graphs", default="rmat22,grid2048")
parser.add_argument("--changes", default="1000")
parser.add_argument("--steady", type=int, default=4)
parser.add_argument("--others", action="store_true", help="also mosp and cycle_count")
parser.add_argument("--cold", action="store_true", help="no warm-up: the process's first calls")
parser.add_argument("--plain", action="store_true", help="wall times only, without the profiler")
parser.add_argument("--threads", type=int, default=0, help="OpenMP on N threads, not the GPU")
args = parser.parse_args()
resources = (
    dyng.Resources.openmp(num_threads=args.threads) if args.threads else dyng.Resources.cuda()
)
rng = np.random.default_rng(5)
print("dyng", dyng.__version__, "from", dyng.__file__)


def build(edges):
    return dyng.Graph.from_edges(
        edges.src, edges.dst, edges.weights, num_vertices=edges.num_vertices, resources=resources
    )


def profiled(call, make_batch):
    """(wall ms, {stage path: (host ms, device ms)}, the call's path) of call(batch) for a batch
    from make_batch(), every stage waited for (--plain: no profiler, no stages); the path is an
    update's stats.path ("" for an apply)."""
    batch = make_batch()
    if args.plain:
        start = time.perf_counter()
        returned = call(batch)
        resources.synchronize()
        wall = 1e3 * (time.perf_counter() - start)
        return wall, {}, str(getattr(returned, "path", "")).rsplit(".", 1)[-1]
    options = {} if args.threads else {"sync_stages": True, "cuda_events": True}
    with dyng.profile(resources, **options) as prof:
        start = time.perf_counter()
        returned = call(batch)
        wall = 1e3 * (time.perf_counter() - start)
    stages, path = {}, []
    for stage in prof.stages:
        del path[stage.depth :]
        path.append(stage.name)
        key = "/".join(path)
        host, device = stages.get(key, (0.0, 0.0))
        stages[key] = (host + stage.host_ms, device + stage.device_ms)
    return wall, stages, str(getattr(returned, "path", "")).rsplit(".", 1)[-1]


def report(title, first, steady):
    """The first call beside the steady ones, with the paths the updates took: a first update
    that fell back to a recompute is no first-call cost."""
    walls = [w for w, _, _ in steady]
    paths = "" if not first[2] else f" (paths: first {first[2]}, steady {[p for *_, p in steady]})"
    print(
        f"  {title}: first {first[0]:.3f} ms, steady median {statistics.median(walls):.3f} ms"
        + paths
    )
    keys = list(first[1]) + [k for _, s, _ in steady for k in s if k not in first[1]]
    seen = set()
    for key in keys:
        if key in seen:
            continue
        seen.add(key)
        f_host, f_dev = first[1].get(key, (0.0, 0.0))
        s_host = statistics.median(s.get(key, (0.0, 0.0))[0] for _, s, _ in steady)
        s_dev = statistics.median(s.get(key, (0.0, 0.0))[1] for _, s, _ in steady)
        depth = key.count("/")
        name = key.rsplit("/", 1)[-1]
        flag = "  <==" if f_host - s_host > 0.1 else ""
        print(
            f"    {'  ' * depth}{name:32s} first host {f_host:8.3f} dev {f_dev:8.3f}"
            f"   steady host {s_host:8.3f} dev {s_dev:8.3f}{flag}"
        )


def warm_up():
    """Every call the script times, once on a small grid: the process's one-off costs (the
    kernels' loading, the pool's first memory) are then out of every first figure; --cold
    skips it, so that the first figures show them."""
    small = generators.grid(16, 16, 1)
    h = build(small)
    for _ in range(3):
        h.apply(uniform_batch(small, rng, 20))
    for compute, update in (
        (lambda g: dyng.sssp.compute(g, 0), dyng.sssp.update),
        (dyng.components.compute, dyng.components.update),
        (dyng.pagerank.compute, dyng.pagerank.update),
    ):
        g = build(small)
        r = compute(g)
        for _ in range(3):
            update(g, uniform_batch(small, rng, 20), r)
    resources.synchronize()


def first_and_steady(title, base, make_batch, compute, update):
    g = base.clone()
    result = compute(g)
    first = profiled(lambda b: update(g, b, result), make_batch)
    steady = [profiled(lambda b: update(g, b, result), make_batch) for _ in range(args.steady)]
    report(title, first, steady)


if not args.cold:
    warm_up()
dyng.set_log_level("info")
for name in (g for g in args.graphs.split(",") if g):
    edges = generators.by_name(name, 1)
    base = build(edges)
    dyng.sssp.compute(base, 0)
    print(f"{name}: n {edges.num_vertices:,} m {base.num_edges:,}", flush=True)
    for k in (int(c) for c in args.changes.split(",") if c):

        def batch(k=k):
            return uniform_batch(edges, rng, k)

        g = base.clone()
        first = profiled(g.apply, batch)
        steady = [profiled(g.apply, batch) for _ in range(args.steady)]
        report(f"apply {k:,} (fresh clone)", first, steady)
        g = None
        g = base.clone()
        result = dyng.sssp.compute(g, 0)
        first = profiled(lambda b: dyng.sssp.update(g, b, result), batch)
        steady = [
            profiled(lambda b: dyng.sssp.update(g, b, result), batch) for _ in range(args.steady)
        ]
        report(f"sssp.update {k:,} (fresh clone, fresh result)", first, steady)
        result = dyng.sssp.compute(g, 0)
        first = profiled(lambda b: dyng.sssp.update(g, b, result), batch)
        report(f"sssp.update {k:,} (used graph, fresh result)", first, steady)
        g = result = None
        if args.others:
            for title, compute, update in (
                ("components.update (weak)", dyng.components.compute, dyng.components.update),
                ("pagerank.update", dyng.pagerank.compute, dyng.pagerank.update),
            ):
                first_and_steady(f"{title} {k:,}", base, batch, compute, update)
    base = None


if args.others:
    base, mosp_batch = mosp_case(resources, rng)
    first_and_steady(
        "mosp.update 1,000 (R-MAT 20, K = 3)",
        base,
        mosp_batch,
        lambda g: dyng.mosp.compute(g, 0, preferences=[2, 1, 3]),
        dyng.mosp.update,
    )
    base, cycle_batch = cycle_case(resources, rng)
    first_and_steady(
        "cycle_count.update 10 (R-MAT 12, max_length 5)",
        base,
        cycle_batch,
        lambda g: dyng.cycle_count.compute(g, max_length=5),
        dyng.cycle_count.update,
    )
