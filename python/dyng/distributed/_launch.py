"""What the launcher told this process: its rank, the world size and where to meet.

Launchers speak through environment variables, each family its own: torchrun (and every
launcher that copies it: torch.distributed.run, Lightning, Accelerate) sets ``RANK``,
``WORLD_SIZE``, ``LOCAL_RANK``, ``MASTER_ADDR`` and ``MASTER_PORT``; Open MPI's ``mpiexec``
sets ``OMPI_COMM_WORLD_RANK`` / ``_SIZE`` / ``_LOCAL_RANK``; MPICH's and Intel MPI's Hydra
set ``PMI_RANK`` / ``PMI_SIZE`` (and ``MPI_LOCALRANKID``). A process that several families
describe (torchrun started under mpiexec, a job script that exports RANK by hand) must be
described the same way by all of them, or the ranks would not agree on who is who.

Reading is pure: the environment comes in as a mapping, so tests need no launcher.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from dyng._errors import InvalidArgumentError

FUNCTION = "dyng.distributed.init()"


@dataclasses.dataclass(frozen=True)
class Launch:
    """One launcher family's description of this process."""

    launcher: str  # "torchrun", "mpi" or "none"
    rank: int
    size: int
    local_rank: int
    # torchrun's rendezvous ("host:port"); MPI launchers meet through MPI itself.
    rendezvous: str | None = None
    # The variables it was read from, named in error messages.
    source: str = ""


@dataclasses.dataclass(frozen=True)
class _Family:
    launcher: str
    rank: str
    size: str
    local_rank: str | None


_FAMILIES = (
    _Family("torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"),
    _Family("mpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"),
    _Family("mpi", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"),
)

SINGLE = Launch("none", 0, 1, 0, None, "no launcher")


def _integer(env: Mapping[str, str], name: str) -> int:
    text = env[name]
    try:
        return int(text.strip())
    except ValueError:
        raise InvalidArgumentError(
            f"{FUNCTION}: {name}={text!r} is not an integer; fix or unset it (the launcher "
            "sets it to this process's number)"
        ) from None


def _read_family(env: Mapping[str, str], family: _Family) -> Launch | None:
    has_rank, has_size = family.rank in env, family.size in env
    if not (has_rank or has_size):
        return None
    if has_rank != has_size:
        present, absent = (family.rank, family.size) if has_rank else (family.size, family.rank)
        raise InvalidArgumentError(
            f"{FUNCTION}: {present} is set but {absent} is not; start the program with its "
            f"launcher, which sets both, or unset {present} to run as a single process"
        )
    rank, size = _integer(env, family.rank), _integer(env, family.size)
    source = f"{family.rank}={rank}, {family.size}={size}"
    if size < 1 or not 0 <= rank < size:
        raise InvalidArgumentError(
            f"{FUNCTION}: {source} is not a rank of the world (0 <= rank < size, size >= 1); "
            "fix the launcher's variables"
        )
    local_rank = rank
    if family.local_rank is not None and family.local_rank in env:
        local_rank = _integer(env, family.local_rank)
        if not 0 <= local_rank < size:
            raise InvalidArgumentError(
                f"{FUNCTION}: {family.local_rank}={local_rank} does not fit {source} "
                "(0 <= local rank < size); fix the launcher's variables"
            )
    rendezvous = _rendezvous(env, source, size) if family.launcher == "torchrun" else None
    return Launch(family.launcher, rank, size, local_rank, rendezvous, source)


def _rendezvous(env: Mapping[str, str], source: str, size: int) -> str | None:
    addr, port = env.get("MASTER_ADDR"), env.get("MASTER_PORT")
    if addr is None and port is None and size == 1:
        return None
    if not addr or not port:
        unset = [n for n, v in (("MASTER_ADDR", addr), ("MASTER_PORT", port)) if not v]
        verb = "are" if len(unset) == 2 else "is"
        raise InvalidArgumentError(
            f"{FUNCTION}: {source} but {' and '.join(unset)} {verb} not set, so the ranks have nowhere to meet; "
            "launch with torchrun, which sets them, or export them (the address and a free "
            "port of rank 0's host)"
        )
    number = _integer(env, "MASTER_PORT")
    if not 0 < number < 65536:
        raise InvalidArgumentError(
            f"{FUNCTION}: MASTER_PORT={number} is not a TCP port; pick one in 1..65535"
        )
    return f"{addr}:{number}"


def read_launch(env: Mapping[str, str]) -> Launch:
    """This process's launch as `env` describes it: `SINGLE` when no launcher variable is set.

    Raises InvalidArgumentError when a family's variables are incomplete or malformed, or when
    two families describe the process differently.
    """
    found = [launch for f in _FAMILIES if (launch := _read_family(env, f)) is not None]
    if not found:
        return SINGLE
    first = found[0]
    for other in found[1:]:
        if (other.rank, other.size) != (first.rank, first.size):
            raise InvalidArgumentError(
                f"{FUNCTION}: the launch variables disagree ({first.source} but "
                f"{other.source}); unset the stale ones (a job script's exports, a launcher "
                "started inside another)"
            )
    # When they agree, an MPI launcher's description leads (an MPI world exists, which host
    # graphs need), keeping torchrun's rendezvous where it gave one.
    mpi = next((launch for launch in found if launch.launcher == "mpi"), first)
    rendezvous = next((launch.rendezvous for launch in found if launch.rendezvous), None)
    return dataclasses.replace(mpi, rendezvous=rendezvous)
