"""What weak components across ranks cost on top of one graph (issue 47's CPU bar: at most 1.2x).

A seeded R-MAT graph (bench's recipe, ``rmat<scale>``) as a plain ``dyng.Graph`` and as a
``dyng.distributed.DistributedGraph`` over the ranks of the launcher (a world of one without
one). First ``--rounds`` computes of each, interleaved (``dyng.components.compute(kind="weak")``
against ``dyng.distributed.components_compute``); then, per size, ``--rounds`` + 1 batches of
``--changes`` each (half deletions of existing edges, half insertions: ``bench.changes``, mode
uniform), each given to ``dyng.components.update`` and to ``components_update``, interleaved:
rank 0 passes the batch and the other ranks an empty part. After the computes and every batch
the gathered labels, sizes and count must equal one graph's, or the run stops with exit status
1. The first batch of each size warms both up.

    .venv/bin/python -m bench.distributed_components [--scale 18] [--changes 1000,100000]
    .venv/bin/mpiexec -n 2 .venv/bin/python -m bench.distributed_components --scale 16

Rank 0 prints the medians of both, their ratio and the bar (the bar holds for one rank; with
more ranks the ratio includes the exchange between processes on the same cores).
"""

from __future__ import annotations

import statistics
import sys

import numpy as np

import dyng
import dyng.distributed as dd
from bench import changes
from bench.distributed_overhead import _batch, _timed, main_for, setup, verdict


def _same(plain_result, dist_result) -> bool:
    """Whether the gathered answer equals one graph's (on every rank: a collective)."""
    labels, sizes = dist_result.gather_labels(), dist_result.gather_sizes()
    return (
        np.array_equal(labels, plain_result.labels.to_numpy())
        and np.array_equal(sizes, plain_result.sizes.to_numpy())
        and dist_result.count == plain_result.count
    )


def _line(what: str, plain_ms: list, dist_ms: list, size: int) -> str:
    p, d = statistics.median(plain_ms), statistics.median(dist_ms)
    bar = verdict(d / p, size)
    return (
        f"  {what}: dyng.components {p:8.2f} ms, distributed {d:8.2f} ms, ratio {d / p:.2f} ({bar})"
    )


def _computes(plain, dgraph, rounds, comm):
    """Times `rounds` computes of each; returns the last results and the two lists of ms."""
    plain_ms, dist_ms, results = [], [], {}

    def plain_compute():
        results["plain"] = dyng.components.compute(plain, kind="weak")

    def dist_compute():
        results["dist"] = dd.components_compute(dgraph)

    for _ in range(rounds):
        plain_ms.append(_timed(plain_compute, None))
        dist_ms.append(_timed(dist_compute, comm))
    return results["plain"], results["dist"], plain_ms, dist_ms


def run(scale: int, counts: list[int], rounds: int, seed: int) -> int:
    # Weighted as bench's batches are; components ignore the weights.
    context, comm, g0, plain, dgraph = setup(f"rmat{scale}", seed)
    say = print if context.rank == 0 else (lambda *args: None)
    say(
        f"rmat{scale}: {g0.num_vertices:,} vertices, {len(g0.src):,} edges; "
        f"{context.size} rank(s) ({context.launcher}); {rounds} rounds"
    )
    plain_result, dist_result, plain_ms, dist_ms = _computes(plain, dgraph, rounds, comm)
    failed = 0 if _same(plain_result, dist_result) else 1
    say(_line("compute", plain_ms, dist_ms, context.size))
    rng = np.random.default_rng(seed)
    for count in counts:
        drawn = changes.make_changes(g0, count * (rounds + 1), "uniform", rng)
        plain_ms, dist_ms = [], []
        for k, part in enumerate(changes.split(drawn, rounds + 1, rng)):
            whole, mine = _batch(part, 0), _batch(part, context.rank)
            t_plain = _timed(lambda: dyng.components.update(plain, whole, plain_result), None)
            t_dist = _timed(lambda: dd.components_update(dgraph, mine, dist_result), comm)
            if k > 0:
                plain_ms.append(t_plain)
                dist_ms.append(t_dist)
            if not _same(plain_result, dist_result):
                say(f"MISMATCH: {count} changes, batch {k}: labels differ from one graph's")
                failed = 1
        g0 = changes.apply_to_edges(g0, drawn)
        say(_line(f"update of {count:>7} changes", plain_ms, dist_ms, context.size))
    return failed


main = main_for(run, __doc__, scale=18, changes="1000,100000", rounds=9)


if __name__ == "__main__":
    sys.exit(main())
