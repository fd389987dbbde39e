"""One rank of test_distributed_nccl.py's mpiexec run: rank 0 makes an NCCL unique id (the real
library's when NVIDIA's wheel is installed, random bytes otherwise: the journey is the same) and
share_unique_id brings it to every rank over MPI; rank 0 gathers what each holds and prints it as
one JSON line (the ranks' own prints could interleave)."""

import json
import os

import dyng
import dyng.distributed as dd
from dyng.distributed import _device_comm, _nccl, _transports

context = dd.init("host")  # the id travels over MPI; no GPU is needed to carry it
made = None
if context.rank == 0:
    try:
        made = _nccl.Nccl(_transports.load_nccl("the id's test")).unique_id().to_bytes()
    except dyng.NotSupportedError:
        made = os.urandom(_nccl.UNIQUE_ID_BYTES)
raw = _device_comm.share_unique_id(context, made)
held = _transports.mpi().COMM_WORLD.gather({"rank": context.rank, "id": raw.hex()}, root=0)
if context.rank == 0:
    print(json.dumps(held), flush=True)
