"""The error classes of dyng (spec section 9).

They live in Python, not in the native module, so that the CPU module and every CUDA plugin raise
the very same classes: each native module receives them through ``_register_error_classes`` when
``dyng._backend`` activates it, and translates its C++ exceptions into them.
"""

from __future__ import annotations

__all__ = [
    "Error",
    "InvalidArgumentError",
    "StaleResultError",
    "FileFormatError",
    "CapacityError",
    "NotSupportedError",
    "ConvergenceError",
    "CudaError",
    "OutOfMemoryError",
    "InternalError",
    "BackendWarning",
]


class Error(Exception):
    """Base of every error dyng raises on purpose.

    Each error dyng raises is also an instance of the built-in class closest to it
    (``ValueError``, ``OSError``, ``MemoryError``, ``NotImplementedError`` or
    ``RuntimeError``), so code that catches those keeps working; ``except dyng.Error`` catches
    them all. Messages read ``<function>(): <what is wrong>; <what to do>``.

    Examples
    --------
    >>> import dyng
    >>> try:
    ...     dyng.Graph.from_edges([0, 1], [1, -2])
    ... except dyng.Error as error:
    ...     print(type(error).__name__)
    InvalidArgumentError
    """


class InvalidArgumentError(Error, ValueError):
    """A value outside the documented domain (bad id, dtype, length, option...).

    Also a ``ValueError``.

    Examples
    --------
    >>> import dyng
    >>> try:
    ...     dyng.Graph.from_edges([0], [3_000_000_000], vertex_dtype="int32")
    ... except dyng.InvalidArgumentError as error:
    ...     print(error)
    Graph.from_edges(): dst[0] = 3000000000 does not fit int32 vertex ids; use int64 ids ...
    >>> issubclass(dyng.InvalidArgumentError, ValueError)
    True
    """


class StaleResultError(InvalidArgumentError):
    """A result (or one of its arrays) no longer matches its graph or was updated since.

    A result is updated with every batch applied to its graph (pass it to [`dyng.update`][]);
    one that missed a batch is refused rather than repaired wrongly. Also an
    [`dyng.InvalidArgumentError`][] (and a ``ValueError``).

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [2, 3])
    >>> r = dyng.sssp.compute(g, 0)
    >>> _ = g.apply(dyng.EdgeBatch(insert=([0], [2], [1])))  # r is not updated
    >>> try:
    ...     dyng.sssp.update(g, dyng.EdgeBatch(), r)
    ... except dyng.StaleResultError as error:
    ...     print(error)
    sssp.update(): the result matches graph version 0 but the graph is at version 1; ...
    """


class FileFormatError(Error, OSError):
    """A file could not be parsed; ``path``, ``line`` and ``column`` say where (None if unknown).

    Raised by the readers of [`dyng.io`][]. Also an ``OSError``.

    Parameters
    ----------
    message : str
        What is wrong, and what to do.
    path : str, optional
        The file.
    line, column : int, optional
        Where in the file (1-based).

    Attributes
    ----------
    path : str or None
        The file, as given to the reader.
    line, column : int or None
        Where in the file the problem was found (1-based).

    Examples
    --------
    >>> from dyng import FileFormatError
    >>> e = FileFormatError("bad token", path="g.txt", line=3, column=5)
    >>> (e.path, e.line, e.column)
    ('g.txt', 3, 5)
    """

    def __init__(self, message, path=None, line=None, column=None):
        # OSError's own argument parsing is skipped because __init__ is overridden.
        super().__init__(message)
        self.path = path
        self.line = line
        self.column = column

    def __str__(self):
        return str(self.args[0]) if self.args else ""

    def __reduce__(self):
        return (type(self), (str(self), self.path, self.line, self.column))


class CapacityError(Error, MemoryError):
    """A size limit of a type or container was exceeded.

    For example more vertices than int32 ids can number, more stored edges than the graph's
    edge offsets can address (build it with int64 ids or offsets), or a cycle count past
    2**64 - 1. Also a ``MemoryError``.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0], [1])  # int32 ids and edge offsets
    >>> try:
    ...     g.reserve(2**40)
    ... except dyng.CapacityError as error:
    ...     print(error)
    Graph.reserve(): the graph has 1099511627776 stored edges, more than its edge offset ...
    >>> issubclass(dyng.CapacityError, MemoryError)
    True
    """


class NotSupportedError(Error, NotImplementedError):
    """A feature, type combination or backend this build does not offer.

    Also a ``NotImplementedError``.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0], [1])  # unweighted
    >>> try:
    ...     dyng.mosp.compute(g, 0)
    ... except dyng.NotSupportedError as error:
    ...     print(error)
    mosp.compute(): the graph is unweighted; mosp needs one weight column per objective ...
    """


class ConvergenceError(Error, RuntimeError):
    """An iterative method stopped before reaching its fixed point.

    Also a ``RuntimeError``.

    Examples
    --------
    >>> import dyng
    >>> issubclass(dyng.ConvergenceError, RuntimeError)
    True
    """


class CudaError(Error, RuntimeError):
    """A CUDA call failed; ``code`` is the CUDA status (None if unknown).

    Also a ``RuntimeError``.

    Parameters
    ----------
    message : str
        What failed.
    code : int, optional
        The CUDA status (``cudaError_t``).

    Attributes
    ----------
    code : int or None
        The CUDA status, None if unknown.

    Examples
    --------
    >>> from dyng import CudaError
    >>> CudaError("cudaMalloc failed", 2).code
    2
    """

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code

    def __reduce__(self):
        return (type(self), (str(self), self.code))


class OutOfMemoryError(Error, MemoryError):
    """A host or device allocation failed.

    Also a ``MemoryError``; the graph and results it was called with are left as they were.

    Examples
    --------
    >>> import dyng
    >>> issubclass(dyng.OutOfMemoryError, MemoryError)
    True
    """


class InternalError(Error, RuntimeError):
    """A broken invariant inside dyng: always a bug, please report it.

    Also a ``RuntimeError``. [`dyng.Graph.check_integrity`][] raises it for a graph whose
    storage is damaged.

    Examples
    --------
    >>> import dyng
    >>> dyng.Graph.from_edges([0, 1], [1, 2]).check_integrity()  # no InternalError
    >>> issubclass(dyng.InternalError, RuntimeError)
    True
    """


class BackendWarning(UserWarning):
    """dyng runs on another backend than the installation suggests, and says why.

    Issued at most once per process, when the native module is chosen: installed CUDA plugins
    were all unusable (each is listed with its reason) and the CPU module is used, or
    DYNG_CPU_ONLY holds a value that is neither true nor false.

    Examples
    --------
    Make it an error, for a run that must not fall back to the CPU unnoticed (the first graph
    chooses the native module):

    >>> import warnings, dyng
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error", dyng.BackendWarning)
    ...     g = dyng.Graph.from_edges([0], [1])
    >>> issubclass(dyng.BackendWarning, UserWarning)
    True
    """


def error_classes():
    """The classes a native module needs for translation, by name."""
    return {name: globals()[name] for name in __all__ if name != "BackendWarning"}
