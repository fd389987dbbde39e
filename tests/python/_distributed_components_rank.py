"""One rank of test_distributed_components_mpi.py's run (started by mpiexec, never by pytest).

Every rank builds the same sparse seeded graph as a DistributedGraph (equal vertex ranges, so
the scripted batches know which rank owns what) and, next to it, a single-process dyng.Graph
(the reference). After the compute and after each batch, every rank compares its own part
(labels and sizes of the ids it holds) and the count with dyng.components.compute on the
reference, and the stats must be the same on every rank. The batches: a chain that zigzags
between the first and last ranks (isolated before), cut in the middle (a split spanning ranks),
joined again, closed into a cycle and cut (no split); a batch from the last rank touching only
its own vertices; growth past the last id; then seeded random parts from every rank. Last, a
long path over shuffled ids must settle in about log2(n) rounds, and a batch refused by the
last rank after rank 0 applied its part must leave rank 0's shard result as it was (then
batches that join and part ranks, with splits inside them). Rank 0 prints one line of JSON.

With DYNG_TEST_SHARDS=cuda (test_distributed_device.py, on a GPU machine) the world is a device
world and every rank's shard lives on CUDA device 0, shared by the ranks: the shards' own
components run on the GPU, the rounds on the host over MPI, and the answers must be the same.
"""

import json
import os
import sys

# Ranks outnumber this machine's cores, and MPICH's ranks poll while they wait: one OpenMP
# thread per rank keeps a rank's native compute from waiting on threads that cannot run.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
from mpi4py import MPI

import dyng
import dyng.distributed as dd

N, M, STEPS = 48, 30, 5
SHARDS = os.environ.get("DYNG_TEST_SHARDS", "host")


def world_context():
    """The host world of mpiexec's ranks; with SHARDS == "cuda", the same ranks as a device
    world whose shards all live on device 0 (one GPU serves every rank; nothing goes over
    NCCL yet, so none is needed)."""
    ctx = dd.init("host")
    if SHARDS != "cuda":
        return ctx
    return dd.Context(ctx.rank, ctx.size, 0, "device", "nccl", ctx.launcher, ctx.rendezvous)


def shard_options():
    """from_edges' resources for this run's shards: the default, or CUDA device 0."""
    return {"resources": dyng.Resources.cuda(device=0)} if SHARDS == "cuda" else {}


def random_part(step, rank, reference):
    """Rank `rank`'s part of random batch `step`: insertions (some to new ids), deletions of
    existing edges and of a missing pair."""
    rng = np.random.default_rng([47, 1, step, rank])
    k = int(rng.integers(0, 6))
    n = reference.num_vertices
    insert = (rng.integers(0, n + 2, k), rng.integers(0, n + 2, k))
    src, dst, _ = reference.edges()
    picks = rng.choice(len(src), size=min(3, len(src)), replace=False) if len(src) else []
    deletes = (np.append(src[picks], n - 1), np.append(dst[picks], 0))
    return dyng.EdgeBatch(insert=insert, delete=deletes)


def whole(parts):
    """The ranks' parts laid end to end: the batch the reference applies."""
    arrays = [
        np.concatenate([np.asarray(getattr(p, name), dtype=np.int64) for p in parts])
        for name in ("insert_src", "insert_dst", "delete_src", "delete_dst")
    ]
    return dyng.EdgeBatch(insert=tuple(arrays[:2]), delete=tuple(arrays[2:]))


def chain_of(starts):
    """The first four vertices of the first rank and the last four of the last, alternating:
    a0 b0 a1 b1 ... (distinct in a world of one too)."""
    first, last = np.arange(starts[0], starts[1]), np.arange(starts[-2], starts[-1])
    return [int(v) for pair in zip(first[:4], last[-4:]) for v in pair]


def middle_pair(starts):
    """Two vertices in the middle of the last rank's range, outside the chain."""
    middle = (int(starts[-2]) + int(starts[-1])) // 2
    return middle, middle + 1


