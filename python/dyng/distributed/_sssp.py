"""Single-source shortest paths over a DistributedGraph, equal to dyng.sssp on the whole graph.

Each rank keeps the distances and canonical parents of the vertices it owns. ``sssp_compute``
runs delta-stepping in bulk-synchronous rounds whose relaxations are exchanged with the owners
(``_sssp_rounds``); ``sssp_update`` applies a batch through ``DistributedGraph.apply`` and
repairs: it cuts the subtrees below the tree edges the batch touched (a walk down the tree, one
level per round), resets them, and searches again from their in-neighbours and the inserted
edges' sources, or recomputes when more vertices were cut than the budget allows (decided by an
allreduce, so every rank takes the same branch).
"""

from __future__ import annotations

import dataclasses

import numpy as np

import dyng.sssp
from dyng import _convert
from dyng._batch import ApplySummary
from dyng._errors import InvalidArgumentError, NotSupportedError, StaleResultError
from dyng._result import make_options
from dyng.distributed._exchange import _exchange
from dyng.distributed._graph import DistributedGraph, _allreduce, _require_host_shards, _verdict
from dyng.distributed._routing import Routing
from dyng.distributed._sssp_rounds import (
    _owned_range,
    _Shard,
    _to_all,
    _to_everyone,
    _Tree,
    cut,
    search,
    send_offers,
)
from dyng.distributed._vote import vote
from dyng.sssp import INFINITE_DISTANCE, Options

COMPUTE = "dyng.distributed.sssp_compute"
UPDATE = "dyng.distributed.sssp_update"
GATHER = "SsspResult.gather"


@dataclasses.dataclass(frozen=True)
class SsspStats:
    """What one distributed sssp compute or update did, the same on every rank.

    Attributes
    ----------
    path : str
        ``"compute"``, ``"repair"`` (the cut subtrees were searched again) or ``"recompute"``
        (more vertices were cut than ``max_invalidated``).
    invalidated : int
        Vertices cut by the update, over all ranks (0 for a compute).
    rounds : int
        Relaxation rounds of the search (each one exchange and one allreduce).
    batch : ApplySummary or None
        The applied batch's counters (None for a compute).

    Examples
    --------
    >>> import dyng, dyng.distributed as dd
    >>> g = dd.DistributedGraph.from_edges([0, 1], [1, 2], [1, 1])
    >>> dd.sssp_compute(g, 0).stats.path
    'compute'
    """

    path: str
    invalidated: int
    rounds: int
    batch: ApplySummary | None = None


