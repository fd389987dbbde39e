"""One rank of test_distributed_mpi.py's smoke run (started by mpiexec, never by pytest).

Every rank builds the partition, its shard and the routing of one batch from the same seeded
input, then the ranks compare through MPI: the boundaries and routing must be identical on all
ranks, and the shards must split the edges exactly once. Rank 0 prints one line of JSON.
"""

import json
import sys

import numpy as np
from mpi4py import MPI

import dyng
import dyng.distributed as dd


def main():
    ctx = dd.init("host")
    world = MPI.COMM_WORLD
    rng = np.random.default_rng(47)
    n, m = 40, 200
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    part = dd.VertexPartition.from_edges(src, n, ctx.size)
    shard = dd.shard_edges(part, ctx.rank, src, dst)
    batch = dyng.EdgeBatch(insert=(rng.integers(0, n + 3, 30), rng.integers(0, n, 30)))
    routed = dd.route_batch(part, batch)
    mine = routed.insertions.for_rank(ctx.rank).tolist()
    views = world.allgather((part.starts.tolist(), routed.insertions.entries.tolist()))
    shards = world.allgather(shard.edge_ids.tolist())
    received = world.allgather(mine)
    if ctx.rank == 0:
        owners_ok = all(
            set(received[k]) == set(routed.insertions.for_rank(k).tolist()) for k in range(ctx.size)
        )
        print(
            json.dumps(
                {
                    "size": ctx.size,
                    "transport": ctx.transport,
                    "launcher": ctx.launcher,
                    "agree": all(view == views[0] for view in views),
                    "edges_once": sorted(i for s in shards for i in s) == list(range(m)),
                    "routing_matches": owners_ok,
                }
            )
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
