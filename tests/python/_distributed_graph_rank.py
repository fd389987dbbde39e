"""One rank of test_distributed_mpi.py's DistributedGraph run (started by mpiexec, never by pytest).

Every rank builds the same seeded graph as a DistributedGraph and, next to it, a single-process
dyng.Graph (the reference). Each batch is the ranks' parts laid end to end: every rank draws
every rank's part from the same seeds, passes its own to apply(), and applies the whole to the
reference. After each batch the shards' union must equal the reference (edges and weights) and
the summaries must agree; a batch whose only bad entry lands on the last rank must leave every
shard unchanged and raise the same error on every rank. Rank 0 prints one line of JSON.
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


def main():
    ctx = dd.init("host")
    world = MPI.COMM_WORLD
    rng = np.random.default_rng(47)
    src, dst, weights = rng.integers(0, N, M), rng.integers(0, N, M), rng.integers(1, 50, M)
    graph = dd.DistributedGraph.from_edges(src, dst, weights, semantics=SEMANTICS, context=ctx)
    reference = dyng.Graph.from_edges(src, dst, weights, semantics=SEMANTICS)
    equal, summaries = [union(world, graph) == edge_set(*reference.edges())], []
    for step in range(STEPS):
        edges = reference.edges()
        parts = [part_of(step, rank, edges) for rank in range(ctx.size)]
        expected, expected_error = attempt(lambda: reference.apply(whole(parts)))
        got, error = attempt(lambda: graph.apply(parts[ctx.rank]))
        summaries.append(type(error) is type(expected_error) and got == expected)
        equal.append(union(world, graph) == edge_set(*reference.edges()))
        equal.append(graph.num_edges == reference.num_edges)
        equal.append(graph.num_vertices == reference.num_vertices)
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
    if ctx.rank == 0:
        print(
            json.dumps(
                {
                    "size": ctx.size,
                    "equal": all(equal),
                    "summaries": all(summaries),
                    "refused_everywhere": all(m is not None for m in messages),
                    "same_message": len(set(messages)) == 1,
                    "unchanged": unchanged_everywhere,
                    "missing_was_absent": absent,
                }
            )
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
