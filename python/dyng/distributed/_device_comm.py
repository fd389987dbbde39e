"""The device world's communicator: NCCL between the ranks' GPUs, one GPU per rank.

Rank 0 makes NCCL's unique id and every rank joins with it, so the id must reach the others
first: over MPI when an MPI launcher started the world (a broadcast on COMM_WORLD), through
torch's TCP store at ``MASTER_ADDR:MASTER_PORT`` under torchrun (the store torchrun's agent
already serves; torch is there, since torchrun is its launcher). NCCL binds a communicator to
the CUDA device current at its creation, so the rank's ``local_rank`` device is made current
first, as ``torch.cuda.set_device`` does.

NCCL has no all-to-all with per-peer counts; the field's way (RAFT's multicast send/recv,
PyTorch's ``all_to_all_single``) is one group of a send and a receive per peer, which NCCL runs
as one all-to-all. `DeviceComm.all_to_all` does that on device arrays laid out as the host
exchange's (``_exchange.py``): each peer's rows contiguous, in rank order.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

import numpy as np

from dyng._errors import InvalidArgumentError, NotSupportedError
from dyng.distributed import _transports
from dyng.distributed._exchange import peer_spans
from dyng.distributed._nccl import REDUCTIONS, UNIQUE_ID_BYTES, Nccl, UniqueId, data_type

FUNCTION = "dyng.distributed.DeviceComm"
#: The TCP store's key for the unique id; the generation keeps two communicators apart.
STORE_KEY = "dyng/nccl-unique-id/{generation}"
_generations = {"made": 0}


def _device_view(array, what: str) -> tuple[int, tuple[int, ...], np.dtype]:
    """(address, shape, dtype) of a C-contiguous array in device memory, read from its
    ``__cuda_array_interface__`` (CuPy, PyTorch, Numba and dyng's device arrays have one)."""
    interface = getattr(array, "__cuda_array_interface__", None)
    if interface is None:
        raise InvalidArgumentError(
            f"{FUNCTION}: {what} is a {type(array).__name__}, not an array in device memory; "
            "pass a CuPy or PyTorch CUDA array (anything with __cuda_array_interface__)"
        )
    shape = tuple(int(n) for n in interface["shape"])
    dtype = np.dtype(interface["typestr"])
    strides = interface.get("strides")
    if strides is not None:
        expected, step = [], dtype.itemsize
        for n in reversed(shape):
            expected.append(step)
            step *= n
        if tuple(strides) != tuple(reversed(expected)) and int(np.prod(shape)) > 1:
            raise InvalidArgumentError(
                f"{FUNCTION}: {what} is not C-contiguous (strides {tuple(strides)}); pass a "
                "contiguous copy (cupy.ascontiguousarray, tensor.contiguous())"
            )
    return int(interface["data"][0]), shape, dtype


def _share_over_mpi(comm, raw: bytes | None) -> bytes:
    buffer = np.empty(UNIQUE_ID_BYTES, dtype=np.uint8)
    if raw is not None:  # rank 0's id; the others' buffers are filled by the broadcast
        buffer[:] = np.frombuffer(raw, dtype=np.uint8)
    comm.Bcast(buffer, root=0)
    return buffer.tobytes()


def _share_over_store(context, raw: bytes | None, generation: int) -> bytes:
    try:
        from torch.distributed import TCPStore  # torchrun's own package
    except ImportError:
        raise NotSupportedError(
            f"{FUNCTION}: a device world launched by torchrun shares NCCL's id through "
            "torch's TCP store, and torch cannot be imported; install torch, or launch with "
            "mpiexec (and mpi4py)"
        ) from None
    host, port = context.rendezvous.rsplit(":", 1)
    # torchrun's agent serves the store at MASTER_PORT, every worker is its client; without
    # the agent (variables set by hand), rank 0 serves it.
    agent = os.environ.get("TORCHELASTIC_USE_AGENT_STORE", "").lower() == "true"
    store = TCPStore(host, int(port), context.size, is_master=context.rank == 0 and not agent)
    key = STORE_KEY.format(generation=generation)
    if raw is not None:
        store.set(key, raw)
    return bytes(store.get(key))


def share_unique_id(context, raw: bytes | None, *, comm=None, generation: int = 0) -> bytes:
    """Rank 0's unique id on every rank: `raw` on rank 0 (None elsewhere), the id returned."""
    if context.is_single:
        if raw is None:
            raise InvalidArgumentError(f"{FUNCTION}: a world of one makes its own id")
        return raw
    if comm is not None or context.launcher == "mpi":
        world = comm if comm is not None else _transports.mpi().COMM_WORLD
        return _share_over_mpi(world, raw)
    if context.rendezvous is None:
        raise InvalidArgumentError(
            f"{FUNCTION}: the ranks have nowhere to meet (no MPI world and no "
            "MASTER_ADDR:MASTER_PORT); launch with torchrun or mpiexec"
        )
    return _share_over_store(context, raw, generation)


def _use_local_device(device: int) -> None:
    from dyng import _backend

    native = _backend.native()
    if not hasattr(native, "cuda_use_device"):
        raise NotSupportedError(
            f"{FUNCTION}: a device world needs dyng's CUDA plugin, and none is loaded; "
            'pip install "dyng[cu13-dist]" (or "dyng[cu12-dist]")'
        )
    native.cuda_use_device(device)


class DeviceComm:
    """An NCCL communicator of this world's ranks, one GPU each (a collective to create).

    Use [`create`][] (every rank together), then `all_to_all` and `all_reduce` on device
    arrays, then `close` (or a ``with`` block).
    """

    def __init__(self, nccl: Nccl, handle: int, rank: int, size: int):
        self._nccl, self._handle = nccl, handle
        self.rank, self.size = rank, size

    @classmethod
    def create(
        cls,
        context,
        *,
        comm=None,
        nccl: Nccl | None = None,
        use_device: Callable[[int], None] | None = None,
    ) -> DeviceComm:
        """The communicator of `context`'s world; every rank calls it together.

        `comm` is an mpi4py communicator to share the id over instead of COMM_WORLD or the
        TCP store; `nccl` an opened binding (default: the installed library); `use_device`
        what makes the rank's GPU current (default: dyng's CUDA plugin).
        """
        if context.space != "device":
            raise InvalidArgumentError(
                f"{FUNCTION}: the world was set up for {context.space} graphs; call "
                'dyng.distributed.init("device") for an NCCL communicator'
            )
        if nccl is None:
            nccl = Nccl(_transports.load_nccl(f"a device world of {context.size} ranks"))
        (use_device or _use_local_device)(context.local_rank)
        generation = _generations["made"]
        _generations["made"] += 1
        made = nccl.unique_id().to_bytes() if context.rank == 0 else None
        raw = share_unique_id(context, made, comm=comm, generation=generation)
        handle = nccl.init_rank(context.size, UniqueId.from_bytes(raw), context.rank)
        return cls(nccl, handle, context.rank, context.size)

    def _live(self) -> int:
        if not self._handle:
            raise InvalidArgumentError(f"{FUNCTION}: the communicator was closed; create another")
        return self._handle

    def all_to_all(self, send, send_counts, recv, recv_counts, *, stream: int = 0) -> None:
        """Sends each peer its rows of `send` and receives each peer's into `recv`.

        `send` and `recv` are C-contiguous device arrays of one dtype whose first axis is the
        rows; `send_counts[p]` rows go to peer p (each peer's rows contiguous, in rank order)
        and `recv_counts[p]` come from it, as the host exchange lays them out. Queued on
        `stream` (a CUDA stream's address; 0, the legacy default stream); returns without
        waiting for it.
        """
        handle = self._live()
        send_at, send_shape, send_type = _device_view(send, "send")
        recv_at, recv_shape, recv_type = _device_view(recv, "recv")
        if send_type != recv_type or send_shape[1:] != recv_shape[1:]:
            raise InvalidArgumentError(
                f"{FUNCTION}.all_to_all(): send holds {send_type} rows of shape "
                f"{send_shape[1:]} but recv {recv_type} rows of shape {recv_shape[1:]}; "
                "pass arrays of one dtype and row shape"
            )
        for name, counts, rows in (
            ("send_counts", send_counts, send_shape[0] if send_shape else 0),
            ("recv_counts", recv_counts, recv_shape[0] if recv_shape else 0),
        ):
            if len(counts) != self.size or sum(int(c) for c in counts) > rows:
                raise InvalidArgumentError(
                    f"{FUNCTION}.all_to_all(): {name} must hold one count per rank "
                    f"({self.size}) summing to at most the array's {rows} rows, not "
                    f"{list(counts)}"
                )
        kind = data_type(send_type)
        row_elements = int(np.prod(send_shape[1:], dtype=np.int64))
        row_bytes = row_elements * send_type.itemsize
        sends = peer_spans(send_counts, row_bytes)
        receives = peer_spans(recv_counts, row_bytes)
        self._nccl.call("ncclGroupStart")
        try:
            for peer in range(self.size):
                (out_at, out_bytes), (in_at, in_bytes) = sends[peer], receives[peer]
                if out_bytes:
                    self._nccl.call(
                        "ncclSend",
                        send_at + out_at,
                        out_bytes // send_type.itemsize,
                        kind,
                        peer,
                        handle,
                        stream,
                    )
                if in_bytes:
                    self._nccl.call(
                        "ncclRecv",
                        recv_at + in_at,
                        in_bytes // send_type.itemsize,
                        kind,
                        peer,
                        handle,
                        stream,
                    )
        finally:
            self._nccl.call("ncclGroupEnd")

    def all_reduce(self, send, recv, op: str = "sum", *, stream: int = 0) -> None:
        """recv = the reduction (`op`: "sum", "prod", "max", "min") of every rank's `send`,
        element by element; queued on `stream`, not waited for."""
        handle = self._live()
        send_at, send_shape, send_type = _device_view(send, "send")
        recv_at, recv_shape, recv_type = _device_view(recv, "recv")
        if (send_shape, send_type) != (recv_shape, recv_type):
            raise InvalidArgumentError(
                f"{FUNCTION}.all_reduce(): send is {send_type}{list(send_shape)} but recv "
                f"{recv_type}{list(recv_shape)}; pass arrays of one dtype and shape"
            )
        if op not in REDUCTIONS:
            raise InvalidArgumentError(
                f"{FUNCTION}.all_reduce(): op={op!r}; pass one of {', '.join(REDUCTIONS)}"
            )
        count = int(np.prod(send_shape, dtype=np.int64))
        self._nccl.call(
            "ncclAllReduce",
            send_at,
            recv_at,
            count,
            data_type(send_type),
            REDUCTIONS[op],
            handle,
            stream,
        )

    def close(self) -> None:
        """Destroys the communicator (a collective: every rank closes it); idempotent."""
        if self._handle:
            handle, self._handle = self._handle, 0
            self._nccl.call("ncclCommDestroy", handle)

    def __enter__(self) -> DeviceComm:
        return self

    def abort(self) -> None:
        """Ends the communicator without waiting for the other ranks (after an error, when
        they may never make the matching call); idempotent."""
        if self._handle:
            handle, self._handle = self._handle, 0
            self._nccl.call("ncclCommAbort", handle)

    def __exit__(self, kind, *rest) -> None:
        if kind is None:
            self.close()
        else:  # the error that left the block is the one to see, not the teardown's
            with contextlib.suppress(Exception):
                self.abort()