def scripted(size, chain, alone_pair):
    """Batches as {rank: part}; the other ranks pass an empty part. The count must change by
    each batch's entry of COUNT_CHANGES."""
    links = list(zip(chain[:-1], chain[1:]))
    cut = links[len(links) // 2]
    close = ([chain[0]], [chain[-1]])
    close_and_cut = {
        0: dyng.EdgeBatch(insert=close),
        size - 1: dyng.EdgeBatch(delete=([cut[1]], [cut[0]])),
    }
    if size == 1:  # both parts are rank 0's
        close_and_cut = {0: dyng.EdgeBatch(insert=close, delete=([cut[1]], [cut[0]]))}
    return [
        {0: dyng.EdgeBatch(insert=tuple(map(list, zip(*links))))},
        {size - 1: dyng.EdgeBatch(delete=([cut[0]], [cut[1]]))},  # splits across ranks
        {0: dyng.EdgeBatch(insert=([cut[1]], [cut[0]]))},
        close_and_cut,  # closes a cycle, then cuts it: no split
        {size - 1: dyng.EdgeBatch(insert=([alone_pair[0]], [alone_pair[1]]))},  # one rank only
        {size - 1: dyng.EdgeBatch(delete=([alone_pair[0]], [alone_pair[1]]))},
        {0: dyng.EdgeBatch(insert=([0, N + 3], [N + 5, chain[3]]))},  # growth
    ]


COUNT_CHANGES = {1: 1, 2: -1, 3: 0}


def agrees(world, result, reference, stats):
    """Whether this rank's part and the count equal a fresh single-process compute, and every
    rank reports the same stats."""
    fresh = dyng.components.compute(reference, kind="weak")
    start, stop = result.start, result.start + len(result.labels)
    mine = (
        result.labels.tolist() == fresh.labels.tolist()[start:stop]
        and result.sizes.tolist() == fresh.sizes.tolist()[start:stop]
        and result.count == fresh.count
        and result.num_vertices == reference.num_vertices
    )
    same_stats = len({repr(s) for s in world.allgather(stats)}) == 1
    return all(world.allgather(mine)) and same_stats


def long_path_settles_in_few_rounds(ctx):
    """A path over 1,000 shuffled ids crosses ranks at most steps: carried one crossing per
    round, its labels would need hundreds of rounds; hooking and shortcutting need about
    log2(n). Labels must still equal one graph's."""
    order = np.random.default_rng(7).permutation(1000).astype(np.int32)
    graph = dd.DistributedGraph.from_edges(order[:-1], order[1:], context=ctx, **shard_options())
    result = dd.components_compute(graph)
    equal = result.labels.tolist() == [0] * len(result.labels) and result.count == 1
    return equal and result.stats.rounds <= 2 * int(np.log2(1000))


def refused_elsewhere_then_merges_and_splits(ctx, world):
    """Each rank's shard keeps its own components result, repaired from its change log. A
    batch that rank 0 applies and the last rank refuses must leave rank 0's result as it was
    (the next update would show a split that never happened); then batches that join ranks
    and part them again, with splits inside a rank between them, must equal one graph's."""
    size, per = ctx.size, 6
    part = dd.VertexPartition.from_degrees(np.ones(per * size, dtype=np.int64), size)
    src = [r * per + i for r in range(size) for i in range(per - 1)]  # a path in each range
    dst = [v + 1 for v in src]
    strict = dyng.BatchSemantics(on_missing_delete="error")
    graph = dd.DistributedGraph.from_edges(
        src,
        dst,
        num_vertices=per * size,
        partition=part,
        context=ctx,
        semantics=strict,
        **shard_options(),
    )
    reference = dyng.Graph.from_edges(src, dst, num_vertices=per * size)
    result = dd.components_compute(graph)
    last = (size - 1) * per
    missing = dyng.EdgeBatch(delete=([last + 1], [last]))  # its rank refuses it
    refused = {0: dyng.EdgeBatch(delete=([2], [3])), size - 1: missing}
    if size == 1:
        refused = {0: dyng.EdgeBatch(delete=([2, 1], [3, 0]))}
    try:
        dd.components_update(graph, refused.get(ctx.rank, dyng.EdgeBatch()), result)
        checks = [False]
    except dyng.InvalidArgumentError:
        checks = [graph.version == result.graph_version == 0]
    script = [
        {0: dyng.EdgeBatch(insert=([0], [last + 4]))},  # joins the first and last ranges
        {size - 1: dyng.EdgeBatch(delete=([last + 1], [last + 2]))},  # splits inside a rank
        {0: dyng.EdgeBatch(delete=([0], [last + 4]))},  # parts them again
        {0: dyng.EdgeBatch(delete=([3], [4]))},  # a split while no rank has a ghost
        {size - 1: dyng.EdgeBatch(insert=([last + 5], [per * size + 2]))},  # growth, no ghost
        {size - 1: dyng.EdgeBatch(insert=([last + 5], [1]), delete=([last + 4], [last + 5]))},
        {0: dyng.EdgeBatch(insert=([4], [3]))},
    ]
    rounds = []
    for batch in script:
        parts = [batch.get(r, dyng.EdgeBatch()) for r in range(size)]
        reference.apply(whole(parts))
        stats = dd.components_update(graph, parts[ctx.rank], result)
        checks.append(agrees(world, result, reference, stats))
        rounds.append(stats.rounds)
    # Parted again, no rank has a ghost: the split and the growth take no round.
    return all(checks) and rounds[3:5] == [0, 0]


def main():
    ctx = world_context()
    world = MPI.COMM_WORLD
    part = dd.VertexPartition.from_degrees(np.ones(N, dtype=np.int64), ctx.size)
    chain = chain_of(part.starts)
    rng = np.random.default_rng(47)
    src, dst = rng.integers(0, N, M, dtype=np.int32), rng.integers(0, N, M, dtype=np.int32)
    clean = ~np.isin(src, chain) & ~np.isin(dst, chain)  # the chain starts isolated
    src, dst = src[clean], dst[clean]
    graph = dd.DistributedGraph.from_edges(
        src, dst, num_vertices=N, partition=part, context=ctx, **shard_options()
    )
    reference = dyng.Graph.from_edges(src, dst, num_vertices=N)
    result = dd.components_compute(graph)
    checks = [agrees(world, result, reference, result.stats)]
    gathered = result.gather_labels(root=0)
    fresh = dyng.components.compute(reference).labels.tolist()
    checks.append((gathered is None) != (ctx.rank == 0))
    checks.append(ctx.rank != 0 or gathered.tolist() == fresh)
    script = scripted(ctx.size, chain, middle_pair(part.starts))
    counts_as_scripted = []
    for step in range(len(script) + STEPS):
        if step < len(script):
            parts = [script[step].get(r, dyng.EdgeBatch()) for r in range(ctx.size)]
        else:
            parts = [random_part(step, r, reference) for r in range(ctx.size)]
        before = result.count
        reference.apply(whole(parts))
        stats = dd.components_update(graph, parts[ctx.rank], result)
        checks.append(agrees(world, result, reference, stats))
        if step in COUNT_CHANGES:
            counts_as_scripted.append(result.count - before == COUNT_CHANGES[step])
    checks.append(long_path_settles_in_few_rounds(ctx))
    equal = all(world.allgather(all(checks)))
    refused_then_mixed = all(world.allgather(refused_elsewhere_then_merges_and_splits(ctx, world)))
    if ctx.rank == 0:
        print(
            json.dumps(
                {
                    "size": ctx.size,
                    "equal": equal,
                    "steps": len(checks),
                    "counts_as_scripted": all(counts_as_scripted),
                    "refused_then_mixed": refused_then_mixed,
                }
            )
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