class SsspResult:
    """This rank's part of a shortest-path tree of a [`DistributedGraph`][dyng.distributed.DistributedGraph].

    Made by [`sssp_compute`][dyng.distributed.sssp_compute], kept current by
    [`sssp_update`][dyng.distributed.sssp_update]. ``distances`` and ``parents`` hold the
    vertices this rank owns, ``first`` onwards; [`gather`][dyng.distributed.SsspResult.gather]
    assembles the whole arrays, equal to [`dyng.sssp.compute`][]'s on the whole graph.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> g = dd.DistributedGraph.from_edges([0, 1], [1, 2], [2, 3])
    >>> r = dd.sssp_compute(g, 0)
    >>> r.first, r.distances.tolist(), r.parents.tolist()
    (0, [0, 2, 5], [-1, 0, 1])
    """

    _graph: DistributedGraph
    _tree: _Tree
    _options: Options
    _source: int
    _delta: int  # the bucket width of the compute, kept by the updates
    _num_vertices: int
    _version: int
    _stats: SsspStats

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "SsspResult cannot be created directly; use dyng.distributed.sssp_compute()"
        )

    @classmethod
    def _made(cls, graph, tree, num_vertices, options, source, delta, stats) -> SsspResult:
        self = object.__new__(cls)
        self._graph, self._options, self._source, self._delta = graph, options, source, delta
        self._keep(tree, num_vertices, stats)
        return self

    def _keep(self, tree: _Tree, num_vertices: int, stats: SsspStats) -> None:
        self._tree, self._num_vertices = tree, num_vertices
        self._version, self._stats = self._graph.version, stats

    @property
    def source(self) -> int:
        """The source vertex."""
        return self._source

    @property
    def first(self) -> int:
        """The first vertex this rank owns: ``distances[i]`` is vertex ``first + i``'s."""
        return self._tree.first

    @property
    def num_vertices(self) -> int:
        """Vertices of the whole graph the tree covers."""
        return self._num_vertices

    @property
    def distances(self) -> np.ndarray:
        """int64 distances of this rank's vertices (``dyng.sssp.INFINITE_DISTANCE``: unreachable)."""
        return _read_only(self._tree.dist)

    @property
    def parents(self) -> np.ndarray:
        """Canonical parents of this rank's vertices in the graph's vertex dtype (-1: none)."""
        return _read_only(self._tree.par.astype(self._graph.local.vertex_dtype))

    @property
    def graph_version(self) -> int:
        """The graph version the result matches."""
        return self._version

    @property
    def options(self) -> Options:
        """The options the result was computed with, which updates keep."""
        return dataclasses.replace(self._options)

    @property
    def stats(self) -> SsspStats:
        """What the last compute or update did."""
        return self._stats

    def __repr__(self) -> str:
        return (
            f"dyng.distributed.SsspResult(source={self._source}, first={self.first}, "
            f"owned={len(self._tree.dist)}, graph_version={self._version})"
        )

    def gather(self, root=None):
        """The whole distances and parents, assembled from every rank's part (a collective).

        Parameters
        ----------
        root : int, optional
            The rank that receives them; None (the default) gives them to every rank.

        Returns
        -------
        tuple of numpy.ndarray, or None
            ``(distances, parents)`` over all ``num_vertices`` vertices, int64 and the graph's
            vertex dtype, equal to [`dyng.sssp.compute`][]'s on the whole graph; None on the
            ranks other than `root`.

        Raises
        ------
        InvalidArgumentError
            When `root` is not a rank of the world.

        Examples
        --------
        >>> import dyng.distributed as dd
        >>> g = dd.DistributedGraph.from_edges([0, 0, 1], [1, 2, 2], [1, 5, 1])
        >>> distances, parents = dd.sssp_compute(g, 0).gather()
        >>> distances.tolist(), parents.tolist()
        ([0, 1, 2], [-1, 0, 1])
        """
        partition, tree, n = self._graph.partition, self._tree, self._num_vertices
        size, count = partition.num_ranks, len(tree.dist)
        if root is None:
            routing = _to_all(count, size)
        else:
            root = _convert.as_int(root, GATHER, "root", minimum=0, maximum=size - 1)
            offsets = np.where(np.arange(size + 1) > root, count, 0).astype(np.int64)
            routing = Routing(offsets, np.arange(count, dtype=np.int64))
        rows = np.zeros((count, 0), np.int32)
        got = _exchange(routing, tree.dist, tree.par, rows, comm=self._graph._comm)
        if root is not None and root != self._graph.context.rank:
            return None
        firsts = np.array([_owned_range(partition, r, n)[0] for r in range(size)], np.int64)
        at = firsts[got.origins] + got.positions
        distances = np.full(n, INFINITE_DISTANCE, np.int64)
        parents = np.full(n, -1, np.int64)
        distances[at], parents[at] = got.src, got.dst
        return distances, parents.astype(self._graph.local.vertex_dtype)


def _read_only(values: np.ndarray) -> np.ndarray:
    view = values.view()
    view.flags.writeable = False
    return view


def _delta(shard: _Shard, lengths, options: Options) -> int:
    """The bucket width: the options' when set, else the largest mean edge length of a rank;
    the largest over the ranks either way, so that every rank opens the same buckets
    (distances and parents do not depend on it). A world of one opens no bucket (its one
    search settles everything) and has no scan (`lengths` None): the options' width, or 1."""
    if lengths is None:
        return max(1, options.delta)
    edges, total = lengths[:2]
    mean = total // edges if edges else 1
    return max(1, -shard.min(-(options.delta or mean)))


def _agree(comm, values, function: str, what: str) -> None:
    """Raises on every rank when the ranks passed different `values`: the rounds would
    otherwise diverge (or wait on each other forever)."""
    count = len(values)
    both = _allreduce(comm, [*values, *(-int(v) for v in values)], "MAX")
    if any(int(both[i]) != -int(both[count + i]) for i in range(count)):
        raise InvalidArgumentError(
            f"{function}(): the ranks passed different {what}; every rank must pass the same"
        )


