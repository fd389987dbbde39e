# What the device apply moves for a batch, per row layout: a host model (NumPy) for issue 44's
# "batches at memory speed" (100,000 changes in 1 ms). Today a touched sorted row is composed
# again from its first changed slot to its end and written back (compose_old_sorted, then
# place_slots; docs/developer/gpu-apply.md), so a deletion near the front of a hub row moves the
# whole row. The model counts, for the bench's R-MAT graph and issue 14's batches (half
# insertions of uniform pairs, half deletions of existing edges picked uniformly), the slots each
# layout reads and writes, per stored direction (out-rows sorted by target; in-rows, the
# transpose, by source):
#   tail:    today's: per touched row, its slots from the first changed position to its end;
#   chunk C: rows cut into chunks of C slots, each chunk with room of its own, so that a change
#            moves the slots after it in its own chunk only (per touched chunk, from its first
#            changed slot to the chunk's end);
#   change:  a change costs its own slot only (what deletion by tombstone and insertion into a
#            per-row overflow would cost, readers skipping the tombstones): the floor.
# (every layout also writes the changed slots themselves), and what reading and writing those
# slots once costs at a given memory speed (--bandwidth,
# GB/s; a slot is its column id and one weight, 8 bytes). The model ignores the sorts, the
# resolve and launch costs: it says how far each layout's row passes sit from memory speed.
#   PYTHONPATH=.:bench/gpu python bench/gpu/apply_layout_model.py [--scale 22] [--changes 1000,100000]
import argparse

import numpy as np
from issue14_batches import uniform_batch  # beside this script (sys.path[0]), as is

from bench import generators

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--scale", type=int, default=22)
parser.add_argument("--changes", default="1000,100000")
parser.add_argument("--chunks", default="64,256,1024", help="chunk sizes C to model")
parser.add_argument("--bandwidth", type=float, default=3350.0, help="GB/s (H100 SXM: 3,350)")
parser.add_argument("--seed", type=int, default=5)
args = parser.parse_args()

SLOT_BYTES = 8  # an int32 column id and one int32 weight


def sorted_rows(rows: np.ndarray, cols: np.ndarray, n: int):
    """(keys, row_ptr): the distinct (row, col) pairs as row * n + col, sorted, and the CSR
    offsets of each row in them (the layout's row order: by row, then column)."""
    keys = np.unique(rows.astype(np.int64) * n + cols.astype(np.int64))
    row_ptr = np.searchsorted(keys, np.arange(n + 1, dtype=np.int64) * n)
    return keys, row_ptr


def moved_slots(keys, row_ptr, n, change_rows, change_cols, chunks):
    """Per layout, the slots a batch's changes make the apply compose again (one direction)."""
    change_keys = change_rows.astype(np.int64) * n + change_cols.astype(np.int64)
    where = np.searchsorted(keys, change_keys)  # an existing edge's slot, or its insert point
    rows = change_rows.astype(np.int64)
    local = where - row_ptr[rows]
    lengths = row_ptr[rows + 1] - row_ptr[rows]
    order = np.lexsort((local, rows))
    rows, local, lengths = rows[order], local[order], lengths[order]
    first = np.ones(len(rows), dtype=bool)
    first[1:] = rows[1:] != rows[:-1]
    out = {"touched rows": int(first.sum())}
    out["tail"] = int((lengths[first] - local[first]).sum()) + len(rows)
    for size in chunks:
        chunk = local // size
        new_chunk = first.copy()
        new_chunk[1:] |= chunk[1:] != chunk[:-1]
        ends = np.minimum((chunk[new_chunk] + 1) * size, lengths[new_chunk])
        rewritten = (ends - local[new_chunk]).clip(0).sum()
        out[f"chunk {size}"] = int(rewritten) + len(rows)
    out["change"] = len(rows)
    return out


graph = generators.rmat(args.scale, seed=1)
n = graph.num_vertices
chunks = [int(c) for c in args.chunks.split(",") if c]
directions = {
    "out": sorted_rows(graph.src, graph.dst, n),
    "in": sorted_rows(graph.dst, graph.src, n),
}
stored = len(directions["out"][0])
print(f"R-MAT {args.scale}: {n:,} vertices, {stored:,} distinct edges; slot {SLOT_BYTES} bytes;")
print(f"times: the moved slots read and written once at {args.bandwidth:,.0f} GB/s")
rng = np.random.default_rng(args.seed)
for count in (int(c) for c in args.changes.split(",") if c):
    batch = uniform_batch(graph, rng, count)
    src = np.concatenate([batch.insert_src, batch.delete_src])
    dst = np.concatenate([batch.insert_dst, batch.delete_dst])
    print(f"\n{count:,} changes")
    layouts = ["tail", *(f"chunk {c}" for c in chunks), "change"]
    totals = dict.fromkeys(layouts, 0)
    for name, (keys, row_ptr) in directions.items():
        rows, cols = (src, dst) if name == "out" else (dst, src)
        moved = moved_slots(keys, row_ptr, n, rows, cols, chunks)
        cells = ", ".join(f"{k} {moved[k]:,}" for k in layouts)
        print(f"  {name}-rows: {moved['touched rows']:,} touched; slots moved: {cells}")
        for k in layouts:
            totals[k] += moved[k]
    for k in layouts:
        ms = 2 * totals[k] * SLOT_BYTES / (args.bandwidth * 1e9) * 1e3
        share = totals[k] / (2 * stored)
        print(f"  {k:>10}: {totals[k]:>12,} slots ({share:6.2%} of both directions), {ms:7.3f} ms")
