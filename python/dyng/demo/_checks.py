"""Is an updated result what a fresh compute gives? Exact answers must match bit for bit; an
iterative one (a float array with a bound) must lie within the bound in L1."""

from __future__ import annotations

import numpy as np

__all__ = ["differences", "host_answers"]


def host_answers(tracked, result):
    """The result's answer arrays as host NumPy copies (a device array is copied back)."""
    return {name: _host(value) for name, value in tracked.answers(result).items()}


def _host(value):
    to_numpy = getattr(value, "to_numpy", None)
    return np.asarray(to_numpy() if to_numpy is not None else value)


def differences(updated, fresh, l1_bound=None):
    """What differs between two answers (dicts of arrays), as one line; None when they agree.

    Examples
    --------
    >>> import numpy as np
    >>> differences({"levels": np.array([0, 1])}, {"levels": np.array([0, 2])})
    'levels: 1 of 2 entries differ (first at 1: 1, fresh 2)'
    >>> differences({"ranks": np.array([0.5, 0.5])}, {"ranks": np.array([0.4, 0.6])}, 0.3) is None
    True
    """
    for name, fresh_values in fresh.items():
        got = updated.get(name)
        if got is None or got.shape != fresh_values.shape or got.dtype != fresh_values.dtype:
            return f"{name}: shape/type {_form(got)}, fresh {_form(fresh_values)}"
        if l1_bound is not None and np.issubdtype(fresh_values.dtype, np.floating):
            distance = float(np.abs(got - fresh_values).sum())
            if not distance < l1_bound:
                return f"{name}: L1 distance {distance:.3g} from fresh, bound {l1_bound:.3g}"
            continue
        rows = np.flatnonzero(got != fresh_values)
        if rows.size:
            at = int(rows[0])
            return (
                f"{name}: {rows.size} of {len(got)} entries differ (first at {at}: "
                f"{got[at]}, fresh {fresh_values[at]})"
            )
    return None


def _form(values):
    return "missing" if values is None else f"{values.shape} {values.dtype}"
