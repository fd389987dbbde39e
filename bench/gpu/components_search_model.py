# A host model of the GPU components repair's bounded searches (endpoint_search.cuh): on an
# R-MAT graph with one batch of 1,000 mixed changes (bench's recipe), how many searches decide?
# Weak: a breadth-first search (both directions) from each end of a deleted edge until it meets
# the component's label, closes, or passes CAP_V vertices / CAP_S slots read in chunks of 32.
# Strong (a design question for the strong repair): a two-sided search u ~> v per deleted edge
# inside a component, and v ~> u per inserted edge between components, with the same bounds a
# side. Prints the outcomes and, for the weak searches that reached, the slots and vertices used;
# for each weak search its dependent loads (STEPS, the latency a warp waits through). GROUP=1
# (the default) walks as search_ends does, vertex by vertex; GROUP=32 reads the next 32 queued
# vertices' rows as one run, a variant tried on this model and not taken (it is no shorter).
# SEED=N draws another batch; BATCH=issue14 draws it as issue14_batches.uniform_batch does
# (deletions of existing edges picked with replacement, insertions uniform).
# MEET=1: a weak search also stops at the deleted edge's other end (enough: along an old path to
# the label, each deleted edge is then bypassed, reached through or inside a closed search).
# A weak search probes each vertex it queues, as search_ends does: the first slots of its out- and
# in-row ("reached by probe" when one is the label); PROBE=0 does not.
# REPLAY=N: N successive batches drawn as update_after_read.py draws them (issue14's batches,
# rng seeded with SEED, default 11), each applied to a host dyng graph and searched on the graph
# after it, with the labels before it: the weak outcomes per batch.
#   CAP_V=2048 CAP_S=4096 [GROUP=32] PYTHONPATH=. python3 bench/gpu/components_search_model.py [SCALE]
import os
import sys
import time
from collections import Counter

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from bench import changes, generators

scale = int(sys.argv[1]) if len(sys.argv) > 1 else 22
g = generators.by_name(f"rmat{scale}", 1)
n = g.num_vertices
t = time.time()
rng = np.random.default_rng(int(os.environ.get("SEED", 7)))
if os.environ.get("BATCH") == "issue14":  # as issue14_batches.uniform_batch draws them
    pick = rng.integers(0, len(g.src), 500)
    drawn = changes.ChangeBatch(
        insert_src=rng.integers(0, n, 500).astype(np.int32),
        insert_dst=rng.integers(0, n, 500).astype(np.int32),
        insert_weights=rng.integers(1, 101, 500).astype(np.int32),
        delete_src=g.src[pick],
        delete_dst=g.dst[pick],
        info={"mode": "issue14"},
    )
else:
    drawn = changes.make_changes(g, 1000, "uniform", rng)
# the final graph: remove the deleted edges, add the inserted ones
keys = g.src.astype(np.int64) * n + g.dst
gone = np.isin(keys, drawn.delete_src.astype(np.int64) * n + drawn.delete_dst)
src = np.concatenate([g.src[~gone], drawn.insert_src])
dst = np.concatenate([g.dst[~gone], drawn.insert_dst])
A = csr_matrix((np.ones(len(src), np.int8), (src, dst)), shape=(n, n))
AT = A.T.tocsr()
_, weak = connected_components(
    csr_matrix((np.ones(len(g.src), np.int8), (g.src, g.dst)), shape=(n, n)), connection="weak"
)
_, strong = connected_components(
    csr_matrix((np.ones(len(g.src), np.int8), (g.src, g.dst)), shape=(n, n)), connection="strong"
)


def canon(lab):
    mins = np.full(lab.max() + 1, n, np.int64)
    np.minimum.at(mins, lab, np.arange(n))
    return mins[lab]


weak, strong = canon(weak), canon(strong)
print(f"rmat{scale}: prepared in {time.time() - t:.0f} s")

CAP_V, CAP_S = int(os.environ.get("CAP_V", 2048)), int(os.environ.get("CAP_S", 4096))
MEET = os.environ.get("MEET") == "1"
PROBE = os.environ.get("PROBE", "1") == "1"
GROUP = int(os.environ.get("GROUP", 1))
STEPS = 0
WALKS = []  # STEPS of each weak search


def rows(M, x):
    return M.indices[M.indptr[x] : M.indptr[x + 1]]


USED = []
SEARCH_SLOTS = []  # slots each weak search read, whatever its outcome


def weak_search(e, target, other):
    return _weak_search(e, target, other if MEET else target)


def lists_first(x, target):
    """search_ends' probe of a queued vertex: is the first slot of its out- or in-row `target`?"""
    return any(M.indptr[x] < M.indptr[x + 1] and M.indices[M.indptr[x]] == target for M in (A, AT))