def _fresh_tree(graph, shard: _Shard, source: int, num_vertices: int, delta: int, longest=0):
    """A compute from scratch: (this rank's tree, rounds); `longest`, when known, is the
    shard's largest length (0: unknown, as after a batch)."""
    if _is_whole(graph, num_vertices):
        return _whole_tree(graph, shard, source, num_vertices), 1
    tree = _Tree.empty(*_owned_range(graph.partition, graph.context.rank, num_vertices))
    active = np.zeros(len(tree.dist), dtype=bool)
    if 0 <= source - tree.first < len(tree.dist):
        tree.dist[source - tree.first] = 0
        active[source - tree.first] = True
    return tree, search(shard, tree, active, delta, longest)


def _is_whole(graph, num_vertices: int) -> bool:
    """Whether this rank's shard is the whole graph (a world of one): its one local search is
    then dyng.sssp's compute (`_whole_tree`)."""
    if graph.partition.num_ranks != 1:
        return False
    first, last = _owned_range(graph.partition, graph.context.rank, num_vertices)
    return last - first == graph.local.num_vertices


def _whole_tree(graph, shard: _Shard, source: int, num_vertices: int) -> _Tree:
    """dyng.sssp's compute on a shard that is the whole graph, whose kernels (packed rows,
    narrow distances, a team when one pays) the owned search lacks, as this rank's tree. Its
    own weight scan refuses a length < 1, so the compute's checks skip the shard's scan
    (`_check_compute`); only then does the shard's scan run, to name the edge as the checks of
    several ranks do."""
    try:
        whole = dyng.sssp.compute(
            graph.local, source, objective=shard.objective, validate_inputs=False
        )
    except InvalidArgumentError:
        edges, _, _, smallest, u, v = shard.lengths()
        if edges and smallest < 1:
            raise _short_length(COMPUTE, "edge", u, v, smallest) from None
        raise
    first = _owned_range(graph.partition, graph.context.rank, num_vertices)[0]
    # A writable copy of the distances (the updates repair them in place); the parents'
    # widening to int64 is their one copy.
    parents = whole.parents.to_numpy(copy=False).astype(np.int64)
    return _Tree(first, whole.distances.to_numpy(), parents)


def _short_length(function: str, what: str, u: int, v: int, length: int) -> InvalidArgumentError:
    """The refusal of `what` (u, v), whose length is < 1."""
    return InvalidArgumentError(
        f"{function}(): {what} ({u}, {v}) has length {length} in the objective column; sssp "
        "needs lengths >= 1 (as dyng.sssp does), so fix the weights"
    )


def _check_lengths(lengths: np.ndarray, ends, function: str, what: str) -> None:
    """Raises for the first length < 1; `ends(i)` gives entry i's (u, v) for the message."""
    if len(lengths) and int(lengths.min()) < 1:
        position = int(np.argmax(lengths < 1))
        u, v = ends(position)
        raise _short_length(function, what, u, v, int(lengths[position]))


def _check_compute(graph, source, options: Options, num_vertices: int):
    """This rank's part of the checks of a compute; the shard's view and its lengths' scan
    (``_Shard.lengths``) when they pass, None for the scan in a world of one (whose compute's
    own scan refuses a length < 1, `_whole_tree`)."""
    if graph.num_weights == 0:
        raise NotSupportedError(
            f"{COMPUTE}(): the graph is unweighted; sssp needs edge lengths: build the graph "
            "with weights"
        )
    if options.objective >= graph.num_weights:
        raise InvalidArgumentError(
            f"{COMPUTE}(): objective={options.objective} but the graph has "
            f"{graph.num_weights} weight columns; pass 0 <= objective < {graph.num_weights}"
        )
    if not 0 <= source < num_vertices:
        raise InvalidArgumentError(
            f"{COMPUTE}(): source {source} is not a vertex (num_vertices={num_vertices}); "
            f"pass 0 <= source < {num_vertices}"
        )
    shard = _Shard.of(graph, options.objective)
    if _is_whole(graph, num_vertices):
        return shard, None
    lengths = shard.lengths()
    edges, _, _, smallest, u, v = lengths
    if edges and smallest < 1:
        raise _short_length(COMPUTE, "edge", u, v, smallest)
    return shard, lengths


