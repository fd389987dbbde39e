"""The cycle_count benchmark: compute and update against a reference dyng, with NetworkX and
python-igraph as CPU peers where they finish in reasonable time.

Cases (issue 13):
  rmat12-L5   the bench's R-MAT recipe (``bench.generators.rmat``, scale 12, edge factor 8,
              seed 1: self-loops dropped, duplicates merged), max_length 5; compute, and update
              with 10 and 100 changes (half insertions of random pairs, half deletions of
              existing edges: ``bench.changes``, mode uniform) beside apply + recompute;
  random10k-L8  a uniform random digraph, 10,000 vertices, 40,000 edges (seed 2), max_length 8;
              compute and update with 10 changes;
  scc14-all   a small strongly connected digraph (a 14-vertex ring plus 14 random chords, seed 3),
              every length; compute.
Peers (run in this interpreter, only on the cases where they take seconds, not hours): igraph's
``Graph.simple_cycles(max=L)`` on rmat12 at L = 4 (L = 5 would list 1.5e8 cycles) and on the
other cases; NetworkX's ``simple_cycles(length_bound=L)`` on scc14-all only (on random10k-L8 its
Python walk of every path would take hours). Each peer's histogram must equal dyng's.

The reference is the dyng of ``--reference-python`` (e.g. a venv with ``dyng==0.2.0``), run in
alternating fresh processes; the report keeps the best of ``--repeats`` runs per operation.
``ratio = this dyng / reference``. Bars: sequential compute on rmat12-L5 at least 10x faster than
the reference (the 2-core machine's bar); every update at most 1.1x this dyng's own apply +
recompute; on a machine with at least 16 cores (the H200 host) OpenMP compute <= 1 s and update
with 10 changes <= 20 ms on rmat12-L5; with ``--backends ...,cuda`` (the H200) CUDA compute
<= 5 ms and update with 10 changes <= 1 ms on rmat12-L5.
"""

from __future__ import annotations

from bench import peer, report

COMPUTE_BAR = 0.1
UPDATE_BAR = 1.1
# Absolute bars of a run with >= 16 cores, in seconds.
MANY_CORE_BARS = (("openmp compute", 1.0), ("openmp update 10", 0.020))
# Absolute bars of a run with the cuda backend (the H200), in seconds.
GPU_BARS = (("cuda compute", 0.005), ("cuda update 10", 0.001))

