"""Seeded synthetic graphs that stand for the graphs dyng's users keep results current on.

* [`street_grid`][dyng.generators.graphs.street_grid]: a city's street grid with about one
  block in eight missing, every street two-way, an integer travel time in seconds per street
  (shortest paths, BFS levels);
* [`rmat`][dyng.generators.graphs.rmat]: a follower network drawn by R-MAT (a few accounts with
  very many followers, most with few), directed, unweighted (components, PageRank);
* [`payments`][dyng.generators.graphs.payments]: accounts paying mostly accounts of nearby ids
  (a community), directed, unweighted, so short payment cycles exist but stay countable (cycle
  histograms).

They are made in NumPy; ``seed`` is anything ``numpy.random.default_rng`` takes (an int >= 0, or
a ``Generator`` whose stream they draw from), and the same seed gives the same graph on every
machine. [`rmat_pairs`][dyng.generators.graphs.rmat_pairs] and
[`payment_pairs`][dyng.generators.graphs.payment_pairs] draw more edges the way the graphs were
drawn: new follows, new payments. An argument outside its documented range is a
[`dyng.InvalidArgumentError`][] that names it. ``dyng demo`` builds its graphs with these
functions, and the tutorials of the documentation site use them at small sizes.

Examples
--------
>>> import dyng
>>> streets = dyng.generators.street_grid(3, seed=1)
>>> streets.num_junctions, streets.num_streets
(9, 11)
>>> graph = streets.edges().to_graph()
>>> graph.num_edges == 2 * streets.num_streets
True
>>> follows = dyng.generators.rmat(6, seed=1)
>>> follows.num_vertices, bool((follows.src != follows.dst).all())
(64, True)
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng._convert import INT32_MAX, as_int, refuse_dtype, to_numpy
from dyng._errors import InvalidArgumentError

__all__ = [
    "EdgeList",
    "StreetGrid",
    "street_grid",
    "rmat",
    "rmat_pairs",
    "payments",
    "payment_pairs",
    "TRAVEL_SECONDS",
]

TRAVEL_SECONDS = (20, 120)
"""The range of a street's travel time in seconds, from a fast avenue to a slow side street."""
_MISSING_BLOCKS = 0.125
# Quadrant probabilities of R-MAT (Graph500's a, b, c; d = 0.05).
_RMAT_ABC = (0.57, 0.19, 0.19)
_RMAT_CHUNK = 1 << 17
# The pair functions draw int64 ids, with room left for a payee's id + _PAYMENT_REACH.
_MAX_DRAWN_ACCOUNTS = 1 << 62
# rmat and payments merge repeated pairs as int64 keys src * n + dst: n is at most 2**31.
_MAX_MERGED_VERTICES = 1 << 31
# How far (in ids) a payment usually goes: the community each account belongs to.
_PAYMENT_REACH = 40


@dataclasses.dataclass(frozen=True)
class EdgeList:
    """A directed edge list: ``src[i] -> dst[i]`` with ``weights[i]``.

    Attributes
    ----------
    num_vertices : int
        Vertices ``0 .. num_vertices - 1`` (some may have no edges).
    src, dst : ndarray
        Ends of each edge: int32 (int64 when ``num_vertices`` passes ``2**31``), so that
        [`to_graph`][dyng.generators.graphs.EdgeList.to_graph] makes a graph with int32 ids,
        which every algorithm takes.
    weights : ndarray or None
        int32 weight per edge; None for an unweighted graph.

    Examples
    --------
    >>> import numpy as np
    >>> from dyng.generators import EdgeList
    >>> edges = EdgeList(4, np.array([0, 1], np.int32), np.array([1, 2], np.int32))
    >>> edges.num_edges, edges.to_graph().num_vertices
    (2, 4)
    """

    num_vertices: int
    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray | None = None

    @property
    def num_edges(self):
        """The number of edges, a Python int."""
        return int(self.src.size)

    def to_graph(self, **options):
        """A [`dyng.Graph`][] of these edges, with all ``num_vertices`` vertices.

        Parameters
        ----------
        **options
            Keywords of [`dyng.Graph.from_edges`][] (``resources``, ``directed``,
            ``properties``, ``vertex_dtype``, ...) besides ``num_vertices``, which is the edge
            list's own.

        Returns
        -------
        Graph

        Raises
        ------
        InvalidArgumentError
            As [`dyng.Graph.from_edges`][] raises it: for an edge list whose ids are not below
            ``num_vertices``, ``src``, ``dst`` and ``weights`` of different lengths, weights
            outside int32, or a bad option value.
        NotSupportedError
            For a ``vertex_dtype`` or ``edge_dtype`` this build does not compile.
        TypeError
            For a keyword [`dyng.Graph.from_edges`][] does not take (``num_vertices``
            included), or ``resources`` that is not a [`dyng.Resources`][], a backend name or
            None.

        Examples
        --------
        >>> from dyng.generators import street_grid
        >>> street_grid(2, seed=0).edges().to_graph(vertex_dtype="int32").num_vertices
        4
        """
        from dyng._graph import Graph

        if "num_vertices" in options:
            raise TypeError(
                f"EdgeList.to_graph(): num_vertices={options['num_vertices']!r} is not an option; "
                f"the graph has the edge list's {self.num_vertices} vertices (make an EdgeList "
                f"with another num_vertices instead)"
            )
        return Graph.from_edges(
            self.src, self.dst, self.weights, num_vertices=self.num_vertices, **options
        )


