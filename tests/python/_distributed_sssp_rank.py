"""One rank of test_distributed_sssp_mpi.py's run (started by mpiexec, never by pytest).

Every rank builds the same seeded graphs (three shapes) as a DistributedGraph and, next to it, a single-process
dyng.Graph (the reference), and computes sssp on both. Each batch is the ranks' parts laid end
to end (every rank draws every part from the same seeds): deletions of tree edges (whose
subtrees cross ranks), random deletions, insertions with small lengths (ties, so parents are
decided by the canonical rule), re-weights of existing edges and insertions that grow the
graph. After every batch each rank's part, and the gathered arrays on every rank, must equal
the reference's distances and parents bit for bit; the budget alternates so that repairs and
recomputes both run. A batch whose only bad length lands on the last rank must be refused on
every rank and change nothing, and ranks that pass different sources or budgets must all raise.
Rank 0 prints one line of JSON.
"""

import json
import sys

import numpy as np
from mpi4py import MPI

import dyng
import dyng.distributed as dd

STEPS = 12
# (vertices, edges, seed, source, graph options): a middling graph, a sparse one (many
# unreachable vertices) and a dense one with parallel edges and int64 ids (many ties); then
# undirected graphs: a sparse one, and a dense one with parallel edges and int64 ids.
SHAPES = (
    (48, 110, 147, 0, {}),
    (30, 36, 148, 5, {}),
    (20, 160, 149, 19, {"multi_edges": "allow", "vertex_dtype": "int64"}),
    (40, 45, 150, 3, {"directed": False}),
    (20, 70, 151, 11, {"directed": False, "multi_edges": "allow", "vertex_dtype": "int64"}),
)
BUDGETS = (None, 0, 10**9)


def part_of(step, rank, reference, tree_parents):
    """Rank `rank`'s part of batch `step` (every fourth batch comes from rank 0 alone); an
    undirected graph's tree edges are deleted child first in every other batch."""
    rng = np.random.default_rng([147, step, rank])
    if step % 4 == 1 and rank != 0:
        return dyng.EdgeBatch()
    n = reference.num_vertices
    reached = np.flatnonzero(tree_parents >= 0)
    tree = rng.choice(reached, size=min(2, len(reached)), replace=False)
    src, dst, _ = reference.edges()
    picks = rng.choice(len(src), size=min(2, len(src)), replace=False)
    ends = (tree_parents[tree], tree)
    if not reference.directed and step % 2:
        ends = ends[::-1]
    delete = (np.concatenate([ends[0], src[picks]]), np.concatenate([ends[1], dst[picks]]))
    k = int(rng.integers(0, 6))
    grow = 2 if step % 3 == 0 else 0
    insert_src = np.concatenate([rng.integers(0, n, k), src[picks[:1]]])
    insert_dst = np.concatenate([rng.integers(0, n + grow, k), dst[picks[:1]]])
    lengths = rng.integers(1, 5, len(insert_src))
    return dyng.EdgeBatch(insert=(insert_src, insert_dst, lengths), delete=delete)


def subtree_across_ranks(partition, tree_parents, batch, directed):
    """Whether a deleted tree edge's subtree (in the tree before the batch) spans ranks."""
    children = {}
    for v, p in enumerate(tree_parents.tolist()):
        children.setdefault(p, []).append(v)
    pairs = list(zip(batch.delete_src.tolist(), batch.delete_dst.tolist()))
    if not directed:
        pairs += [(v, u) for u, v in pairs]
    for u, v in pairs:
        if v >= len(tree_parents) or tree_parents[v] != u:
            continue
        below, stack = [], [v]
        while stack:
            below.append(stack.pop())
            stack.extend(children.get(below[-1], []))
        if len(set(partition.owner(below).tolist())) > 1:
            return True
    return False


def whole(parts):
    """The ranks' parts laid end to end: the batch the reference applies."""

    def joined(name, dtype=np.int64):
        return np.concatenate([np.asarray(getattr(p, name), dtype) for p in parts])

    weights = np.concatenate(
        [np.asarray(p.insert_weights, np.int64).reshape(-1) for p in parts if p.num_insertions]
        or [np.zeros(0, np.int64)]
    )
    return dyng.EdgeBatch(
        insert=(joined("insert_src"), joined("insert_dst"), weights.reshape(-1, 1)),
        delete=(joined("delete_src"), joined("delete_dst")),
    )