WORKER = r"""
import json, os, sys, time
import numpy as np
import dyng
from bench import changes, generators

repeats = int(sys.argv[1])
backends = sys.argv[2].split(",")
with_peers = sys.argv[3] == "1"
quick = sys.argv[4] == "quick"
resources = {"sequential": dyng.Resources.sequential, "openmp": dyng.Resources.openmp,
             "cuda": dyng.Resources.cuda}

def random_digraph(n, m, seed):
    rng = np.random.default_rng(seed)
    keys = np.unique(rng.integers(0, n, 2 * m) * n + rng.integers(0, n, 2 * m))
    keys = keys[keys // n != keys % n]
    keys = rng.permutation(keys)[:m]
    keys.sort()
    return edge_graph(f"random{n}", n, keys // n, keys % n)

def edge_graph(name, n, src, dst):
    return generators.EdgeGraph(name=name, num_vertices=n, src=np.asarray(src, np.int32),
                                dst=np.asarray(dst, np.int32),
                                weights=np.ones(len(src), np.int32), params={})

def ring_with_chords(n, chords, seed):
    rng = np.random.default_rng(seed)
    pairs = {(v, (v + 1) % n) for v in range(n)}
    while len(pairs) < n + chords:
        u, v = (int(x) for x in rng.integers(0, n, 2))
        if u != v:
            pairs.add((u, v))
    pairs = sorted(pairs)
    return edge_graph(f"scc{n}", n, [u for u, _ in pairs], [v for _, v in pairs])

CASES = [("rmat12-L5", lambda: generators.rmat(12, 8, seed=1), 5, (10, 100)),
         ("random10k-L8", lambda: random_digraph(10000, 40000, 2), 8, (10,)),
         ("scc14-all", lambda: ring_with_chords(14, 14, 3), -1, ())]
if quick:  # the bench's own tests: the same kinds of case, small
    CASES = [("rmat7-L4", lambda: generators.rmat(7, 4, seed=1), 4, (10,)),
             ("random300-L5", lambda: random_digraph(300, 900, 2), 5, (10,)),
             ("scc8-all", lambda: ring_with_chords(8, 6, 3), -1, ())]

def graph(edges, res):
    return dyng.Graph.from_edges(edges.src.astype(np.int32), edges.dst.astype(np.int32),
                                 num_vertices=edges.num_vertices,
                                 properties="cycle_enum_compatible", resources=res)

def histogram(r):
    return [int(c) for c in np.asarray(r.counts.to_numpy())]

def timed(run):
    t = time.perf_counter(); value = run(); return time.perf_counter() - t, value

def peer_rows(name, edges, max_length, want):
    rows = []
    try:
        import igraph
        bound = min(4, max_length) if name.startswith("rmat") else max_length
        g = igraph.Graph(n=int(edges.num_vertices), directed=True,
                         edges=list(zip(edges.src.tolist(), edges.dst.tolist())))
        seconds, cycles = timed(lambda: g.simple_cycles(max=bound, output="epath"))
        hist = [0] * (len(want) if bound < 0 else bound + 1)
        for c in cycles:
            hist[len(c)] += 1
        reference = want[:len(hist)] if bound >= 0 else want
        rows.append({"operation": f"{name} igraph simple_cycles(max={bound})", "seconds": seconds,
                     "same_counts": hist[2:] == reference[2:len(hist)]})
    except ImportError:
        pass
    if name.startswith("scc"):  # NetworkX walks paths in Python: hours on the larger cases
        try:
            import networkx as nx
            g = nx.DiGraph(list(zip(edges.src.tolist(), edges.dst.tolist())))
            g.add_nodes_from(range(int(edges.num_vertices)))
            bound = None if max_length < 0 else max_length
            def count():
                hist = [0] * len(want)
                for c in nx.simple_cycles(g, length_bound=bound):
                    hist[len(c)] += 1
                return hist
            seconds, hist = timed(count)
            rows.append({"operation": f"{name} networkx simple_cycles(length_bound={bound})",
                         "seconds": seconds, "same_counts": hist == want})
        except ImportError:
            pass
    return rows

out = {"dyng": dyng.__version__, "rows": {}, "answers": {}, "mismatches": [], "peers": [],
       "cores": os.cpu_count(), "cases": [name for name, *_ in CASES]}
for name, make, max_length, counts in CASES:
    edges = make()
    for backend in backends:
        res = resources[backend]()
        g0 = graph(edges, res)
        best = None
        for _ in range(repeats):
            seconds, base = timed(lambda: dyng.cycle_count.compute(g0, max_length=max_length,
                                                                   resources=res))
            best = seconds if best is None else min(best, seconds)
        out["rows"][f"{name} {backend} compute"] = best
        out["answers"][f"{name} {backend}"] = histogram(base)
        for count in counts:
            rng = np.random.default_rng(1000 + count)
            cb = changes.make_changes(edges, count, "uniform", rng)
            batch = dyng.EdgeBatch(insert=(cb.insert_src.astype(np.int32), cb.insert_dst.astype(np.int32)),
                                   delete=(cb.delete_src.astype(np.int32), cb.delete_dst.astype(np.int32)))
            upd, ref = [], []
            for _ in range(repeats):
                g = g0.clone()
                r = dyng.cycle_count.compute(g, max_length=max_length, resources=res)
                seconds, _ = timed(lambda: dyng.cycle_count.update(g, batch, r))
                upd.append(seconds)
                h = g0.clone()
                def apply_and_compute():
                    h.apply(batch)
                    return dyng.cycle_count.compute(h, max_length=max_length, resources=res)
                seconds, fresh = timed(apply_and_compute)
                ref.append(seconds)
                if histogram(r) != histogram(fresh):
                    out["mismatches"].append(f"{name} {backend} update {count}")
            out["rows"][f"{name} {backend} update {count}"] = min(upd)
            out["rows"][f"{name} {backend} apply+recompute {count}"] = min(ref)
    if with_peers:
        out["peers"] += peer_rows(name, edges, max_length, out["answers"][f"{name} {backends[0]}"])
print(json.dumps(out))
"""


