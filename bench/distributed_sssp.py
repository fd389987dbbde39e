"""Distributed sssp next to dyng.sssp on the same graph: compute, then updates, checked equal.

A seeded bench graph (``--graph``, by default R-MAT ``rmat<scale>``, weights 1..100) as a plain
``dyng.Graph`` and as a ``dyng.distributed.DistributedGraph`` over the ranks of the launcher (a
world of one without one). sssp from vertex 0 is computed on both (five times, interleaved;
medians), then ``--rounds`` batches of ``--changes`` each (``bench.changes``, as
``bench.distributed_overhead`` draws them; rank 0 passes the batch, the other ranks an empty
part) update both, interleaved. After the compute and every update the distributed result,
gathered on rank 0, must equal dyng.sssp's distances and parents, or the run stops with exit
status 1.

    .venv/bin/python -m bench.distributed_sssp [--scale 16 | --graph grid512] [--changes 100,10000]
    .venv/bin/mpiexec -n 2 .venv/bin/python -m bench.distributed_sssp --scale 16

Rank 0 prints the compute times, the update medians and their ratios. Each rank's part of a
round is native (sssp/detail/owned_search.hpp); the rest of the protocol (routing, votes,
exchanges and, with several ranks, a NumPy pass over a rank's range per round) is Python, which
is what the ratio of a small update measures.
"""

from __future__ import annotations

import statistics
import sys

import numpy as np

import dyng
import dyng.distributed as dd
from bench import changes
from bench.distributed_overhead import _batch, _timed, main_for, setup


def _same(result, plain_result, context) -> bool:
    """Whether the gathered arrays equal one graph's (True on the ranks other than 0)."""
    gathered = result.gather(root=0)
    if gathered is None:
        return True
    same = np.array_equal(gathered[0], plain_result.distances.to_numpy()) and np.array_equal(
        gathered[1], plain_result.parents.to_numpy()
    )
    if not same:
        print(f"MISMATCH: {context}: the distributed result differs from dyng.sssp")
    return same


def _updates(plain, dgraph, results, parts, context, comm):
    """Applies `parts` to both; returns (plain ms, distributed ms, paths, all equal)."""
    plain_ms, dist_ms, paths, equal = [], [], set(), True
    for k, part in enumerate(parts):
        whole, mine = _batch(part, 0), _batch(part, context.rank)
        t_plain = _timed(lambda: dyng.sssp.update(plain, whole, results[0]), None)
        t_dist = _timed(lambda: paths.add(dd.sssp_update(dgraph, mine, results[1]).path), comm)
        if k > 0:  # the first round warms both up
            plain_ms.append(t_plain)
            dist_ms.append(t_dist)
        equal = _same(results[1], results[0], f"round {k}") and equal
    return plain_ms, dist_ms, paths, equal


def run(graph: str, counts: list[int], rounds: int, seed: int) -> int:
    context, comm, g0, plain, dgraph = setup(graph, seed)
    # Medians of interleaved computes: one compute is a few milliseconds on rmat16, within the
    # noise of a shared machine.
    times = [
        (
            _timed(lambda: dyng.sssp.compute(plain, 0), None),
            _timed(lambda: dd.sssp_compute(dgraph, 0), comm),
        )
        for _ in range(5)
    ]
    t_plain = statistics.median(t for t, _ in times)
    t_dist = statistics.median(t for _, t in times)
    results = (dyng.sssp.compute(plain, 0), dd.sssp_compute(dgraph, 0))
    failed = 0 if _same(results[1], results[0], "compute") else 1
    if context.rank == 0:
        print(
            f"{graph}: {g0.num_vertices:,} vertices, {len(g0.src):,} edges; "
            f"{context.size} rank(s); compute: dyng.sssp {t_plain:.1f} ms, distributed "
            f"{t_dist:.1f} ms ({t_dist / t_plain:.1f}x)"
        )
    rng = np.random.default_rng(seed)
    for count in counts:
        drawn = changes.make_changes(g0, count * (rounds + 1), "uniform", rng)
        parts = changes.split(drawn, rounds + 1, rng)
        plain_ms, dist_ms, paths, equal = _updates(plain, dgraph, results, parts, context, comm)
        failed = failed or int(not equal)
        g0 = changes.apply_to_edges(g0, drawn)  # the next size draws from the graph as it is
        if context.rank == 0:
            p, d = statistics.median(plain_ms), statistics.median(dist_ms)
            print(
                f"  {count:>7} changes: dyng.sssp.update {p:8.2f} ms, sssp_update {d:8.2f} ms, "
                f"ratio {d / p:.1f} (paths: {', '.join(sorted(paths))})"
            )
    return failed


main = main_for(run, __doc__, scale=16, changes="100,10000", rounds=5, named_graph=True)


if __name__ == "__main__":
    sys.exit(main())
