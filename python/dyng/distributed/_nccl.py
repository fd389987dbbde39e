"""NCCL through ctypes: the calls a device world makes, each one checked.

The library is NVIDIA's (the ``nvidia-nccl-cu12`` / ``-cu13`` wheels that the ``dyng[cu13-dist]``
extras pull), opened by path by ``_transports.load_nccl``; dyng's wheels do not link it. The
signatures below are those of ``nccl.h`` (NCCL 2.18 and later): device pointers and CUDA streams
travel as addresses, the unique id as its 128-byte struct, by value where NCCL takes it so.
ncclGetVersion, ncclGetUniqueId and ncclGetErrorString need no GPU, which is what lets the
binding be tested on machines without one.
"""

from __future__ import annotations

import ctypes

import numpy as np

from dyng._errors import CudaError, InvalidArgumentError

#: ``NCCL_UNIQUE_ID_BYTES``: the size of the id that rank 0 makes and every rank joins with.
UNIQUE_ID_BYTES = 128

#: ``ncclDataType_t`` of the NumPy types a device exchange carries.
DATA_TYPES = {
    np.dtype(np.int8): 0,
    np.dtype(np.uint8): 1,
    np.dtype(np.int32): 2,
    np.dtype(np.uint32): 3,
    np.dtype(np.int64): 4,
    np.dtype(np.uint64): 5,
    np.dtype(np.float16): 6,
    np.dtype(np.float32): 7,
    np.dtype(np.float64): 8,
}

#: ``ncclRedOp_t`` of the reductions dyng uses.
REDUCTIONS = {"sum": 0, "prod": 1, "max": 2, "min": 3}

_SUCCESS = 0
_IN_PROGRESS = 7  # a non-blocking communicator's pending call: not a failure


class UniqueId(ctypes.Structure):
    """``ncclUniqueId``: what rank 0 makes and every rank passes to ncclCommInitRank."""

    _fields_ = [("internal", ctypes.c_char * UNIQUE_ID_BYTES)]

    @classmethod
    def from_bytes(cls, raw: bytes) -> UniqueId:
        if len(raw) != UNIQUE_ID_BYTES:
            raise InvalidArgumentError(
                f"an NCCL unique id is {UNIQUE_ID_BYTES} bytes, not {len(raw)}; pass what "
                "rank 0's ncclGetUniqueId made, unchanged"
            )
        made = cls()
        ctypes.memmove(ctypes.addressof(made), raw, UNIQUE_ID_BYTES)
        return made

    def to_bytes(self) -> bytes:
        return ctypes.string_at(ctypes.addressof(self), UNIQUE_ID_BYTES)


_Comm = ctypes.c_void_p
_Stream = ctypes.c_void_p
_Result = ctypes.c_int

# name: (argument types); every call returns ncclResult_t but ncclGetErrorString.
_SIGNATURES = {
    "ncclGetVersion": (ctypes.POINTER(ctypes.c_int),),
    "ncclGetUniqueId": (ctypes.POINTER(UniqueId),),
    "ncclCommInitRank": (ctypes.POINTER(_Comm), ctypes.c_int, UniqueId, ctypes.c_int),
    "ncclCommDestroy": (_Comm,),
    "ncclCommAbort": (_Comm,),
    "ncclCommGetAsyncError": (_Comm, ctypes.POINTER(_Result)),
    "ncclGroupStart": (),
    "ncclGroupEnd": (),
    "ncclSend": (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, _Comm, _Stream),
    "ncclRecv": (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, _Comm, _Stream),
    "ncclAllReduce": (
        ctypes.c_void_p,
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_int,
        ctypes.c_int,
        _Comm,
        _Stream,
    ),
}


class Nccl:
    """The NCCL calls, typed, each raising CudaError with NCCL's own words when it fails.

    Parameters
    ----------
    library : ctypes.CDLL
        The opened NCCL library (``_transports.load_nccl``).
    """

    def __init__(self, library: ctypes.CDLL):
        self._library = library
        missing = [name for name in _SIGNATURES if not hasattr(library, name)]
        if missing:
            raise CudaError(
                f"the NCCL library {library._name} lacks {', '.join(missing)}; install NCCL "
                '2.18 or later (pip install "dyng[cu13-dist]")'
            )
        for name, argtypes in _SIGNATURES.items():
            function = getattr(library, name)
            function.argtypes = argtypes
            function.restype = _Result
        library.ncclGetErrorString.argtypes = (_Result,)
        library.ncclGetErrorString.restype = ctypes.c_char_p

    def error_string(self, result: int) -> str:
        text = self._library.ncclGetErrorString(result)
        return text.decode(errors="replace") if text else f"NCCL status {result}"

    def call(self, name: str, *arguments) -> None:
        """NCCL's `name` with `arguments`; raises CudaError unless it succeeded (or, for a
        non-blocking communicator, is in progress)."""
        result = getattr(self._library, name)(*arguments)
        if result not in (_SUCCESS, _IN_PROGRESS):
            raise CudaError(
                f"{name} failed: {self.error_string(result)} (NCCL status {result}); run with "
                "NCCL_DEBUG=WARN for NCCL's own account, and check that every rank made the "
                "same calls in the same order"
            )

    def version(self) -> int:
        """NCCL's version code (major * 10000 + minor * 100 + patch since 2.9)."""
        found = ctypes.c_int()
        self.call("ncclGetVersion", ctypes.byref(found))
        return found.value

    def unique_id(self) -> UniqueId:
        """A fresh unique id: rank 0 makes it, the others receive it."""
        made = UniqueId()
        self.call("ncclGetUniqueId", ctypes.byref(made))
        return made

    def init_rank(self, size: int, unique_id: UniqueId, rank: int) -> int:
        """A communicator for `rank` of `size` (a collective: every rank calls it); its handle."""
        handle = _Comm()
        self.call("ncclCommInitRank", ctypes.byref(handle), size, unique_id, rank)
        return int(handle.value or 0)

    def async_error(self, handle: int) -> int:
        found = _Result()
        self.call("ncclCommGetAsyncError", _Comm(handle), ctypes.byref(found))
        return found.value


def data_type(dtype) -> int:
    """The ``ncclDataType_t`` of a NumPy dtype; InvalidArgumentError for one NCCL lacks."""
    try:
        return DATA_TYPES[np.dtype(dtype)]
    except (KeyError, TypeError):
        raise InvalidArgumentError(
            f"NCCL carries no {dtype!r} elements; pass (u)int8/32/64 or float16/32/64 arrays"
        ) from None
