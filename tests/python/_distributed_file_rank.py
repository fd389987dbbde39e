"""One rank of test_distributed_files.py's mpiexec run (started by mpiexec, never by pytest).

Rank 0 writes the files; every rank then reads them with dyng.distributed.read_edge_list and
read_matrix_market, each keeping only its shard, and checks its shard and the partition against
a DistributedGraph.from_edges of the whole file read by dyng.io: a skewed edge list (its
partition by degrees differs from a split by vertex count, so ranks read their shard again),
an even one, a symmetric Matrix Market file, a given partition, the skewed list and the
symmetric file read undirected (each rank receiving the edges that end at its vertices), and a
broken file, which must raise the same error on every rank. Rank 0 prints one line of JSON.
"""

import json
import os
import tempfile

import numpy as np
from mpi4py import MPI

import dyng
import dyng.distributed as dd
import dyng.io as io


def write_files(folder):
    rng = np.random.default_rng(47)
    n, m = 40, 400
    src = np.where(rng.random(m) < 0.4, 37, rng.integers(0, n, m))  # vertex 37 is a hub
    dst = rng.integers(0, n, m)
    weights = rng.integers(1, 50, m)
    lines = [f"{u} {v} {w}" for u, v, w in zip(src, dst, weights)]
    with open(os.path.join(folder, "skewed.txt"), "w") as f:
        f.write("# duplicates and self-loops included\n" + "\n".join(lines) + "\n")
    even = [f"{u} {(u * 7 + k) % n}" for u in range(n) for k in range(3)]
    with open(os.path.join(folder, "even.txt"), "w") as f:
        f.write("\n".join(even) + "\n")
    entries = [(int(i), int(j)) for i, j in rng.integers(1, n + 1, (120, 2)) if i >= j]
    with open(os.path.join(folder, "sym.mtx"), "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate integer symmetric\n{n} {n} {len(entries)}\n")
        f.writelines(f"{i} {j} {i + j}\n" for i, j in entries)
    with open(os.path.join(folder, "broken.txt"), "w") as f:
        f.write("\n".join(lines[:300] + ["5 oops"] + lines[300:]) + "\n")


def same_as_from_arrays(world, graph, whole, partition=None, **options):
    """graph (read from a file) against from_edges of the whole list: partition and shard."""
    reference = dd.DistributedGraph.from_edges(
        whole.src,
        whole.dst,
        whole.weights,
        num_vertices=whole.num_vertices,
        partition=partition,
        **options,
    )
    mine = [None if a is None else a.tolist() for a in graph.local.edges()]
    expected = [None if a is None else a.tolist() for a in reference.local.edges()]
    same = (
        mine == expected
        and graph.partition.starts.tolist() == reference.partition.starts.tolist()
        and (graph.num_vertices, graph.num_edges) == (reference.num_vertices, reference.num_edges)
        and graph.local.num_vertices == whole.num_vertices
    )
    return all(world.allgather(same))


def main():
    ctx = dd.init("host")
    world = MPI.COMM_WORLD
    folder = world.bcast(tempfile.mkdtemp() if ctx.rank == 0 else None)
    if ctx.rank == 0:
        write_files(folder)
    world.Barrier()
    path = lambda name: os.path.join(folder, name)  # noqa: E731
    skewed = io.read_edge_list_arrays(path("skewed.txt"), num_weights=1, ids="as_is")
    even = io.read_edge_list_arrays(path("even.txt"), ids="as_is")
    sym = io.read_matrix_market_arrays(path("sym.mtx"))
    split = dd.VertexPartition(np.arange(ctx.size + 1) * 10)  # ids past 10*size: the last rank's
    try:
        dd.read_edge_list(path("broken.txt"), num_weights=1)
        raised = None
    except dyng.FileFormatError as error:
        raised = str(error)
    result = {
        "size": ctx.size,
        "skewed": same_as_from_arrays(
            world, dd.read_edge_list(path("skewed.txt"), num_weights=1), skewed
        ),
        "skewed_not_by_count": dd.read_edge_list(
            path("skewed.txt"), num_weights=1
        ).partition.starts.tolist()
        != (np.arange(ctx.size + 1) * skewed.num_vertices // ctx.size).tolist(),
        "even": same_as_from_arrays(world, dd.read_edge_list(path("even.txt")), even),
        "symmetric": same_as_from_arrays(world, dd.read_matrix_market(path("sym.mtx")), sym),
        "given_partition": same_as_from_arrays(
            world,
            dd.read_edge_list(path("skewed.txt"), num_weights=1, partition=split),
            skewed,
            partition=split,
        ),
        "undirected": all(
            [
                same_as_from_arrays(
                    world,
                    dd.read_edge_list(path("skewed.txt"), num_weights=1, directed=False),
                    skewed,
                    directed=False,
                ),
                same_as_from_arrays(
                    world,
                    dd.read_matrix_market(path("sym.mtx"), directed=False),
                    sym,
                    directed=False,
                ),
                same_as_from_arrays(
                    world,
                    dd.read_edge_list(
                        path("skewed.txt"), num_weights=1, directed=False, partition=split
                    ),
                    skewed,
                    partition=split,
                    directed=False,
                ),
            ]
        ),
        "broken_everywhere": raised is not None
        and "broken.txt:301:3" in raised
        and len(set(world.allgather(raised))) == 1,
    }
    if ctx.rank == 0:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