def sssp_compute(graph, source, *, options=None, **fields) -> SsspResult:
    """Shortest-path distances and canonical parents from `source` over a distributed graph.

    A collective: every rank calls it with the same arguments. The result holds this rank's
    vertices; its arrays, gathered, equal [`dyng.sssp.compute`][]'s on the whole graph bit for
    bit (int64 distances, ``dyng.sssp.INFINITE_DISTANCE`` when unreachable; parents the
    lowest-id in-neighbour on a shortest path, -1 for the source and unreachable vertices),
    whatever the partition. Delta-stepping in rounds: each rank relaxes the out-edges of its
    vertices in the current bucket and sends the relaxations to the targets' owners.

    Parameters
    ----------
    graph : DistributedGraph
        Weighted (lengths >= 1 in the objective column).
    source : int
        The vertex the distances count from.
    options : dyng.sssp.Options, optional
        ``delta`` (0: the largest mean edge length of a rank now, which the updates keep),
        and ``objective`` are used; ``validate_inputs`` and ``cuda_engine`` are checked and
        otherwise ignored: lengths < 1 are refused always, as [`dyng.sssp.compute`][] refuses
        them.
    **fields
        Override fields of `options`.

    Returns
    -------
    SsspResult
        This rank's part of the tree, at the graph's current version.

    Raises
    ------
    TypeError
        `graph` is not a DistributedGraph, `options` not an Options, or a field name is unknown.
    InvalidArgumentError
        On every rank: a field value is not valid, `source` is not a vertex, the graph has no
        `objective` column, a length on any rank is < 1, or the ranks passed different
        sources or objectives.
    NotSupportedError
        On every rank, when the graph is unweighted.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> g = dd.DistributedGraph.from_edges([0, 1, 0], [1, 2, 2], [[3, 1], [4, 1], [9, 5]])
    >>> dd.sssp_compute(g, 0, objective=1).gather()[0].tolist()
    [0, 1, 2]
    """
    if not isinstance(graph, DistributedGraph):
        raise TypeError(
            f"{COMPUTE}(): graph must be a dyng.distributed.DistributedGraph; got "
            f"{type(graph).__name__}"
        )
    _require_host_shards(graph, f"{COMPUTE}()")
    num_vertices = graph.num_vertices

    def checked():
        opts = make_options(COMPUTE, Options, options, fields)
        start = _convert.as_int(source, COMPUTE, "source")
        return opts, start, *_check_compute(graph, start, opts, num_vertices)

    built, verdict = _verdict(checked)
    vote(verdict, comm=graph._comm)
    opts, start, shard, lengths = built
    _agree(graph._comm, [start, opts.objective], COMPUTE, "sources or objectives")
    delta = _delta(shard, lengths, opts)
    longest = 0 if lengths is None else lengths[2]
    tree, rounds = _fresh_tree(graph, shard, start, num_vertices, delta, longest)
    stats = SsspStats("compute", 0, rounds)
    return SsspResult._made(graph, tree, num_vertices, opts, start, delta, stats)


def _check_update(graph, batch, result, max_invalidated):
    """This rank's part of the checks of an update: (its routed part, the budget)."""
    if not isinstance(graph, DistributedGraph):
        raise TypeError(
            f"{UPDATE}(): graph must be a dyng.distributed.DistributedGraph; got "
            f"{type(graph).__name__}"
        )
    _require_host_shards(graph, f"{UPDATE}()")
    if not isinstance(result, SsspResult):
        raise TypeError(
            f"{UPDATE}(): result must be a dyng.distributed.SsspResult; got {type(result).__name__}"
        )
    if result._graph is not graph or result.graph_version != graph.version:
        raise StaleResultError(
            f"{UPDATE}(): the result is at version {result.graph_version} of its graph but "
            f"this graph is at version {graph.version} (or is another graph); pass every batch "
            "to sssp_update, or compute again"
        )
    budget = result._num_vertices // 4 + 64 if max_invalidated is None else max_invalidated
    budget = _convert.as_int(budget, UPDATE, "max_invalidated", minimum=0)
    routed = graph._route(batch)
    src, dst, rows = routed.insertion_arrays
    lengths = rows[:, result._options.objective]
    _check_lengths(lengths, lambda i: (int(src[i]), int(dst[i])), UPDATE, "insertion")
    return routed, budget


def _tree_edges(tree: _Tree, entries) -> np.ndarray:
    """Positions of this rank's vertices v that an entry (u, v) reaches from their parent u."""
    at = entries.dst - tree.first
    mine = (at >= 0) & (at < len(tree.dist))
    at, sources = at[mine], entries.src[mine]
    return at[tree.par[at] == sources]