def matches(result, reference_result):
    """This rank's part and the gathered arrays against the reference."""
    distances = reference_result.distances.to_numpy()
    parents = reference_result.parents.to_numpy()
    first, count = result.first, len(result.distances)
    mine = np.array_equal(result.distances, distances[first : first + count]) and np.array_equal(
        result.parents, parents[first : first + count]
    )
    gathered_distances, gathered_parents = result.gather()
    return (
        mine
        and np.array_equal(gathered_distances, distances)
        and np.array_equal(gathered_parents, parents)
        and gathered_parents.dtype == parents.dtype
        and result.num_vertices == len(distances)
    )


def refused_batch(ctx, result):
    """A batch whose only bad entry (length 0) is on the last rank: every rank must raise the
    same error, and the graph and the result must stay as they were."""
    graph = result._graph
    before = (graph.version, graph.num_edges, result.distances.copy(), result.parents.copy())
    bad = ctx.rank == ctx.size - 1
    part = dyng.EdgeBatch(insert=([0], [1], [0 if bad else 3]))
    try:
        dd.sssp_update(graph, part, result)
        message = None
    except dyng.InvalidArgumentError as error:
        message = str(error).splitlines()[0]
    after = (graph.version, graph.num_edges, result.distances, result.parents)
    unchanged = before[:2] == after[:2] and all(
        np.array_equal(b, a) for b, a in zip(before[2:], after[2:])
    )
    return message, unchanged


def disagreement_refused(ctx, graph, result):
    """Ranks that pass different sources, or different budgets, must all raise (no rank may
    run rounds the others do not)."""
    raised = []
    for call in (
        lambda: dd.sssp_compute(graph, ctx.rank),
        lambda: dd.sssp_update(graph, dyng.EdgeBatch(), result, max_invalidated=ctx.rank),
    ):
        try:
            call()
            raised.append(False)
        except dyng.InvalidArgumentError as error:
            raised.append("the ranks passed different" in str(error))
    return all(raised)


def run_graph(ctx, shape):
    """Compute, then STEPS batches, on one seeded graph: what the rank saw."""
    n, m, seed, source, options = shape
    rng = np.random.default_rng(seed)
    src, dst, lengths = rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(1, 5, m)
    graph = dd.DistributedGraph.from_edges(
        src, dst, lengths, num_vertices=n, context=ctx, **options
    )
    reference = dyng.Graph.from_edges(src, dst, lengths, num_vertices=n, **options)
    result, expected = dd.sssp_compute(graph, source), dyng.sssp.compute(reference, source)
    seen = {"equal": [matches(result, expected)], "paths": set(), "crossing": False}
    seen["unreachable"] = False
    for step in range(STEPS):
        tree_parents = expected.parents.to_numpy().astype(np.int64)
        parts = [part_of(step, rank, reference, tree_parents) for rank in range(ctx.size)]
        seen["crossing"] |= subtree_across_ranks(
            graph.partition, tree_parents, whole(parts), graph.directed
        )
        dyng.sssp.update(reference, whole(parts), expected)
        stats = dd.sssp_update(
            graph, parts[ctx.rank], result, max_invalidated=BUDGETS[step % len(BUDGETS)]
        )
        seen["paths"].add(stats.path)
        seen["equal"].append(matches(result, expected))
        unreached = (result.distances == dyng.sssp.INFINITE_DISTANCE).any()
        seen["unreachable"] |= bool(unreached)
    return seen, graph, result


def main():
    ctx = dd.init("host")
    world = MPI.COMM_WORLD
    equal, paths, crossing, unreachable = [], set(), False, False
    for shape in SHAPES:
        seen, graph, result = run_graph(ctx, shape)
        equal += seen["equal"]
        paths |= seen["paths"]
        crossing |= seen["crossing"]
        unreachable |= seen["unreachable"]
    message, unchanged = refused_batch(ctx, result)
    disagreement = all(world.allgather(disagreement_refused(ctx, graph, result)))
    messages = world.allgather(message)
    equal_everywhere = all(world.allgather(all(equal)))
    unreachable = any(world.allgather(unreachable))
    unchanged_everywhere = all(world.allgather(unchanged))
    if ctx.rank == 0:
        report = {
            "size": ctx.size,
            "equal": equal_everywhere,
            "paths": sorted(paths),
            "subtree_across_ranks": crossing,
            "unreachable_seen": unreachable,
            "refused_everywhere": all(m is not None for m in messages),
            "same_message": len(set(messages)) == 1,
            "unchanged": unchanged_everywhere,
            "disagreement_refused": disagreement,
        }
        print(json.dumps(report))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