@dataclasses.dataclass(frozen=True)
class StreetGrid:
    """The streets of a ``side x side`` grid of junctions (junction ``row * side + column``).

    Attributes
    ----------
    side : int
    ends : ndarray, shape (k, 2)
        int64 junctions ``(u, v)``, ``u < v``, of each two-way street, each street once.
    seconds : ndarray, shape (k,)
        int64 travel time of each street, the same both ways.

    Examples
    --------
    >>> from dyng.generators import street_grid
    >>> streets = street_grid(3, seed=1)
    >>> streets.edges([0]).num_edges  # one street: both of its directions
    2
    """

    side: int
    ends: np.ndarray
    seconds: np.ndarray

    @property
    def num_junctions(self):
        """``side * side``, a Python int."""
        return self.side * self.side

    @property
    def num_streets(self):
        """The number of two-way streets, a Python int."""
        return int(len(self.ends))

    def edges(self, streets=None, seconds=None):
        """Both directions of some streets as one
        [`EdgeList`][dyng.generators.graphs.EdgeList]: first every street ``u -> v``, then every
        ``v -> u``.

        Parameters
        ----------
        streets : array_like of int, optional
            Indices into ``ends`` (``0 .. num_streets - 1``); all streets when None.
        seconds : array_like of int, optional
            Their travel times (one per street, in ``[0, 2**31 - 1]``); their own ``seconds``
            when None.

        Returns
        -------
        EdgeList
            int32 weights: the travel times.

        Raises
        ------
        InvalidArgumentError
            When `streets` or `seconds` is not a 1-d array of integers, an index of `streets`
            is not a street's, `seconds` does not give one time per street, or a time is
            negative or does not fit int32.

        Examples
        --------
        >>> from dyng.generators import street_grid
        >>> streets = street_grid(3, seed=1)
        >>> jammed = streets.edges([0], seconds=[500])
        >>> jammed.weights.tolist()
        [500, 500]
        """
        pick = slice(None) if streets is None else self._street_indices(streets)
        ends = self.ends[pick]
        times = self.seconds[pick] if seconds is None else _travel_times(seconds, len(ends))
        n = self.num_junctions
        return EdgeList(
            n,
            _ids(np.concatenate([ends[:, 0], ends[:, 1]]), n),
            _ids(np.concatenate([ends[:, 1], ends[:, 0]]), n),
            np.concatenate([times, times]).astype(np.int32),
        )

    def _street_indices(self, streets):
        """`streets` as int64 indices into ``ends``, each a street's."""
        picked = _integers(streets, "StreetGrid.edges", "streets", "street indices")
        outside = (picked < 0) | (picked >= self.num_streets)
        if outside.any():
            position = int(np.argmax(outside))
            raise InvalidArgumentError(
                f"StreetGrid.edges(): streets[{position}] = {int(picked[position])} is not a "
                f"street; pass indices in [0, {self.num_streets})"
            )
        return picked.astype(np.int64)


def _travel_times(seconds, count):
    """`seconds` as int64 travel times, one for each of `count` picked streets."""
    times = _integers(seconds, "StreetGrid.edges", "seconds", "travel times")
    if len(times) != count:
        raise InvalidArgumentError(
            f"StreetGrid.edges(): seconds has {len(times)} travel times for {count} streets; "
            f"pass one per street"
        )
    outside = (times < 0) | (times > INT32_MAX)
    if outside.any():
        position = int(np.argmax(outside))
        raise InvalidArgumentError(
            f"StreetGrid.edges(): seconds[{position}] = {int(times[position])} is not a travel "
            f"time; pass seconds in [0, {INT32_MAX}] (int32 weights)"
        )
    return times.astype(np.int64)