def _weak_search(e, target, other):
    """GROUP=1: as search_ends walks, one queued vertex at a time, its out-row then its in-row,
    each row read in chunks of 32 slots and each chunk counted as 32 slots. GROUP=32: the next 32
    queued vertices' rows read as one run, out-rows then in-rows, slots counted exactly. STEPS
    counts the dependent loads: per group and direction, its queue entries and row bounds (the
    kernel now loads 32 vertices' bounds at once, so for GROUP=1 this counts the walk before
    that); per chunk, its slots."""
    global STEPS

    def done(outcome):
        SEARCH_SLOTS.append(slots)
        return outcome

    seen = [e]
    have = {e}
    slots = 0
    head = 0
    if e == target:
        return done("reached")
    while head < len(seen):
        group = seen[head : head + GROUP]
        head += len(group)
        for M in (A, AT):
            STEPS += 2
            r = np.concatenate([rows(M, x)[: CAP_S + 1] for x in group])
            for base in range(0, len(r), 32):
                chunk = r[base : base + 32]
                STEPS += 1
                slots += 32 if GROUP == 1 else len(chunk)
                if slots > CAP_S:
                    return done("open")
                if ((chunk == target) | (chunk == other)).any():
                    USED.append((slots, len(seen)))
                    return done("reached")
                fresh = [w for w in dict.fromkeys(chunk.tolist()) if w not in have]
                if PROBE and any(lists_first(w, target) for w in fresh):
                    USED.append((slots, len(seen)))
                    return done("reached by probe")
                have.update(fresh)
                seen.extend(fresh)
                if len(seen) > CAP_V:
                    return done("open")
    return done("closed")


def strong_search(u, v):
    sides = [([u], {u}, A), ([v], {v}, AT)]
    heads = [0, 0]
    slots = [0, 0]
    if u == v:
        return "met"
    while True:
        # expand the side with fewer vertices left to expand
        cand = [i for i in (0, 1) if heads[i] < len(sides[i][0])]
        if len(cand) < 2:
            return "closed"
        i = min(cand, key=lambda k: len(sides[k][0]) - heads[k])
        seen, have, M = sides[i]
        other = sides[1 - i][1]
        x = seen[heads[i]]
        heads[i] += 1
        r = rows(M, x)
        for base in range(0, len(r), 32):
            chunk = r[base : base + 32]
            slots[i] += 32
            if slots[i] > CAP_S:
                return "open"
            for w in chunk.tolist():
                if w in other:
                    return "met"
                if w not in have:
                    have.add(w)
                    seen.append(w)
                    if len(seen) > CAP_V:
                        return "open"


REPLAY = int(os.environ.get("REPLAY", 0))
if REPLAY:
    import dyng

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from issue14_batches import uniform_batch

    graph = dyng.Graph.from_edges(g.src, g.dst, g.weights, num_vertices=n)
    result = dyng.components.compute(graph)
    rng = np.random.default_rng(int(os.environ.get("SEED", 11)))
    total = Counter()
    for b in range(REPLAY):
        batch = uniform_batch(g, rng, 1000)
        labels = result.labels.to_numpy().copy()
        dyng.components.update(graph, batch, result)
        src, dst, _ = graph.edges()
        A = csr_matrix((np.ones(len(src), np.int8), (src, dst)), shape=(n, n))
        A.sort_indices()
        AT = A.T.tocsr()
        AT.sort_indices()
        wc = Counter()
        SEARCH_SLOTS.clear()
        for u, v in zip(batch.delete_src.tolist(), batch.delete_dst.tolist()):
            if labels[u] >= 0 and labels[u] == labels[v]:
                for end, other in ((u, v), (v, u)):
                    wc[weak_search(end, int(labels[u]), other)] += 1
        # The kernel's time follows its longest search: a warp reads its slots 32 at a time.
        print(f"batch {b}: {dict(wc)}; slots read: most {max(SEARCH_SLOTS, default=0)}", flush=True)
        total += wc
    print(f"weak end searches over {REPLAY} batches:", dict(total))
    sys.exit(0)

wc, sc = Counter(), Counter()
for u, v in zip(drawn.delete_src.tolist(), drawn.delete_dst.tolist()):
    if weak[u] == weak[v]:
        for end, other in ((u, v), (v, u)):
            STEPS = 0
            wc[weak_search(end, weak[u], other)] += 1
            WALKS.append(STEPS)
    if strong[u] == strong[v]:
        sc[strong_search(u, v)] += 1
    else:
        sc["across components"] += 1
print("weak end searches (500 deletions, 2 ends each):", dict(wc))
u = np.array(USED)
print(
    "reached: slots p50/p90/p99/max",
    np.percentile(u[:, 0], [50, 90, 99]).tolist(),
    u[:, 0].max(),
    "vertices p50/p90/p99/max",
    np.percentile(u[:, 1], [50, 90, 99]).tolist(),
    u[:, 1].max(),
)
print(
    f"weak searches' dependent loads (GROUP={GROUP}): p50/p90/p99",
    np.percentile(WALKS, [50, 90, 99]).tolist(),
    "max",
    max(WALKS),
)
print("strong deletion checks u ~> v:", dict(sc))
ic = Counter()
for u, v in zip(drawn.insert_src.tolist(), drawn.insert_dst.tolist()):
    if strong[u] == strong[v]:
        ic["same component"] += 1
    else:
        ic[strong_search(v, u)] += 1
print("strong insertion checks v ~> u:", dict(ic))
