"""One rank of test_distributed_mpi.py's DistributedGraph run (started by mpiexec, never by pytest).

Every rank builds the same seeded graph as a DistributedGraph and, next to it, a single-process
dyng.Graph (the reference). Each batch is the ranks' parts laid end to end: every rank draws
every rank's part from the same seeds, passes its own to apply(), and applies the whole to the
reference. After each batch the shards' union must equal the reference (edges and weights) and
the summaries must agree; a batch whose only bad entry lands on the last rank must leave every
shard unchanged and raise the same error on every rank. exchange_edges() and vote() are also
checked directly: entries arrive in order of sending rank, then position, and the lowest
refusing rank's error is raised everywhere. Rank 0 prints one line of JSON.
"""

import json
import sys

import numpy as np
from mpi4py import MPI

import dyng
import dyng.distributed as dd

N, M, STEPS = 30, 120, 6
SEMANTICS = dyng.BatchSemantics(on_missing_delete="error")


def part_of(step, rank, graph_edges):
    """Rank `rank`'s part of batch `step`: insertions (some to new ids) and real deletions."""
    rng = np.random.default_rng([47, step, rank])
    k = int(rng.integers(0, 12))
    insert = (rng.integers(0, N + 3, k), rng.integers(0, N + 3, k), rng.integers(1, 50, k))
    src, dst, _ = graph_edges
    picks = rng.choice(len(src), size=min(3, len(src)), replace=False) if len(src) else []
    return dyng.EdgeBatch(insert=insert, delete=(src[picks], dst[picks]))


def whole(parts):
    """The ranks' parts laid end to end: the batch the reference applies."""
    ins = [
        np.concatenate([getattr(p, name) for p in parts]) for name in ("insert_src", "insert_dst")
    ]
    weights = np.concatenate([p.insert_weights for p in parts if p.num_insertions] or [[]])
    dels = [
        np.concatenate([getattr(p, name) for p in parts]) for name in ("delete_src", "delete_dst")
    ]
    return dyng.EdgeBatch(insert=(*ins, weights.reshape(-1, 1)), delete=tuple(dels))


def edge_set(src, dst, weights):
    return sorted(zip(src.tolist(), dst.tolist(), weights[:, 0].tolist()))


def union(world, graph):
    rows = world.allgather(edge_set(*graph.local.edges()))
    return sorted(row for rows_of_rank in rows for row in rows_of_rank)


def attempt(action):
    """(value, None), or (None, the dyng error it raised)."""
    try:
        return action(), None
    except dyng.Error as error:
        return None, error


def exchange_in_order(ctx, world, partition):
    """Every rank sends a seeded list; what each receives must be, in order, the entries routed
    to it, by sending rank, then position, weights included."""
    lists = []
    for rank in range(ctx.size):
        rng = np.random.default_rng([48, rank])
        k = int(rng.integers(0, 20))
        lists.append((rng.integers(0, N + 3, k), rng.integers(0, N, k), rng.integers(1, 9, k)))
    src, dst, weights = lists[ctx.rank]
    got = dd.exchange_edges(dd.route_edges(partition, src, dst), src, dst, weights, comm=world)
    expected = sorted(  # by sending rank, then position: the order the exchange promises
        (rank, int(i), int(lists[rank][0][i]), int(lists[rank][1][i]), int(lists[rank][2][i]))
        for rank in range(ctx.size)
        for i in dd.route_edges(partition, lists[rank][0], lists[rank][1]).for_rank(ctx.rank)
    )
    received = list(
        zip(
            got.origins.tolist(),
            got.positions.tolist(),
            got.src.tolist(),
            got.dst.tolist(),
            got.weights[:, 0].tolist(),
        )
    )
    return received == expected


def lowest_refusal_wins(ctx, world):
    """Ranks 1.. refuse with different errors; every rank must raise rank 1's, class and text."""
    mine = None if ctx.rank == 0 else dyng.InvalidArgumentError(f"f(): rank {ctx.rank} refuses")
    if ctx.rank == 2:
        mine = dyng.NotSupportedError("f(): rank 2 refuses otherwise")
    raised = None
    try:
        dd.vote(mine, comm=world)
    except dyng.Error as error:
        raised = (type(error).__name__, str(error))
    return all(
        r == ("InvalidArgumentError", "f(): rank 1 refuses") for r in world.allgather(raised)
    )


