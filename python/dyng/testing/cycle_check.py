"""An oracle for cycle_count results on real graphs (spec section 8): the histogram of simple
cycles by plain enumeration, natively (no shortcut of cycle_count's own counting), or by the
pure-Python model of ``dyng.testing.oracles`` with ``brute_force=True``.
"""

from __future__ import annotations

import numpy as np

from dyng._convert import as_int

__all__ = ["simple_cycles"]


def simple_cycles(graph, max_length=-1, *, brute_force=False):
    """The untrimmed histogram of simple directed cycles: ``bound + 1`` uint64 entries, entry l
    the cycles of l edges (bound = min(max_length, max(n, 2)), or max(n, 2) for -1).

    Parameters
    ----------
    graph : dyng.Graph
        The graph (int32 ids; weights ignored).
    max_length : int
        The longest cycle counted (>= 2), or -1 for no limit.
    brute_force : bool
        Count with the pure-Python model of [`dyng.testing.oracles`][] instead of the native
        enumeration (small graphs only).

    Returns
    -------
    numpy.ndarray
        uint64 counts by length, ``bound + 1`` entries.

    Raises
    ------
    TypeError
        `graph` is not a [`dyng.Graph`][].
    InvalidArgumentError
        `max_length` is 0, 1 or below -1.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 1, 2], [1, 0, 2, 0])
    >>> dyng.testing.simple_cycles(g).tolist()
    [0, 0, 1, 1]
    >>> dyng.testing.simple_cycles(g, 2, brute_force=True).tolist()
    [0, 0, 1]
    """
    from dyng import _backend
    from dyng._errors import InvalidArgumentError
    from dyng._graph import Graph
    from dyng.testing.oracles import GraphModel, simple_cycle_histogram

    fn = "testing.simple_cycles"
    if not isinstance(graph, Graph):
        raise TypeError(f"{fn}(): graph must be a dyng.Graph; got {type(graph).__name__}")
    max_length = as_int(max_length, fn, "max_length", minimum=-1)
    if max_length in (0, 1):
        raise InvalidArgumentError(
            f"{fn}(): max_length={max_length} is not valid; pass -1 (no limit) or a length >= 2"
        )
    if not brute_force:
        return np.asarray(_backend.native().cycle_count_enumerate(graph._native, max_length))
    src, dst, _ = graph.edges()
    pairs = sorted(
        {(int(u), int(v)) for u, v in zip(np.asarray(src).tolist(), np.asarray(dst).tolist())}
    )
    model = GraphModel(graph.num_vertices, [u for u, _ in pairs], [v for _, v in pairs])
    return np.asarray(simple_cycle_histogram(model, max_length), dtype=np.uint64)
