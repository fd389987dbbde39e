"""Which NetworkX edge weights dyng can take, and why not the others.

dyng's weights are int32 in [1, 2**31 - 1]. NetworkX reads a weight as ``data.get(attr, 1)`` and
skips an edge whose weight is ``None`` (a hidden edge); a search over integer weights then gives
integer distances, which dyng's int64 distances equal exactly. A float weight would make
NetworkX's distances floats, so it stays in NetworkX even when it is integral (2.0), and so does
a weight < 1, which dyng's searches do not allow.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["MAX_WEIGHT", "weight_problem", "describe", "check_weights"]

MAX_WEIGHT = 2**31 - 1


def weight_problem(value):
    """Why dyng cannot take `value` as a weight, or None when it can (None itself, a hidden
    edge, is handled by the callers)."""
    if not isinstance(value, numbers.Integral):
        return "not an integer"
    if value < 1:
        return "below 1 (dyng's searches need weights >= 1)"
    if value > MAX_WEIGHT:
        return "above 2**31 - 1 (dyng's weights are int32)"
    return None


def describe(attr, u, v, value, problem):
    """The can_run reason for one edge weight dyng cannot take."""
    return (
        f"edge ({u!r}, {v!r}) has {attr}={value!r}, {problem}; dyng takes integer weights "
        f"in [1, 2**31 - 1], so NetworkX runs this call (make the weights such integers "
        f"to use dyng)"
    )


def check_weights(values):
    """`values` (a list read from the edges) as an int32 array and None, or None and the
    position and reason of the first weight dyng cannot take. Hidden edges (None) must have been
    removed."""
    array = np.asarray(values) if values else np.empty(0, dtype=np.int32)
    if array.dtype.kind in "iub" and array.ndim == 1:
        bad = (array < 1) | (array > MAX_WEIGHT)
        if not bad.any():
            return array.astype(np.int32), None
        position = int(np.argmax(bad))
        return None, (position, weight_problem(values[position]))
    # Floats, objects or ragged input: find the first offender one by one.
    for position, value in enumerate(values):
        problem = weight_problem(value)
        if problem is not None:
            return None, (position, problem)
    return np.array(values, dtype=np.int64).astype(np.int32), None
