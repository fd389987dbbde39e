"""The transports, loaded only when a world of several processes needs them.

A plain script (one process, no launcher) never imports mpi4py and never opens NCCL: importing
``mpi4py.MPI`` initialises an MPI library, which can take seconds and, under some batch systems,
refuses to run outside a job step. NCCL comes from NVIDIA's wheels (``nvidia-nccl-cu12`` /
``-cu13``, pulled by the ``dyng[cu12-dist]`` / ``dyng[cu13-dist]`` extras); dyng's own wheels
do not link it, so it is opened here by path, the way the CUDA plugin finds its runtime.
"""

from __future__ import annotations

import ctypes
import importlib
import importlib.util
import pathlib
from typing import Any

from dyng._errors import NotSupportedError

FUNCTION = "dyng.distributed.init()"

MPI_HINT = 'pip install "dyng[dist]" (mpi4py) and an MPI (your cluster\'s, or the mpich wheel)'
NCCL_HINT = 'pip install "dyng[cu13-dist]" (or "dyng[cu12-dist]" for CUDA 12)'


def load_mpi(why: str) -> Any:
    """``mpi4py.MPI``, imported now; `why` says which launch needs it, for the message."""
    try:
        return importlib.import_module("mpi4py.MPI")
    except ImportError as error:
        raise NotSupportedError(
            f"{FUNCTION}: {why} needs mpi4py, which cannot be imported ({error}); {MPI_HINT}"
        ) from None


def mpi() -> Any:
    """``mpi4py.MPI``, for the collectives of a world whose init() has loaded it already."""
    return importlib.import_module("mpi4py.MPI")


def _nccl_candidates() -> list[str]:
    """Where NVIDIA's NCCL wheel puts the library, then the loader's own search."""
    candidates: list[str] = []
    spec = importlib.util.find_spec("nvidia")
    roots = list(spec.submodule_search_locations or []) if spec is not None else []
    for root in roots:
        candidates.extend(str(p) for p in sorted(pathlib.Path(root).glob("nccl/lib/libnccl.so*")))
    candidates.append("libnccl.so.2")
    return candidates


def load_nccl(why: str) -> ctypes.CDLL:
    """The NCCL library, opened now; `why` says which launch needs it, for the message."""
    failures = []
    for candidate in _nccl_candidates():
        try:
            return ctypes.CDLL(candidate)
        except OSError as error:
            failures.append(str(error))
    raise NotSupportedError(
        f"{FUNCTION}: {why} needs NCCL, which is not installed (tried {', '.join(failures)}); "
        f"{NCCL_HINT}"
    )


def host_comm(context) -> Any:
    """The MPI communicator of `context`'s world (COMM_WORLD); None for a world of one.

    Batches, votes and a graph's counters travel over MPI in every world: a host world's data
    too, a device world's besides its NCCL communicator (``_device_comm``). A device world of
    several ranks under torchrun has no MPI world, so it has no graphs yet.
    """
    if context.is_single:
        return None
    if context.launcher != "mpi":
        raise NotSupportedError(
            f"dyng.distributed: a {context.space} world of {context.size} ranks launched by "
            f"{context.launcher} has no MPI world, and a distributed graph's batches and votes "
            f"travel over MPI; launch with mpiexec -n {context.size} (and mpi4py installed)"
        )
    return load_mpi(f"a {context.space} world of {context.size} ranks").COMM_WORLD