def _integers(values, function, argument, what):
    """`values` as a 1-d integer ndarray (bool and floating point refused: no silent cast)."""
    array = to_numpy(values, function, argument)
    if array.size == 0 and array.dtype.kind == "f":
        array = array.astype(np.int64)  # an empty float array has no value to misread
    refuse_dtype(array.dtype, function, argument, what)
    if array.ndim != 1:
        raise InvalidArgumentError(
            f"{function}(): {argument} has shape {array.shape}; {what} must be 1-d"
        )
    return array


def _rng(function, seed):
    """numpy's Generator for `seed`; a seed numpy refuses is a dyng error naming the function."""
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(
            f"{function}(): seed={seed!r} is not a seed ({exc}); pass an int >= 0, a "
            f"numpy.random.Generator or None"
        ) from None


def street_grid(side, *, seed=None):
    """A street grid of ``side x side`` junctions with travel times.

    Every block between neighbouring junctions is a two-way street, except about one in eight
    (drawn at random); each street's travel time is drawn from ``TRAVEL_SECONDS``.

    Parameters
    ----------
    side : int
        Junctions per row and per column.
    seed : int or numpy.random.Generator, optional
        What ``numpy.random.default_rng`` takes; a Generator is drawn from (and advanced).

    Returns
    -------
    StreetGrid

    Raises
    ------
    InvalidArgumentError
        When `side` is not an integer >= 0 or `seed` is not a seed.

    Examples
    --------
    >>> from dyng.generators import street_grid
    >>> streets = street_grid(10, seed=3)
    >>> streets.num_junctions, bool((streets.ends[:, 0] < streets.ends[:, 1]).all())
    (100, True)
    """
    side = as_int(side, "street_grid", "side", minimum=0)
    rng = _rng("street_grid", seed)
    ids = np.arange(side * side, dtype=np.int64).reshape(side, side)
    across = np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], axis=1)
    down = np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], axis=1)
    ends = np.concatenate([across, down])
    ends = ends[rng.random(len(ends)) >= _MISSING_BLOCKS]
    low, high = TRAVEL_SECONDS
    seconds = rng.integers(low, high + 1, size=len(ends), dtype=np.int64)
    return StreetGrid(side, ends, seconds)


def rmat_pairs(scale, count, *, seed=None):
    """`count` R-MAT (follower, followed) pairs among ``2**scale`` accounts.

    Self-follows and repeats are included ([`rmat`][dyng.generators.graphs.rmat] drops them).

    Parameters
    ----------
    scale : int
        log2 of the number of accounts, in ``[0, 62]`` (ids are int64).
    count : int
        Pairs to draw (>= 0).
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    tuple of ndarray
        int64 ``(src, dst)``.

    Raises
    ------
    InvalidArgumentError
        When `scale` or `count` is not an integer in its range, or `seed` is not a seed.

    Examples
    --------
    >>> from dyng.generators import rmat_pairs
    >>> src, dst = rmat_pairs(4, 5, seed=2)
    >>> src.shape, bool((dst < 16).all())
    ((5,), True)
    """
    max_scale = _MAX_DRAWN_ACCOUNTS.bit_length() - 1
    scale = as_int(scale, "rmat_pairs", "scale", minimum=0, maximum=max_scale)
    count = as_int(count, "rmat_pairs", "count", minimum=0)
    rng = _rng("rmat_pairs", seed)
    a, b, c = _RMAT_ABC
    place = 1 << np.arange(scale - 1, -1, -1, dtype=np.int64)
    src = np.empty(count, dtype=np.int64)
    dst = np.empty(count, dtype=np.int64)
    # In chunks, so the draws (scale doubles per pair) stay a few tens of MiB.
    for begin in range(0, count, _RMAT_CHUNK):
        end = min(begin + _RMAT_CHUNK, count)
        draws = rng.random((end - begin, scale))
        src_bit = draws >= a + b
        dst_bit = ((draws >= a) & ~src_bit) | (draws >= a + b + c)
        src[begin:end] = src_bit.astype(np.int64) @ place
        dst[begin:end] = dst_bit.astype(np.int64) @ place
    return src, dst


