"""The apply benchmark: one large batch on a mid-size graph, and the refusal of bad ones.

Scenario (seeded): a random graph of 1,000,000 vertices and 5,000,000 directed edges with in-edges
(weights 1..99), then one batch of 10,000,000 random insertions and 1,000,000 deletions of
existing edges, applied to a fresh clone each round. Then bad batches that ``Graph.apply`` or
``sssp.update`` must refuse, each of about 10,000,000 entries with one wrong entry: a negative
id as the last entry; under ``on_existing_insert="error"``, an insertion of an existing edge at
2% of the batch and as the last entry (the other insertions distinct and new); under
``on_missing_delete="error"``, a deletion of a missing edge at 2% of distinct deletions; a weight
0 as the last entry for ``sssp.update`` (the batch built beforehand).

Every conversion makes private copies of the caller's arrays before checking them (so that a
change to them during the call cannot reach a graph); 0.2.0 reads the caller's arrays in place.
Those copies (3 x 40 MB for a 10M-insertion batch, about 25 ms here) are most of what the
"sssp weight 0" refusal costs.

The peer is another dyng, measured in the same run: ``--reference-python`` names an interpreter
with it (for example a venv with ``dyng==0.2.0``); the runs alternate (this dyng, the reference,
this dyng, ...), each in a fresh process, and report the best of ``--repeats`` rounds per
operation. ``ratio = this dyng / reference``; the bar is ratio <= 1.1 for every operation.
Without a reference the times are reported alone.
"""

from __future__ import annotations

from bench import peer, report

BAR_RATIO = 1.1
OPERATIONS = (
    "apply 10M+1M",
    "reject: negative id, last",
    "reject: existing insert at 2%",
    "reject: existing insert, last",
    "reject: missing delete at 2%",
    "reject: sssp weight 0, last",
)

# Runs in the measured interpreter: only NumPy and the dyng found there.
WORKER = r"""
import json, sys, time
import numpy as np
import dyng
from dyng import sssp

repeats, scale = int(sys.argv[1]), float(sys.argv[2])
rng = np.random.default_rng(3)
n, m, k, kd = int(1_000_000 * scale), int(5_000_000 * scale), int(10_000_000 * scale), int(1_000_000 * scale)
src = rng.integers(0, n, m, dtype=np.int32); dst = rng.integers(0, n, m, dtype=np.int32)
keep = src != dst
src, dst = src[keep], dst[keep]
w = rng.integers(1, 100, len(src), dtype=np.int32)
ins = [rng.integers(0, n, k, dtype=np.int32), rng.integers(0, n, k, dtype=np.int32),
       rng.integers(1, 100, k, dtype=np.int32)]
pick = rng.integers(0, len(src), kd)
batch = dyng.EdgeBatch(insert=tuple(ins), delete=(src[pick].copy(), dst[pick].copy()))
g0 = dyng.Graph.from_edges(src, dst, w, num_vertices=n)

# Distinct insertions of absent edges, and distinct deletions of present ones, in random order.
keys = ins[0].astype(np.int64) * n + ins[1]
graph_keys = src.astype(np.int64) * n + dst
_, first = np.unique(keys, return_index=True)
first = np.sort(first)
fresh = first[~np.isin(keys[first], graph_keys)]
new_ins = [ins[0][fresh], ins[1][fresh], ins[2][fresh]]
_, present = np.unique(graph_keys, return_index=True)
present = rng.permutation(present)
early = len(fresh) // 50

def best(run):
    times = []
    for _ in range(repeats):
        t = time.perf_counter(); run(); times.append(time.perf_counter() - t)
    return min(times)

def fresh_apply():
    g = g0.clone()
    t = time.perf_counter(); g.apply(batch); return time.perf_counter() - t

def refused(call):
    def run():
        try:
            call()
        except dyng.Error:
            return
        raise SystemExit("a bad batch was applied")
    return run

def with_edge_at(arrays, position, u, v):
    out = [x.copy() for x in arrays]; out[0][position] = u; out[1][position] = v
    return out

out = {"dyng": dyng.__version__}
out["apply 10M+1M"] = min(fresh_apply() for _ in range(repeats))
bad = [x.copy() for x in ins]; bad[1][-1] = -1
out["reject: negative id, last"] = best(refused(lambda: g0.apply(dyng.EdgeBatch(insert=tuple(bad)))))
strict = dyng.Graph.from_edges(src, dst, w, num_vertices=n,
                               semantics=dyng.BatchSemantics(on_existing_insert="error"))
for name, at in (("reject: existing insert at 2%", early), ("reject: existing insert, last", -1)):
    bad_batch = dyng.EdgeBatch(insert=tuple(with_edge_at(new_ins, at, src[0], dst[0])))
    out[name] = best(refused(lambda: strict.apply(bad_batch)))
strict = dyng.Graph.from_edges(src, dst, w, num_vertices=n,
                               semantics=dyng.BatchSemantics(on_missing_delete="error"))
gone = with_edge_at([src[present], dst[present]], len(present) // 50, 0, 0)  # no self-loops stored
bad_batch = dyng.EdgeBatch(delete=tuple(gone))
out["reject: missing delete at 2%"] = best(refused(lambda: strict.apply(bad_batch)))
result = sssp.compute(g0, 0)
bad = [x.copy() for x in ins]; bad[2][-1] = 0
bad_batch = dyng.EdgeBatch(insert=tuple(bad))
out["reject: sssp weight 0, last"] = best(refused(lambda: sssp.update(g0, bad_batch, result)))
print(json.dumps(out))
"""


def run(reference: str | None, rounds: int, repeats: int, scale: float, progress) -> list[dict]:
    """Alternates this interpreter and the reference `rounds` times; best time per operation."""

    def measure(python):
        return peer.run_worker(python, WORKER, (repeats, scale), "apply")

    mine, theirs = peer.alternate(reference, rounds, measure, progress)
    rows = peer.best_rows(OPERATIONS, mine, theirs)
    for row in rows:
        row["dyng"] = mine[0]["dyng"]
        if theirs:
            row["reference_dyng"] = theirs[0]["dyng"]
    return rows


def bars(rows: list[dict]) -> list[dict]:
    out = []
    for row in rows:
        name = f"{row['operation']} <= {BAR_RATIO}x the reference"
        if "ratio" not in row:
            out.append({"bar": name, "status": "SKIP", "value": None})
        else:
            out.append(
                {
                    "bar": name,
                    "status": "PASS" if row["ratio"] <= BAR_RATIO else "FAIL",
                    "value": round(row["ratio"], 3),
                }
            )
    return out


def text(document: dict) -> str:
    s = document["settings"]
    lines = [
        f"Graph.apply on 1M vertices / 5M edges (scale {s['scale']}), best of "
        f"{s['repeats']} x {s['rounds']} rounds",
        "",
    ]
    return "\n".join(
        lines + peer.rows_text(document["rows"], "s") + [""] + report.bars_lines(document["bars"])
    )
