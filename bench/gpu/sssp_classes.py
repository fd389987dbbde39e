# sssp per graph class (issue 44): compute and update on each class through the public API, the
# first call beside the steady ones, so that one call measures this build and a peer (dyng 0.2.0
# on PYTHONPATH) alike. Per graph (bench.generators names: rmat22, uniform22, uniform24,
# uniform26, grid2048, road2048, ...):
# * compute: the first call on the freshly built graph, then the median of --repeats;
# * per batch size (issue 14's batches: half uniform-random insertions, half deletions of
#   existing edges), in --rounds rounds on a fresh clone and a fresh compute: the first
#   sssp.update of the result, then --steady more updates of it with new batches, each result
#   checked against a fresh compute of its graph (distances and parents, untimed) after every
#   update;
# * the recompute peer: on a fresh clone, Graph.apply of a batch then sssp.compute (median).
# An untimed warm-up on a small grid first (compute, update, apply) keeps the process's one-off
# costs (module loading, the first allocations) out of every class's first figures. --json
# writes the rows in `python -m bench sssp`'s format, so `python -m bench plot FILE.json` draws
# the per-class chart (matplotlib need not be on the GPU machine). uniform26 (2^30 edges) is left out by default:
# bench/README.md gives the host memory its edge list takes. Run from the repository root:
#   PYTHONPATH=<dyng>:. python3 bench/gpu/sssp_classes.py [--graphs rmat22,uniform22,grid2048]
#     [--changes 1000,100000] [--threads N] [--json $OUT/sssp-classes.json]
import argparse
import json
import statistics
import sys
import time

import numpy as np
from issue14_batches import uniform_batch  # beside this script (sys.path[0])

import dyng
from bench import generators
from bench.timing import quiet_ms

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--graphs", default="rmat22,uniform22,uniform24,grid2048,road2048")
parser.add_argument("--changes", default="1000,100000")
parser.add_argument("--repeats", type=int, default=5, help="computes after the first")
parser.add_argument("--rounds", type=int, default=3, help="fresh results per batch size")
parser.add_argument("--steady", type=int, default=5, help="updates per result after its first")
parser.add_argument("--threads", type=int, default=0, help="OpenMP on N threads, not the GPU")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--json", default=None, help="also write the rows here")
args = parser.parse_args()
BACKEND = "cuda" if args.threads == 0 else "omp"
resources = (
    dyng.Resources.cuda() if BACKEND == "cuda" else dyng.Resources.openmp(num_threads=args.threads)
)
rng = np.random.default_rng(5)
print("dyng", dyng.__version__, "from", dyng.__file__, "backend", BACKEND)


def host(array):
    return np.asarray(array.to_numpy() if hasattr(array, "to_numpy") else array)


def check(graph, result, what):
    fresh = dyng.sssp.compute(graph, 0)
    for field in ("distances", "parents"):
        if not np.array_equal(host(getattr(result, field)), host(getattr(fresh, field))):
            raise SystemExit(f"sssp_classes.py: {what}: {field} differ from a fresh compute")


def update_rounds(base, edges, k, rounds):
    """(first update ms per round, steady update ms, the last update's path) on fresh results."""
    first, steady, path = [], [], "-"
    for r in range(rounds):
        graph = base.clone()
        result = dyng.sssp.compute(graph, 0)
        times = []
        for _ in range(1 + args.steady):
            batch = uniform_batch(edges, rng, k)
            ms, stats = quiet_ms(lambda: dyng.sssp.update(graph, batch, result))
            times.append(ms)
            check(graph, result, f"{edges.name}, {k} changes, round {r}, update {len(times)}")
        first.append(times[0])
        steady += times[1:]
        path = str(getattr(stats, "path", getattr(stats, "method", "-")))
        graph = result = None  # before the next clone: one clone on the device at a time
    return first, steady, path


def recompute_ms(base, edges, k):
    times = []
    for _ in range(args.repeats):
        graph, batch = base.clone(), uniform_batch(edges, rng, k)
        times.append(quiet_ms(lambda: (graph.apply(batch), dyng.sssp.compute(graph, 0)))[0])
        graph = None
    return statistics.median(times)


def build(edges):
    return dyng.Graph.from_edges(
        edges.src, edges.dst, edges.weights, num_vertices=edges.num_vertices, resources=resources
    )


def warm_up():
    small = generators.grid(16, 16, args.seed)
    update_rounds(build(small), small, 20, 1)
    recompute_ms(build(small), small, 20)


def measure(name):
    start = time.perf_counter()
    edges = generators.by_name(name, args.seed)
    made = time.perf_counter() - start
    base = build(edges)
    print(f"{name}: n {edges.num_vertices:,} m {base.num_edges:,} (generated in {made:.1f} s)")
    first_ms, _ = quiet_ms(lambda: dyng.sssp.compute(base, 0))
    steady_ms = statistics.median(
        quiet_ms(lambda: dyng.sssp.compute(base, 0))[0] for _ in range(args.repeats)
    )
    # dyng_<b>_ms as `python -m bench sssp` has it: the compute's median, the first update.
    rows = [row(edges, base, "compute", first_ms, steady_ms, steady_ms)]
    print(f"  compute first {first_ms:9.2f} ms  steady {steady_ms:9.2f} ms", flush=True)
    for k in counts:
        first, steady, path = update_rounds(base, edges, k, args.rounds)
        again = recompute_ms(base, edges, k)
        cells = row(
            edges, base, f"update uniform {k}", statistics.median(first), statistics.median(steady)
        )
        cells.update(
            {
                f"ref_{BACKEND}_ms": again,
                f"ratio_{BACKEND}": cells[f"dyng_{BACKEND}_ms"] / again,
                f"path_{BACKEND}": path,
                "mode": "uniform",
                "changes": k,
            }
        )
        rows.append(cells)
        print(
            f"  update {k:>7,}: first {cells[f'first_{BACKEND}_ms']:9.2f} ms (each round: "
            f"{', '.join(f'{t:.2f}' for t in first)})  steady {cells[f'steady_{BACKEND}_ms']:9.2f}"
            f" ms  apply + compute {again:9.2f} ms  path {path}",
            flush=True,
        )
    return rows


def row(edges, base, operation, first, steady, headline=None):
    return {
        "graph": edges.name,
        "n": edges.num_vertices,
        "m": base.num_edges,
        "operation": operation,
        f"dyng_{BACKEND}_ms": first if headline is None else headline,
        f"first_{BACKEND}_ms": first,
        f"steady_{BACKEND}_ms": steady,
    }


counts = [int(c) for c in args.changes.split(",") if c]
warm_up()
rows = []
for name in (g for g in args.graphs.split(",") if g):
    rows += measure(name)
if args.json:
    document = {
        "benchmark": "sssp",
        "started": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "argv": sys.argv,
        "settings": {"backends": [BACKEND], "repeats": args.repeats, "scipy": False},
        "machine": {"dyng_version": str(dyng.__version__)},
        "rows": rows,
    }
    with open(args.json, "w") as out:
        json.dump(document, out, indent=1)
    print("JSON:", args.json)
