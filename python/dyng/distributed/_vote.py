"""The all-or-nothing vote: a batch refused on one rank is refused on every rank.

Each rank brings its verdict (None, or the error it would raise). One allreduce (MIN) finds
the lowest refusing rank, and when there is one it broadcasts its error's class and message, so
every rank raises the same error before any of them changes its graph. The refusing rank raises
its own error object (its traceback intact); the others raise one of the same class and message.
"""

from __future__ import annotations

import importlib

import numpy as np

from dyng._errors import InternalError
from dyng.distributed import _transports

FUNCTION = "dyng.distributed.vote()"


def _describe(error: BaseException) -> tuple[str, str, str]:
    kind = type(error)
    return kind.__module__, kind.__qualname__, str(error)


def _rebuild(module: str, qualname: str, message: str) -> BaseException:
    """An error of the class named by `module` and `qualname`, carrying `message`."""
    try:
        found: object = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
        if isinstance(found, type) and issubclass(found, BaseException):
            return found(message)
    except Exception:  # a class this rank cannot import or build: say so, keep the message
        pass
    return InternalError(f"{module}.{qualname}: {message}")


def vote(verdict: BaseException | None, *, comm=None) -> None:
    """Returns when no rank refused; otherwise raises the lowest refusing rank's error everywhere.

    Every rank of `comm` calls it together (a collective) with its own verdict, after checking
    its part of a change and before making it, so that either every rank goes on or every rank
    raises the same error class and message.

    Parameters
    ----------
    verdict : BaseException or None
        None when this rank accepts; the error it would raise when it refuses.
    comm : mpi4py.MPI.Comm, optional
        The ranks voting; None for a world of one (no mpi4py needed).

    Returns
    -------
    None
        When every rank accepted.

    Raises
    ------
    BaseException
        The lowest refusing rank's error: that rank raises `verdict` itself, the others an
        error of its class with its message (an ``InternalError`` naming the class when a rank
        cannot build it), with a note naming the refusing rank.

    Examples
    --------
    >>> import dyng, dyng.distributed as dd
    >>> dd.vote(None)
    >>> try:
    ...     dd.vote(dyng.InvalidArgumentError("f(): no such edge; delete an existing edge"))
    ... except dyng.InvalidArgumentError as error:
    ...     print(error)
    f(): no such edge; delete an existing edge
    """
    if comm is None:
        if verdict is not None:
            raise verdict
        return
    rank, size = comm.Get_rank(), comm.Get_size()
    first = np.empty(1, dtype=np.int64)
    mine = np.array([size if verdict is None else rank], dtype=np.int64)
    comm.Allreduce(mine, first, _transports.mpi().MIN)
    refusing = int(first[0])
    if refusing == size:
        return
    note = f"dyng.distributed: rank {refusing} of {size} refused; every rank raises this"
    if rank == refusing and verdict is not None:
        comm.bcast(_describe(verdict), root=refusing)
        verdict.add_note(note)
        raise verdict
    error = _rebuild(*comm.bcast(None, root=refusing))
    error.add_note(note)
    raise error from verdict