def run(reference, rounds, repeats, backends, peers, size, progress) -> dict:
    """Alternates this interpreter and the reference `rounds` times; best time per operation.
    The peers run with this dyng only (the reference's interpreter may lack them)."""
    import sys

    def measure(python):
        flag = "1" if peers and python == sys.executable else "0"
        return peer.run_worker(
            python, WORKER, (repeats, ",".join(backends), flag, size), "cycle_count"
        )

    mine, theirs = peer.alternate(reference, rounds, measure, progress)
    rows = peer.best_rows(
        list(mine[0]["rows"]), [m["rows"] for m in mine], [t["rows"] for t in theirs]
    )
    same = None
    if theirs:
        same = all(m["answers"] == theirs[0]["answers"] for m in mine)
    mismatches = sorted({x for m in mine for x in m["mismatches"]})
    return {
        "rows": rows,
        "peers": mine[0]["peers"],
        "cores": mine[0]["cores"],
        "cases": mine[0]["cases"],
        "dyng": mine[0]["dyng"],
        "reference_dyng": theirs[0]["dyng"] if theirs else None,
        "same_answers_as_reference": same,
        "update_mismatches": mismatches,
    }


def bars(document: dict) -> list[dict]:
    rows = {row["operation"]: row for row in document["rows"]}
    out = []
    first = document["cases"][0]  # the R-MAT case
    compute = rows.get(f"{first} sequential compute")
    if compute is not None:
        ratio = compute.get("ratio")
        out.append(
            {
                "bar": f"{first} sequential compute: at least 10x faster than the reference",
                "status": "SKIP" if ratio is None else ("PASS" if ratio <= COMPUTE_BAR else "FAIL"),
                "value": None if ratio is None else round(ratio, 4),
            }
        )
    for op, row in rows.items():
        if " update " not in op:
            continue
        prefix, count = op.rsplit(" update ", 1)
        own = row["seconds"] / rows[f"{prefix} apply+recompute {count}"]["seconds"]
        out.append(
            {
                "bar": f"{op} <= {UPDATE_BAR}x apply + recompute",
                "status": "PASS" if own <= UPDATE_BAR else "FAIL",
                "value": round(own, 3),
            }
        )
    if document["cores"] >= 16:
        for kind, limit in MANY_CORE_BARS:
            op = f"{first} {kind}"
            if op in rows:
                ms = rows[op]["seconds"] * 1e3
                out.append(
                    {
                        "bar": f"{op} <= {limit * 1e3:g} ms (16 cores)",
                        "status": "PASS" if ms <= limit * 1e3 else "FAIL",
                        "value": round(ms, 2),
                    }
                )
    for kind, limit in GPU_BARS:
        op = f"{first} {kind}"
        if op in rows:
            ms = rows[op]["seconds"] * 1e3
            out.append(
                {
                    "bar": f"{op} <= {limit * 1e3:g} ms (GPU)",
                    "status": "PASS" if ms <= limit * 1e3 else "FAIL",
                    "value": round(ms, 3),
                }
            )
    for p in document["peers"]:
        out.append(
            {
                "bar": f"{p['operation']}: same counts as dyng",
                "value": None,
                "status": "PASS" if p["same_counts"] else "FAIL",
            }
        )
    return out + peer.correctness_bars(document)


def text(document: dict) -> str:
    s = document["settings"]
    lines = [
        f"cycle_count, best of {s['repeats']} x {s['rounds']} rounds ({document['cores']} cores)",
        "",
    ]
    peers = [f"{p['operation']:<58} {p['seconds'] * 1e3:>10.1f} ms" for p in document["peers"]]
    return "\n".join(
        lines
        + peer.rows_text(document["rows"], "ms")
        + [""]
        + (["peers (this interpreter)"] + peers + [""] if peers else [])
        + report.bars_lines(document["bars"])
    )
