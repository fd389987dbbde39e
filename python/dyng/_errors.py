"""The error classes of dyng (spec section 9).

They live in Python, not in the native module, so that the CPU module and every CUDA plugin raise
the very same classes: each native module receives them through ``_register_error_classes`` when
:mod:`dyng._backend` activates it, and translates its C++ exceptions into them.
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
    """Base of every error dyng raises on purpose."""


class InvalidArgumentError(Error, ValueError):
    """A value outside the documented domain (bad id, dtype, length, option...)."""


class StaleResultError(InvalidArgumentError):
    """A result (or one of its arrays) no longer matches its graph or was updated since."""


class FileFormatError(Error, OSError):
    """A file could not be parsed; ``path``, ``line`` and ``column`` say where (None if unknown).

    Examples
    --------
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
    """A size limit of a type or container was exceeded."""


class NotSupportedError(Error, NotImplementedError):
    """A feature, type combination or backend this build does not offer."""


class ConvergenceError(Error, RuntimeError):
    """An iterative method stopped before reaching its fixed point."""


class CudaError(Error, RuntimeError):
    """A CUDA call failed; ``code`` is the CUDA status (None if unknown).

    Examples
    --------
    >>> CudaError("cudaMalloc failed", 2).code
    2
    """

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code

    def __reduce__(self):
        return (type(self), (str(self), self.code))


class OutOfMemoryError(Error, MemoryError):
    """A host or device allocation failed."""


class InternalError(Error, RuntimeError):
    """A broken invariant inside dyng: always a bug, please report it."""


class BackendWarning(UserWarning):
    """dyng runs on another backend than the installation suggests, and says why.

    Issued at most once per process, when the native module is chosen: installed CUDA plugins
    were all unusable (each is listed with its reason) and the CPU module is used, or
    DYNG_CPU_ONLY holds a value that is neither true nor false.
    """


def error_classes():
    """The classes a native module needs for translation, by name."""
    return {name: globals()[name] for name in __all__ if name != "BackendWarning"}
