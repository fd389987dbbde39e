"""Distributed graphs (SPMD, issue 47): one process per GPU or per CPU node, each holding one
range of the vertices and their out-edges.

[`init`][dyng.distributed.init] reads the rank, the world size and the rendezvous from the
launcher (torchrun's variables, ``mpiexec``'s, or an imported mpi4py) and checks that the
transport is there: MPI (mpi4py) for host graphs, NCCL for device graphs. Without a launcher
the process is a world of one, so a plain script runs unchanged.

The distributed graph, batches and algorithms are not built yet.

Examples
--------
>>> import dyng.distributed as dd
>>> ctx = dd.init(env={})
>>> ctx.rank, ctx.size, ctx.transport
(0, 1, 'none')
"""

from __future__ import annotations

from dyng.distributed._context import Context, init

__all__ = ["init", "Context"]