def batches_as_one_graph(ctx, world, directed, **options):
    """Seeded batches from every rank on a distributed graph and on one graph alike: (shards'
    union and counts equal after every batch, summaries and refusals equal, batches applied).
    Undirected, the parts delete edges named either way round, and an edge's two directions
    live on two ranks whenever its ends do. `options`: more of both graphs' keywords."""
    rng = np.random.default_rng(47)
    src, dst, weights = rng.integers(0, N, M), rng.integers(0, N, M), rng.integers(1, 50, M)
    options |= dict(semantics=SEMANTICS, directed=directed)
    graph = dd.DistributedGraph.from_edges(src, dst, weights, context=ctx, **options)
    reference = dyng.Graph.from_edges(src, dst, weights, **options)
    equal, summaries = [union(world, graph) == edge_set(*reference.edges())], []

    def compare(parts):
        expected, expected_error = attempt(lambda: reference.apply(whole(parts)))
        got, error = attempt(lambda: graph.apply(parts[ctx.rank]))
        summaries.append(type(error) is type(expected_error) and got == expected)
        equal.append(union(world, graph) == edge_set(*reference.edges()))
        equal.append(graph.num_edges == reference.num_edges)
        equal.append(graph.num_vertices == reference.num_vertices)

    for step in range(STEPS):
        compare([part_of(step, rank, reference.edges()) for rank in range(ctx.size)])
    if not directed:
        for parts in cut_edge_named_both_ways(ctx, graph, reference):
            compare(parts)
    return all(equal), all(summaries), graph.version, graph, reference


def cut_edge_named_both_ways(ctx, graph, reference):
    """Two batches on an edge whose ends rank 0 and the last rank own: rank 0 deletes (u, v)
    and the last rank deletes (v, u), the same edge, so the second deletion is missing and the
    batch is refused everywhere; then rank 0 deletes it and the last rank inserts (v, u) back
    with another weight."""
    owner = graph.partition.owner
    last = ctx.size - 1
    src, dst, _ = reference.edges()
    cut = np.flatnonzero((owner(src) == 0) & (owner(dst) == last))
    u, v = (int(src[cut[0]]), int(dst[cut[0]])) if len(cut) else (0, 0)

    def parts(first, second):
        return [first, *[dyng.EdgeBatch()] * (ctx.size - 2), second]

    delete_back = dyng.EdgeBatch(delete=([v], [u]))
    insert_back = dyng.EdgeBatch(insert=([v], [u], [[77]]))
    return [parts(dyng.EdgeBatch(delete=([u], [v])), b) for b in (delete_back, insert_back)]


def main():
    ctx = dd.init("host")
    world = MPI.COMM_WORLD
    undirected = batches_as_one_graph(ctx, world, directed=False)
    parallel = batches_as_one_graph(ctx, world, directed=False, multi_edges="allow")
    equal, summaries, _, graph, reference = batches_as_one_graph(ctx, world, directed=True)
    before, version = edge_set(*graph.local.edges()), graph.version
    last_start = int(graph.partition.starts[-2])
    missing = (last_start, last_start)  # both endpoints on the last rank only
    absent = missing not in {(u, v) for u, v, _ in edge_set(*reference.edges())}
    bad = dyng.EdgeBatch(insert=([0], [1], [5]), delete=([missing[0]], [missing[1]]))
    mine = bad if ctx.rank == 0 else dyng.EdgeBatch(insert=([1], [2], [6]))
    try:
        graph.apply(mine)
        refused = None
    except dyng.InvalidArgumentError as error:
        refused = str(error)
    unchanged = edge_set(*graph.local.edges()) == before and graph.version == version
    messages = world.allgather(refused)
    unchanged_everywhere = all(world.allgather(unchanged))
    exchanged = all(world.allgather(exchange_in_order(ctx, world, graph.partition)))
    lowest_wins = lowest_refusal_wins(ctx, world)
    if ctx.rank == 0:
        print(
            json.dumps(
                {
                    "size": ctx.size,
                    "equal": equal,
                    "summaries": summaries,
                    "undirected": undirected[:3],
                    "undirected_parallel_edges": parallel[:3],
                    "refused_everywhere": all(m is not None for m in messages),
                    "same_message": len(set(messages)) == 1,
                    "unchanged": unchanged_everywhere,
                    "missing_was_absent": absent,
                    "exchange_in_order": exchanged,
                    "lowest_refusal_wins": lowest_wins,
                }
            )
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
