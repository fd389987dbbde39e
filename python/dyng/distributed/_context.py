"""`init()`: the world this process belongs to, read from its launcher, with its transport."""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Mapping

from dyng._errors import InvalidArgumentError
from dyng.distributed import _transports
from dyng.distributed._launch import FUNCTION, SINGLE, Launch, read_launch

#: The transport each graph space uses between ranks.
TRANSPORTS = {"host": "mpi", "device": "nccl"}


@dataclasses.dataclass(frozen=True)
class Context:
    """This process's place in a distributed run, as [`init`][dyng.distributed.init] found it.

    Attributes
    ----------
    rank : int
        This process's number, 0 <= rank < size.
    size : int
        The number of processes (one per GPU, or one per CPU node).
    local_rank : int
        The number among the processes of this machine: the CUDA device a device graph uses.
    space : {"host", "device"}
        Where this run's graphs live.
    transport : {"mpi", "nccl", "none"}
        What the ranks exchange data through: MPI for host graphs, NCCL for device graphs,
        "none" for a single process that was not started by a launcher.
    launcher : {"torchrun", "mpi", "none"}
        The launcher family whose variables described this process.
    rendezvous : str or None
        torchrun's ``MASTER_ADDR:MASTER_PORT``, where the ranks meet; None under MPI (the ranks
        meet through MPI) and for a single process.

    Examples
    --------
    >>> import dyng.distributed
    >>> ctx = dyng.distributed.init(env={})
    >>> (ctx.rank, ctx.size, ctx.transport, ctx.is_single)
    (0, 1, 'none', True)
    """

    rank: int
    size: int
    local_rank: int
    space: str
    transport: str
    launcher: str
    rendezvous: str | None

    @property
    def is_single(self) -> bool:
        """True for a world of one process (nothing is ever exchanged)."""
        return self.size == 1


def _check_transport(launch: Launch, space: str) -> None:
    """Opens what this launch's transport needs now, so that a missing piece fails at init."""
    transport = TRANSPORTS[space]
    why = f"a {space} graph launched by {launch.launcher} ({launch.source})"
    if transport == "mpi" and launch.launcher == "torchrun" and launch.size > 1:
        raise InvalidArgumentError(
            f"{FUNCTION}: {why} needs MPI between the ranks, and torchrun starts no MPI world; "
            f'launch host graphs with mpiexec -n {launch.size}, or pass space="device" '
            "(NCCL, one GPU per rank)"
        )
    if launch.launcher == "mpi":
        world = _transports.load_mpi(why).COMM_WORLD
        if (world.Get_rank(), world.Get_size()) != (launch.rank, launch.size):
            raise InvalidArgumentError(
                f"{FUNCTION}: mpi4py's COMM_WORLD is rank {world.Get_rank()} of "
                f"{world.Get_size()} but the launcher says {launch.source}; mpi4py was built "
                "against another MPI than the mpiexec that started it: reinstall mpi4py for "
                "that MPI, or launch with the matching mpiexec"
            )
    if transport == "nccl" and launch.size > 1:
        _transports.load_nccl(why)


def _already_imported_mpi() -> Launch | None:
    """The world of an mpi4py the program has already imported, else None.

    A launcher that sets none of the variables read_launch knows (srun with PMIx, a custom
    one) still gives mpi4py its world; only an import the program made counts, since importing
    mpi4py here would initialise MPI in every plain script.
    """
    mpi = sys.modules.get("mpi4py.MPI")
    if mpi is None:
        return None
    world = mpi.COMM_WORLD
    rank, size = world.Get_rank(), world.Get_size()
    if size == 1:
        return None
    return Launch("mpi", rank, size, rank, None, f"mpi4py COMM_WORLD rank {rank} of {size}")


def init(space: str = "host", *, env: Mapping[str, str] | None = None) -> Context:
    """The distributed world of this process: rank, size and transport, from its launcher.

    The launcher's environment variables say who this process is: torchrun's ``RANK``,
    ``WORLD_SIZE``, ``LOCAL_RANK``, ``MASTER_ADDR`` and ``MASTER_PORT``; Open MPI's
    ``OMPI_COMM_WORLD_RANK`` / ``_SIZE`` / ``_LOCAL_RANK``; Hydra's (MPICH, Intel MPI)
    ``PMI_RANK`` / ``PMI_SIZE``; or, when none is set, an ``mpi4py.MPI`` the program has
    already imported. Without any of them the process is a world of one, so every distributed
    API works in a plain script. Host graphs exchange data through MPI (mpi4py), device graphs
    through NCCL (one GPU per rank, ``local_rank`` picks it); either is imported here, only
    when the world has several processes or was started by an MPI launcher.

    Parameters
    ----------
    space : {"host", "device"}
        Where this run's graphs live: "host" (CPU backends, MPI) or "device" (CUDA, NCCL).
    env : mapping of str to str, optional
        The environment to read; None reads ``os.environ``.

    Returns
    -------
    Context
        The rank, size, local rank and transport of this process.

    Raises
    ------
    InvalidArgumentError
        For an unknown `space`; a launcher variable that is not an integer, is out of range or
        lacks its partner (``RANK`` without ``WORLD_SIZE``); variables of two launchers that
        disagree; torchrun without ``MASTER_ADDR``/``MASTER_PORT``; host graphs under torchrun
        with several ranks (torchrun starts no MPI world); an mpi4py whose world differs from
        the launcher's.
    NotSupportedError
        When the transport is not installed: mpi4py under an MPI launcher
        (``pip install "dyng[dist]"``), NCCL for device graphs on several ranks
        (``pip install "dyng[cu13-dist]"``).

    Examples
    --------
    >>> import dyng.distributed
    >>> ctx = dyng.distributed.init(env={})
    >>> (ctx.rank, ctx.size, ctx.launcher)
    (0, 1, 'none')
    >>> try:
    ...     dyng.distributed.init(env={"RANK": "0"})
    ... except dyng.InvalidArgumentError as error:
    ...     print(error)
    dyng.distributed.init(): RANK is set but WORLD_SIZE is not; start the program with ...
    """
    if space not in TRANSPORTS:
        raise InvalidArgumentError(
            f'{FUNCTION}: space={space!r} is not a graph space; pass "host" or "device"'
        )
    launch = read_launch(os.environ if env is None else env)
    if launch is SINGLE:
        launch = (_already_imported_mpi() if env is None else None) or SINGLE
    _check_transport(launch, space)
    transport = "none" if launch is SINGLE else TRANSPORTS[space]
    return Context(
        launch.rank,
        launch.size,
        launch.local_rank,
        space,
        transport,
        launch.launcher,
        launch.rendezvous,
    )
