"""What the distributed host path costs on top of one graph (issue 47's CPU bar: at most 1.2x).

A seeded R-MAT graph (bench's recipe, ``rmat<scale>``, weights 1..100) as a plain ``dyng.Graph``
and as a ``dyng.distributed.DistributedGraph`` over the ranks of the launcher (a world of one
without one), then ``--rounds`` batches of ``--changes`` each (half deletions of existing edges,
half insertions of new ones: ``bench.changes``, mode uniform, one draw split so that every batch
changes what the ones before left), each applied to both, interleaved, the same batch for both:
rank 0 passes the batch and the other ranks an empty part, so the distributed batch is the
same. After every round the union of the shards must equal the plain graph's edges (each rank
sends its shard to rank 0), or the run stops with exit status 1.

    .venv/bin/python -m bench.distributed_overhead [--scale 18] [--changes 1000,100000]
    .venv/bin/mpiexec -n 2 .venv/bin/python -m bench.distributed_overhead --scale 18

Rank 0 prints the medians of both, their ratio and the bar (the bar holds for one rank; with
more ranks the ratio includes the exchange between processes on the same cores).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

import dyng
import dyng.distributed as dd
from bench import changes, generators

BAR = 1.2


def _edges(graph):
    src, dst, weights = graph.edges()
    keys = np.asarray(src, dtype=np.int64) * (1 << 32) + np.asarray(dst, dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    return keys[order], np.asarray(weights)[order]


def _gathered_edges(dgraph, comm):
    """The union of the shards' edges on rank 0 (None elsewhere), sorted by key."""
    mine = _edges(dgraph.local)
    parts = [mine] if comm is None else comm.gather(mine, root=0)
    if parts is None:
        return None
    keys = np.concatenate([p[0] for p in parts])
    weights = np.concatenate([p[1] for p in parts])
    order = np.argsort(keys, kind="stable")
    return keys[order], weights[order]


def _batch(part, rank):
    if rank != 0:
        return dyng.EdgeBatch()
    return dyng.EdgeBatch(
        insert=(part.insert_src, part.insert_dst, part.insert_weights),
        delete=(part.delete_src, part.delete_dst),
    )


def _timed(call, comm):
    if comm is not None:
        comm.Barrier()
    start = time.perf_counter()
    call()
    if comm is not None:
        comm.Barrier()
    return (time.perf_counter() - start) * 1e3


def setup(graph: str, seed: int):
    """This process's world, its communicator (None alone), and the bench graph `graph` as
    generated, as one plain Graph and as a DistributedGraph over the world."""
    context = dd.init()
    comm = None
    if context.size > 1:
        from mpi4py import MPI  # under a launcher; init() has checked that mpi4py is there

        comm = MPI.COMM_WORLD
    g0 = generators.by_name(graph, seed)
    plain = dyng.Graph.from_edges(g0.src, g0.dst, g0.weights, num_vertices=g0.num_vertices)
    dgraph = dd.DistributedGraph.from_edges(
        g0.src, g0.dst, g0.weights, num_vertices=g0.num_vertices, context=context
    )
    return context, comm, g0, plain, dgraph


def run(scale: int, counts: list[int], rounds: int, seed: int) -> int:
    context, comm, g0, plain, dgraph = setup(f"rmat{scale}", seed)
    rng = np.random.default_rng(seed)
    failed = 0
    if context.rank == 0:
        print(
            f"rmat{scale}: {g0.num_vertices:,} vertices, {len(g0.src):,} edges; "
            f"{context.size} rank(s) ({context.launcher}); {rounds} rounds per size"
        )
    for count in counts:
        drawn = changes.make_changes(g0, count * (rounds + 1), "uniform", rng)
        parts = changes.split(drawn, rounds + 1, rng)
        plain_ms, dist_ms = [], []
        for k, part in enumerate(parts):
            whole, mine = _batch(part, 0), _batch(part, context.rank)
            t_plain = _timed(lambda: plain.apply(whole), None)
            t_dist = _timed(lambda: dgraph.apply(mine), comm)
            if k > 0:  # the first round warms both up
                plain_ms.append(t_plain)
                dist_ms.append(t_dist)
            union = _gathered_edges(dgraph, comm)
            if union is not None:
                want = _edges(plain)
                same = np.array_equal(union[0], want[0]) and np.array_equal(union[1], want[1])
                if not same:
                    print(f"MISMATCH: {count} changes, round {k}: the shards differ from one graph")
                    failed = 1
        g0 = changes.apply_to_edges(g0, drawn)  # the next size draws from the graph as it is
        if context.rank == 0:
            p, d = statistics.median(plain_ms), statistics.median(dist_ms)
            bar = verdict(d / p, context.size)
            print(
                f"  {count:>7} changes: Graph.apply {p:8.2f} ms, DistributedGraph.apply "
                f"{d:8.2f} ms, ratio {d / p:.2f} ({bar})"
            )
    return failed


def verdict(ratio: float, size: int) -> str:
    """The bar's verdict for a distributed / single-process ratio (the bar is for one rank)."""
    if size != 1:
        return "the bar is for one rank"
    return f"bar <= {BAR}: {'PASS' if ratio <= BAR else 'FAIL'}"


def main_for(run, description: str, *, scale: int, changes: str, rounds: int, named_graph=False):
    """The command line of a distributed benchmark: run(scale, counts, rounds, seed), or with
    `named_graph` run(graph name, ...), the name from --graph (default rmat<scale>)."""

    def main(argv=None) -> int:
        parser = argparse.ArgumentParser(description=description.splitlines()[0])
        parser.add_argument("--scale", type=int, default=scale)
        if named_graph:
            parser.add_argument("--graph", help="a bench graph name (grid512, rmat18)")
        parser.add_argument("--changes", default=changes)
        parser.add_argument("--rounds", type=int, default=rounds)
        parser.add_argument("--seed", type=int, default=1)
        args = parser.parse_args(argv)
        counts = [int(x) for x in args.changes.split(",")]
        graph = (args.graph or f"rmat{args.scale}") if named_graph else args.scale
        return run(graph, counts, args.rounds, args.seed)

    return main


main = main_for(run, __doc__, scale=18, changes="1000,100000", rounds=9)


if __name__ == "__main__":
    sys.exit(main())
