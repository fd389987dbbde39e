"""The mosp benchmark: compute and update on an R-MAT graph, against a reference dyng.

Scenario (issue 12): the bench's R-MAT recipe (``bench.generators.rmat``, scale 20, edge factor
16, seed 1), 3 objectives with weights uniform in 1..100 (seeded), preferences (2, 1, 3), source
0. Per backend: ``mosp.compute``; ``mosp.update`` with 1,000 and 100,000 changes (half
insertions of random edges with random weights, half deletions of existing ones:
``bench.changes``, mode uniform),
each on a fresh clone, beside "apply + recompute" (``Graph.apply`` then ``mosp.compute``) on
another clone. Every update is checked against that fresh compute (combined distances and
parents, path costs, each tree), and the answers of this dyng and the reference must agree
(digests of every array of the compute).

The peer is the dyng of ``--reference-python`` (for example a venv with ``dyng==0.2.0``), run in
alternating fresh processes; the report keeps the best of ``--repeats`` runs per operation.
``ratio = this dyng / reference``. Bars (issue 12): compute at least 3x faster than the
reference on each host backend (ratio <= 1/3; the 2-core machine's bar), every update at most
1.1x this dyng's own apply + recompute, and where the run has a CUDA backend (the H200) CUDA
compute <= 40 ms, CUDA update with 1,000 changes <= 10 ms and below apply + recompute, OpenMP
compute <= 150 ms. CUDA calls return once the device work is done, so wall time is device time.
"""

from __future__ import annotations

from bench import peer, report

PREFERENCES = (2, 1, 3)
COMPUTE_BAR = 1 / 3
UPDATE_BAR = 1.1
# Absolute bars of the H200 run, in seconds: (operation, limit).
GPU_MACHINE_BARS = (("cuda compute", 0.040), ("cuda update 1000", 0.010), ("openmp compute", 0.150))

# Runs in the measured interpreter, with the repository root on sys.path for bench.generators and
# bench.changes (NumPy only) and the dyng found there.
WORKER = r"""
import hashlib, json, sys, time
import numpy as np
import dyng
from dyng import mosp
from bench import changes, generators

scale, repeats = int(sys.argv[1]), int(sys.argv[2])
backends = sys.argv[3].split(",")
counts = [int(c) for c in sys.argv[4].split(",")]
prefs = [int(p) for p in sys.argv[5].split(",")]
edges = generators.rmat(scale, 16, seed=1)
rng = np.random.default_rng(12)
weights = rng.integers(1, 101, size=(edges.num_edges, len(prefs)), dtype=np.int32)
resources = {"sequential": dyng.Resources.sequential, "openmp": dyng.Resources.openmp,
             "cuda": dyng.Resources.cuda}

def graph(res):
    return dyng.Graph.from_edges(edges.src, edges.dst, weights, num_vertices=edges.num_vertices,
                                 resources=res)

def arrays(r):
    out = [r.combined_distances.to_numpy(), r.combined_parents.to_numpy().astype(np.int64),
           r.path_costs.to_numpy()]
    for k in range(r.num_objectives):
        out += [r.distances(k).to_numpy(), r.parents(k).to_numpy().astype(np.int64)]
    return out

def digest(r):
    h = hashlib.sha256()
    for a in arrays(r):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()

def timed(run):
    t = time.perf_counter(); value = run(); return time.perf_counter() - t, value

out = {"dyng": dyng.__version__, "rows": {}, "digests": {}, "mismatches": []}
for name in backends:
    res = resources[name]()
    g0 = graph(res)
    best = None
    for _ in range(repeats):
        seconds, base = timed(lambda: mosp.compute(g0, 0, preferences=prefs, resources=res))
        best = seconds if best is None else min(best, seconds)
    out["rows"][f"{name} compute"] = best
    out["digests"][name] = digest(base)
    for count in counts:
        batch_rng = np.random.default_rng(1000 + count)
        cb = changes.make_changes(edges, count, "uniform", batch_rng)
        inserted = batch_rng.integers(1, 101, size=(cb.insert_src.size, len(prefs)),
                                      dtype=np.int32)
        batch = dyng.EdgeBatch(insert=(cb.insert_src, cb.insert_dst, inserted),
                               delete=(cb.delete_src, cb.delete_dst))
        upd, ref = [], []
        for _ in range(repeats):
            g = g0.clone()  # a result belongs to its graph: computed afresh on each clone
            r = mosp.compute(g, 0, preferences=prefs, resources=res)
            seconds, stats = timed(lambda: mosp.update(g, batch, r))
            upd.append(seconds)
            h = g0.clone()
            def apply_and_compute():
                h.apply(batch)
                return mosp.compute(h, 0, preferences=prefs, resources=res)
            seconds, fresh = timed(apply_and_compute)
            ref.append(seconds)
            if any(not np.array_equal(a, b) for a, b in zip(arrays(r), arrays(fresh))):
                out["mismatches"].append(f"{name} update {count}")
        out["rows"][f"{name} update {count}"] = min(upd)
        out["rows"][f"{name} apply+recompute {count}"] = min(ref)
print(json.dumps(out))
"""


