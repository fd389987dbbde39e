"""One rank of test_distributed_nccl_cuda.py's mpiexec run (one GPU per rank): a DeviceComm of
the world, then an all-to-all in which rank r sends peer p (r + p + 1) rows of (r, p, i), and an
all-reduce (max) of each rank's number; each rank checks what arrived, and rank 0 prints every
rank's verdict as one JSON line."""

import json

import cupy
import numpy as np

import dyng.distributed as dd
from dyng.distributed import _transports
from dyng.distributed._device_comm import DeviceComm

context = dd.init("device")
cupy.cuda.Device(context.local_rank).use()
with DeviceComm.create(context) as comm:
    rank, size = comm.rank, comm.size
    send_counts = [rank + p + 1 for p in range(size)]
    recv_counts = [p + rank + 1 for p in range(size)]
    rows = [(rank, p, i) for p in range(size) for i in range(send_counts[p])]
    send = cupy.asarray(np.array(rows, dtype=np.int64))
    recv = cupy.full((sum(recv_counts), 3), -1, dtype=cupy.int64)
    comm.all_to_all(send, send_counts, recv, recv_counts)
    expected = [(p, rank, i) for p in range(size) for i in range(recv_counts[p])]
    mine = cupy.asarray(np.array([rank], dtype=np.int32))
    top = cupy.zeros(1, dtype=cupy.int32)
    comm.all_reduce(mine, top, "max")
    cupy.cuda.Device().synchronize()
    ok = recv.get().tolist() == [list(t) for t in expected] and int(top.get()[0]) == size - 1
verdicts = _transports.mpi().COMM_WORLD.gather({"rank": rank, "ok": ok}, root=0)
if rank == 0:
    print(json.dumps(verdicts), flush=True)
