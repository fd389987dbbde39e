"""One rank of test_distributed_components_mpi.py's property run (started by mpiexec only).

Hypothesis draws the same examples on every rank (derandomized, no database, no deadline or
health checks, which could differ between ranks): a random graph, directed or undirected
(dyng.testing's ``graphs``), then adversarial batches (``batches``: existing and missing deletions, repeats,
self-loops, re-insertions, growth), each cut into one contiguous part per rank, so the parts
laid end to end are the drawn batch. After the compute and after every batch, every rank's
labels and sizes and the count must equal dyng.components.compute on a single-process copy;
the verdict is gathered, so every rank passes, fails and shrinks together. Rank 0 prints one
line of JSON.
"""

import json
import os
import sys

# Ranks outnumber this machine's cores, and MPICH's ranks poll while they wait: one OpenMP
# thread per rank keeps a rank's native compute from waiting on threads that cannot run.
os.environ.setdefault("OMP_NUM_THREADS", "1")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mpi4py import MPI

import dyng
import dyng.distributed as dd
from dyng.testing.strategies import batches, graphs

WORLD = MPI.COMM_WORLD
CTX = dd.init("host")


def cut(batch, cuts_insert, cuts_delete):
    """The part of this rank: its contiguous slice of each list (cut points sorted)."""
    whole = batch.to_batch()
    bounds_i = [0, *sorted(cuts_insert), whole.num_insertions]
    bounds_d = [0, *sorted(cuts_delete), whole.num_deletions]
    r = CTX.rank
    si, sd = slice(bounds_i[r], bounds_i[r + 1]), slice(bounds_d[r], bounds_d[r + 1])
    return dyng.EdgeBatch(
        insert=(whole.insert_src[si], whole.insert_dst[si]),
        delete=(whole.delete_src[sd], whole.delete_dst[sd]),
    )


def agrees(result, reference):
    """Whether every rank's part equals its slice of one graph's answer."""
    fresh = dyng.components.compute(reference, kind="weak")
    start, stop = result.start, result.start + len(result.labels)
    mine = (
        result.labels.tolist() == fresh.labels.tolist()[start:stop]
        and result.sizes.tolist() == fresh.sizes.tolist()[start:stop]
        and result.count == fresh.count
    )
    return all(WORLD.allgather(mine))


def cuts(length):
    return st.lists(st.integers(0, length), min_size=CTX.size - 1, max_size=CTX.size - 1)


@settings(
    max_examples=30,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=False,
)
@given(
    rg=graphs(max_vertices=16, max_edges=30, weighted=False),
    data=st.data(),
    directed=st.booleans(),
)
def check(rg, data, directed):
    src, dst, _ = rg.arrays()
    options = dict(num_vertices=rg.num_vertices, directed=directed)
    graph = dd.DistributedGraph.from_edges(src, dst, context=CTX, **options)
    reference = dyng.Graph.from_edges(src, dst, **options)
    result = dd.components_compute(graph)
    assert agrees(result, reference)
    model = rg.model(directed=directed)
    for step in range(data.draw(st.integers(1, 4))):
        batch = data.draw(batches(model, weighted=False), label=f"batch {step}")
        batch.apply_to(model)
        part = cut(
            batch, data.draw(cuts(batch.num_insertions)), data.draw(cuts(batch.num_deletions))
        )
        reference.apply(batch.to_batch())
        dd.components_update(graph, part, result)
        assert agrees(result, reference), f"batch {step}"


def main():
    check()
    if CTX.rank == 0:
        print(json.dumps({"size": CTX.size, "passed": True}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