def _repair(shard: _Shard, tree: _Tree, received, budget: int, delta: int):
    """Cut, reset, seed, search: (vertices cut, rounds); the rounds are None (nothing searched)
    when more were cut than `budget`. `received` is the batch's entries sent to this rank
    (``DistributedGraph._deliver``): the apply and the repair share one exchange."""
    inserted, deleted = received
    roots = np.concatenate([_tree_edges(tree, inserted), _tree_edges(tree, deleted)])
    cut_at, invalidated = cut(shard, tree, roots, budget)
    if invalidated > budget:
        return invalidated, None
    tree.dist[cut_at], tree.par[cut_at] = INFINITE_DISTANCE, -1
    # The inserted edges' sources relax their out-edges again. The cut vertices get, from
    # wherever their in-neighbours live, the offers of their in-edges: relaxing those
    # neighbours' whole rows would offer their other targets, which kept their distances,
    # nothing new. The rounds carry the rest.
    at = inserted.src - tree.first
    at = at[(at >= 0) & (at < len(tree.dist))]
    active = np.zeros(len(tree.dist), dtype=bool)
    active[at[tree.dist[at] < INFINITE_DISTANCE]] = True
    if invalidated:  # the same on every rank: an allreduced count
        everyone = _to_everyone(shard, cut_at + tree.first)
        send_offers(shard, tree, active, *shard.offers_into(tree, everyone))
    return invalidated, search(shard, tree, active, delta)


def sssp_update(graph, batch, result, *, max_invalidated=None) -> SsspStats:
    """Applies `batch` to `graph` and repairs `result`: equal to a fresh compute afterwards.

    A collective: every rank passes its own part of the batch, as to
    [`DistributedGraph.apply`][dyng.distributed.DistributedGraph.apply]. As
    [`dyng.sssp.update`][] for one graph, a batch refused on any rank (by the graph's batch
    rules, or an inserted length < 1) or a stale result raises on every rank and
    changes neither the graph nor the result. The repair cuts the subtrees below the tree edges
    that the batch touches, walking down the tree one level per round across the ranks, and
    searches again from the cut vertices' in-neighbours and the inserted edges' sources; when
    more than `max_invalidated` vertices are cut it computes afresh instead.

    Parameters
    ----------
    graph : DistributedGraph
        The graph `result` was computed on.
    batch : EdgeBatch
        This rank's part of the batch.
    result : SsspResult
        A current result of `graph` (at its version); repaired in place.
    max_invalidated : int, optional
        The most cut vertices (over all ranks) repaired; more recompute. Default: a quarter of
        the vertices, plus 64.

    Returns
    -------
    SsspStats
        What the update did, the same on every rank; ``result.stats`` holds it too.

    Raises
    ------
    TypeError
        On every rank: `graph`, `batch` or `result` of the wrong type on any rank.
    StaleResultError
        On every rank: `result` belongs to another graph or another version.
    InvalidArgumentError
        On every rank: what [`DistributedGraph.apply`][dyng.distributed.DistributedGraph.apply]
        refuses, an inserted length < 1, a negative `max_invalidated`, or ranks that passed
        different `max_invalidated`.

    Examples
    --------
    >>> import dyng, dyng.distributed as dd
    >>> g = dd.DistributedGraph.from_edges([0, 0, 1], [1, 2, 2], [1, 5, 1])
    >>> r = dd.sssp_compute(g, 0)
    >>> dd.sssp_update(g, dyng.EdgeBatch(delete=([1], [2])), r).path
    'repair'
    >>> r.gather()[0].tolist(), r.gather()[1].tolist()
    ([0, 1, 5], [-1, 0, 0])
    """
    comm = getattr(graph, "_comm", None)
    checked, verdict = _verdict(lambda: _check_update(graph, batch, result, max_invalidated))
    vote(verdict, comm=comm)
    routed, budget = checked
    _agree(comm, [budget], UPDATE, "max_invalidated")
    # The batch was routed and voted on by the checks above: the apply takes it as it is.
    received = graph._deliver(routed)
    summary = graph._apply_voted(received, log=False)[0]
    num_vertices = graph.num_vertices
    shard = _Shard.of(graph, result._options.objective)
    tree = result._tree.resized(*_owned_range(graph.partition, graph.context.rank, num_vertices))
    delta = result._delta
    invalidated, rounds = _repair(shard, tree, received, budget, delta)
    if rounds is None:
        tree, rounds = _fresh_tree(graph, shard, result.source, num_vertices, delta)
        stats = SsspStats("recompute", invalidated, rounds, summary)
    else:
        stats = SsspStats("repair", invalidated, rounds, summary)
    result._keep(tree, num_vertices, stats)
    return stats
