"""Argument checks shared by the readers and writers of dyng.io (InvalidArgumentError on misuse)."""

from __future__ import annotations

import os

from dyng import _convert
from dyng._errors import InvalidArgumentError


def path_of(value, function, argument="path"):
    """A str path from str, bytes or os.PathLike."""
    try:
        p = os.fspath(value)
    except TypeError:
        raise InvalidArgumentError(
            f"{function}(): {argument}={value!r} is not a path; pass a str or os.PathLike"
        ) from None
    if isinstance(p, bytes):
        p = os.fsdecode(p)
    if not p:
        raise InvalidArgumentError(f"{function}(): {argument} is empty; pass a file name")
    return p


def choice(value, allowed, function, argument):
    """value when it is one of `allowed` (strings)."""
    if not isinstance(value, str) or value not in allowed:
        names = ", ".join(repr(a) for a in allowed)
        raise InvalidArgumentError(
            f"{function}(): {argument}={value!r} is not one of {names}; pass one of them"
        )
    return value


def integer(value, function, argument, *, minimum=None, maximum=None):
    """An exact int in [minimum, maximum]."""
    return _convert.as_int(value, function, argument, minimum=minimum, maximum=maximum)


def flag(value, function, argument):
    """A bool (NumPy bools too); anything else is refused rather than read as truthy."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise InvalidArgumentError(
        f"{function}(): {argument}={value!r} is not a bool; pass True or False"
    )


def is_wide(vertex_dtype, function):
    """True for int64 ids, False for int32 (the readers' default)."""
    name = _convert.dtype_name(vertex_dtype, function, "vertex_dtype")
    return name == "int64"


def source_range(value, function):
    """(lo, hi) for the native readers from ``source_range``: None keeps every edge (the native
    default, INT64_MIN..INT64_MAX); ``(lo, hi)`` keeps sources lo <= src < hi, hi None meaning no
    upper end."""
    if value is None:
        return -_convert.INT64_MAX - 1, _convert.INT64_MAX
    try:
        lo, hi = value
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"{function}(): source_range={value!r} is not (lo, hi); pass two integers "
            "0 <= lo <= hi (hi None for no upper end), e.g. VertexPartition.range_of(rank)"
        ) from None
    lo = integer(lo, function, "source_range lo", minimum=0, maximum=_convert.INT64_MAX)
    if hi is None:
        return lo, _convert.INT64_MAX
    hi = integer(hi, function, "source_range hi", minimum=lo, maximum=_convert.INT64_MAX)
    return lo, hi