def run(reference, rounds, repeats, scale, backends, counts, progress) -> dict:
    """Alternates this interpreter and the reference `rounds` times; best time per operation."""
    args = (
        scale,
        repeats,
        ",".join(backends),
        ",".join(str(c) for c in counts),
        ",".join(str(p) for p in PREFERENCES),
    )
    mine, theirs = peer.alternate(
        reference, rounds, lambda python: peer.run_worker(python, WORKER, args, "mosp"), progress
    )
    rows = peer.best_rows(
        list(mine[0]["rows"]), [m["rows"] for m in mine], [t["rows"] for t in theirs]
    )
    same = None
    if theirs:
        same = all(m["digests"] == theirs[0]["digests"] for m in mine)
    mismatches = sorted({x for m in mine for x in m["mismatches"]})
    return {
        "rows": rows,
        "dyng": mine[0]["dyng"],
        "reference_dyng": theirs[0]["dyng"] if theirs else None,
        "same_answers_as_reference": same,
        "update_mismatches": mismatches,
    }


def bars(document: dict) -> list[dict]:
    rows = {row["operation"]: row for row in document["rows"]}
    out = []
    for op, row in rows.items():
        backend, kind = op.split(" ", 1)
        if kind == "compute":
            ratio = row.get("ratio")
            out.append(
                {
                    "bar": f"{op}: at least 3x faster than the reference",
                    "status": "SKIP"
                    if ratio is None
                    else ("PASS" if ratio <= COMPUTE_BAR else "FAIL"),
                    "value": None if ratio is None else round(ratio, 3),
                }
            )
        elif kind.startswith("update"):
            count = kind.split()[-1]
            own = row["seconds"] / rows[f"{backend} apply+recompute {count}"]["seconds"]
            out.append(
                {
                    "bar": f"{op} <= {UPDATE_BAR}x apply + recompute",
                    "status": "PASS" if own <= UPDATE_BAR else "FAIL",
                    "value": round(own, 3),
                }
            )
    if any(op.startswith("cuda ") for op in rows):
        for op, limit in GPU_MACHINE_BARS:
            if op in rows:
                ms = rows[op]["seconds"] * 1e3
                out.append(
                    {
                        "bar": f"{op} <= {limit * 1e3:g} ms (H200)",
                        "status": "PASS" if ms <= limit * 1e3 else "FAIL",
                        "value": round(ms, 2),
                    }
                )
        if "cuda update 1000" in rows and "cuda apply+recompute 1000" in rows:
            below = (
                rows["cuda update 1000"]["seconds"] < rows["cuda apply+recompute 1000"]["seconds"]
            )
            out.append(
                {
                    "bar": "cuda update 1000 below apply + recompute",
                    "value": None,
                    "status": "PASS" if below else "FAIL",
                }
            )
    return out + peer.correctness_bars(document)


def text(document: dict) -> str:
    s = document["settings"]
    lines = [
        f"mosp on rmat{s['scale']} (edge factor 16), K = 3, preferences {PREFERENCES}, best "
        f"of {s['repeats']} x {s['rounds']} rounds",
        "",
    ]
    return "\n".join(
        lines + peer.rows_text(document["rows"], "ms") + [""] + report.bars_lines(document["bars"])
    )