def rmat(scale, edge_factor=8, *, seed=None):
    """A follower network: ``edge_factor * 2**scale`` R-MAT draws among ``2**scale`` accounts,
    self-follows dropped and repeats merged.

    Parameters
    ----------
    scale : int
        log2 of the number of accounts, in ``[0, 31]`` (repeats are merged through int64 keys
        ``src * 2**scale + dst``).
    edge_factor : int
        Draws per account (>= 0; fewer edges remain after merging repeats).
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    EdgeList
        Unweighted, sorted by ``(src, dst)``.

    Raises
    ------
    InvalidArgumentError
        When `scale` or `edge_factor` is not an integer in its range, or `seed` is not a seed.

    Examples
    --------
    >>> from dyng.generators import rmat
    >>> follows = rmat(5, 4, seed=0)
    >>> follows.num_vertices, follows.num_edges <= 4 * 32
    (32, True)
    """
    max_scale = _MAX_MERGED_VERTICES.bit_length() - 1
    scale = as_int(scale, "rmat", "scale", minimum=0, maximum=max_scale)
    edge_factor = as_int(edge_factor, "rmat", "edge_factor", minimum=0)
    rng = _rng("rmat", seed)
    n = 1 << scale
    src, dst = rmat_pairs(scale, edge_factor * n, seed=rng)
    keys = _unique_keys(src, dst, n)
    return EdgeList(n, _ids(keys // n, n), _ids(keys % n, n))


def payment_pairs(accounts, count, *, seed=None):
    """`count` (payer, payee) pairs drawn as [`payments`][dyng.generators.graphs.payments]
    draws them: nine in ten within the payer's community (the next few dozen ids, wrapping
    around), the rest to anyone.

    Parameters
    ----------
    accounts : int
        Accounts ``0 .. accounts - 1``, in ``[1, 2**62]`` (ids are int64).
    count : int
        Pairs to draw (>= 0).
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    tuple of ndarray
        int64 ``(src, dst)``; a pair may repeat or be a self-payment.

    Raises
    ------
    InvalidArgumentError
        When `accounts` or `count` is not an integer in its range, or `seed` is not a seed.

    Examples
    --------
    >>> from dyng.generators import payment_pairs
    >>> payer, payee = payment_pairs(100, 3, seed=1)
    >>> payer.shape, payee.shape
    ((3,), (3,))
    """
    accounts = as_int(accounts, "payment_pairs", "accounts", minimum=1, maximum=_MAX_DRAWN_ACCOUNTS)
    count = as_int(count, "payment_pairs", "count", minimum=0)
    rng = _rng("payment_pairs", seed)
    src = rng.integers(0, accounts, size=count, dtype=np.int64)
    near = (src + rng.integers(1, _PAYMENT_REACH + 1, size=count)) % accounts
    anyone = rng.integers(0, accounts, size=count, dtype=np.int64)
    dst = np.where(rng.random(count) < 0.9, near, anyone)
    return src, dst


def payments(accounts, per_account=2, *, seed=None):
    """A payment graph: each account pays `per_account` others (see
    [`payment_pairs`][dyng.generators.graphs.payment_pairs]), self-payments dropped and repeats
    merged.

    Parameters
    ----------
    accounts : int
        Accounts ``0 .. accounts - 1``, in ``[1, 2**31]`` (repeats are merged through int64
        keys ``src * accounts + dst``).
    per_account : int
        Payments each account draws (>= 0).
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    EdgeList
        Unweighted, sorted by ``(src, dst)``.

    Raises
    ------
    InvalidArgumentError
        When `accounts` or `per_account` is not an integer in its range, or `seed` is not a
        seed.

    Examples
    --------
    >>> from dyng.generators import payments
    >>> paid = payments(50, seed=4)
    >>> paid.num_vertices, paid.num_edges <= 100
    (50, True)
    """
    accounts = as_int(accounts, "payments", "accounts", minimum=1, maximum=_MAX_MERGED_VERTICES)
    per_account = as_int(per_account, "payments", "per_account", minimum=0)
    rng = _rng("payments", seed)
    src, dst = payment_pairs(accounts, accounts * per_account, seed=rng)
    keys = _unique_keys(src, dst, accounts)
    return EdgeList(accounts, _ids(keys // accounts, accounts), _ids(keys % accounts, accounts))


def _ids(ids, n):
    """`ids` (int64) as int32 when every id of ``n`` vertices fits."""
    return ids.astype(np.int32) if n <= np.iinfo(np.int32).max else ids


def _unique_keys(src, dst, n):
    """``src * n + dst`` of the pairs, sorted, without repeats or self-loops."""
    keys = src * n + dst
    keys = keys[src != dst]
    # Sort and compare neighbours: np.unique's hash path is several times slower on these.
    keys.sort()
    first = np.ones(len(keys), dtype=bool)  # one per key: no key left (all self-loops) is no key
    first[1:] = keys[1:] != keys[:-1]
    return keys[first]
