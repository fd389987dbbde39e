"""A graph spread over the ranks: each holds its shard as a dyng.Graph over global ids.

A rank's shard is the out-edges of the vertices it owns, stored in an ordinary directed
[`dyng.Graph`][] whose vertex ids are the global ones, so local algorithms run on it unchanged;
on the host in a host world, on the rank's GPU in a device world.
An undirected graph's shard holds its owned vertices' rows as one undirected graph stores them:
every edge in both directions, each with its source's owner (`_shards`). A batch is routed to
the owners of its entries' endpoints, exchanged (an undirected entry then stands for both its
directions), and applied by each rank to its shard under the graph's own batch rules; the
apply is made revertible and the ranks vote on it, so a batch refused anywhere is taken back
everywhere and raises the same error on every rank.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from dyng import _convert
from dyng._batch import ApplySummary, _Resolved
from dyng._errors import InvalidArgumentError, NotSupportedError
from dyng._graph import Graph, _resolve_properties
from dyng._resources import Resources
from dyng.distributed import _transports
from dyng.distributed._context import Context, init
from dyng.distributed._exchange import ReceivedEdges, _exchange
from dyng.distributed._partition import VertexPartition, _ids
from dyng.distributed._routing import Routing, _route_ids
from dyng.distributed._shards import _both_directions, shard_edges
from dyng.distributed._vote import vote

FROM_EDGES = "dyng.distributed.DistributedGraph.from_edges()"
APPLY = "DistributedGraph.apply"

# Counters that add up over the ranks (each direction of an entry is applied on its source's
# owner only, and an undirected graph's summary counts both directions, as one graph's does):
# all of ApplySummary's but the vertex counts, which come from the largest count over the ranks.
_PER_GRAPH = ("inserted_vertices", "num_vertices_after")
_SUMMED = tuple(f.name for f in dataclasses.fields(ApplySummary) if f.name not in _PER_GRAPH)


@dataclasses.dataclass(frozen=True)
class _RoutedBatch:
    """A rank's checked part of a batch and where each of its entries goes."""

    insertions: Routing
    deletions: Routing
    insertion_arrays: tuple[np.ndarray, np.ndarray, np.ndarray]  # src, dst, (n, K) int32 rows
    deletion_arrays: tuple[np.ndarray, np.ndarray, np.ndarray]  # src, dst, (n, 0) rows


def _directions(received: ReceivedEdges) -> ReceivedEdges:
    """Undirected entries as the directed entries they stand for: each entry, then its reverse
    (once for a self-loop), each keeping the entry's origin, position and weights."""
    index, reverse = _both_directions(received.src, received.dst)
    src, dst = received.src[index], received.dst[index]
    return ReceivedEdges(
        received.origins[index],
        received.positions[index],
        np.where(reverse, dst, src),
        np.where(reverse, src, dst),
        received.weights[index],
    )


def _no_weights(length: int) -> np.ndarray:
    return np.zeros((length, 0), dtype=np.int32)


def _verdict(action):
    """(action's value, None), or (None, the error it raised): a rank's part of a vote."""
    try:
        return action(), None
    except Exception as error:  # every error is voted on, lest the other ranks wait forever
        return None, error


def _allreduce(comm, values, op_name: str) -> np.ndarray:
    """Elementwise SUM or MAX of int64 `values` over the ranks (themselves for a world of one)."""
    local = np.asarray(values, dtype=np.int64)
    if comm is None:
        return local
    total = np.empty_like(local)
    comm.Allreduce(local, total, getattr(_transports.mpi(), op_name))
    return total


def _is_directed(options: dict, function: str) -> bool:
    """Whether [`dyng.Graph.from_edges`][]'s keywords `options` ask for a directed graph."""
    return _resolve_properties(
        function[:-2],
        options.get("properties"),
        options.get("directed"),
        options.get("store_transposed"),
        options.get("layout"),
        options.get("row_order"),
        options.get("multi_edges"),
        options.get("semantics"),
    ).directed


def _balanced(sources, targets, num_vertices, size, directed) -> VertexPartition:
    """The ranges balanced by the rows' lengths: out-degrees, or both ends' degrees for an
    undirected graph (its rows hold the directions of both ends)."""
    if len(sources) != len(targets):
        raise InvalidArgumentError(
            f"{FROM_EDGES}: src has {len(sources)} entries and dst {len(targets)}; pass one "
            "endpoint pair per edge"
        )
    if not directed:
        sources = np.concatenate([sources, targets[targets != sources]])
    return VertexPartition.from_edges(sources, num_vertices, size)


def _build_shard(partition, context, src, dst, weights, num_vertices, options, directed) -> Graph:
    """This rank's shard as a host Graph over the global ids (every rank builds its own)."""
    shard = shard_edges(partition, context.rank, src, dst, weights, directed=directed)
    # Converted as dyng.Graph.from_edges converts them, so every shard infers one graph's types.
    sources = _convert.id_array(src, FROM_EDGES[:-2], "src")[shard.edge_ids]
    targets = _convert.id_array(dst, FROM_EDGES[:-2], "dst")[shard.edge_ids]
    if not directed:  # the directions whose source the rank owns: some entries reversed
        reverse = shard.src != sources
        sources, targets = np.where(reverse, targets, sources), np.where(reverse, sources, targets)
    return _shard_graph(sources, targets, shard.weights, num_vertices, options, context)


def _shard_graph(src, dst, weights, num_vertices, options, context, function=FROM_EDGES) -> Graph:
    """The Graph of a rank's own directed edges (an undirected graph's both directions): on
    the host in a host world, on the rank's GPU (its local rank) in a device world."""
    directed_options = {**options, "directed": True}
    if context.space == "device" and directed_options.get("resources") is None:
        directed_options["resources"] = Resources.cuda(device=context.local_rank)
    local = Graph.from_edges(src, dst, weights, num_vertices=num_vertices, **directed_options)
    if local.space != context.space:
        raise NotSupportedError(
            f"{function}: the world was set up for {context.space} graphs "
            f'(dyng.distributed.init("{context.space}")) but the resources put this rank\'s '
            f"shard on the {local.space}; pass resources of the world's kind, or none (a "
            "device world puts each shard on its rank's GPU)"
        )
    return local


def _require_host_shards(graph, function: str) -> None:
    """Refuses an algorithm not distributed over device shards yet."""
    if graph.local.space != "host":
        raise NotSupportedError(
            f"{function}: the algorithm runs across host shards only yet (device shards are the "
            "next step: docs/developer/distributed.md, the plan); build the DistributedGraph "
            'in a host world (dyng.distributed.init("host")), or run dyng on one GPU'
        )


class DistributedGraph:
    """A graph whose vertices and out-edges are spread over the ranks of a world.

    Rank r holds the out-edges of the vertices its [`VertexPartition`][dyng.distributed.VertexPartition]
    range owns, as an ordinary directed [`dyng.Graph`][] over the global vertex ids
    ([`local`][dyng.distributed.DistributedGraph.local]), so local algorithms run on it: on the
    host in a host world, on the rank's GPU in a device world (where, so far, ``apply``, the
    counters and the weak components run across the ranks, and sssp refuses the graph). An
    undirected graph (``directed=False``) stores every edge in both directions, as one undirected
    graph does, each direction with the owner of its source: an edge whose ends two ranks own
    is held by both, and the shard holds exactly its vertices' rows of the whole graph.
    [`apply`][dyng.distributed.DistributedGraph.apply] routes a batch to the owners, applies it
    there with the graph's own batch rules, and keeps the all-or-nothing rule of one graph across
    the ranks. Build one with [`from_edges`][dyng.distributed.DistributedGraph.from_edges], or
    from a file with [`read_edge_list`][dyng.distributed.read_edge_list] or
    [`read_matrix_market`][dyng.distributed.read_matrix_market];
    calling ``DistributedGraph()`` directly raises TypeError. Every method but ``local``,
    ``partition`` and ``context`` is collective: every rank calls it, in the same order.

    Examples
    --------
    >>> import dyng, dyng.distributed as dd
    >>> g = dd.DistributedGraph.from_edges([0, 1, 2], [1, 2, 0], [4, 5, 6])
    >>> (g.num_vertices, g.num_edges, g.context.size)
    (3, 3, 1)
    >>> g.apply(dyng.EdgeBatch(delete=([2], [0]))).deleted_edges
    1
    """

    _local: Graph
    _partition: VertexPartition
    _context: Context
    _comm: Any  # mpi4py.MPI.Comm, or None for a world of one
    _directed: bool  # False: each entry stands for both directions (the shard is directed)

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "DistributedGraph() cannot be called directly; build one with "
            "dyng.distributed.DistributedGraph.from_edges(...)"
        )

    @classmethod
    def from_edges(
        cls, src, dst, weights=None, *, num_vertices=None, partition=None, context=None, **options
    ) -> DistributedGraph:
        """Builds the distributed graph from the global edge list; each rank keeps its shard.

        Every rank calls it with the same global arrays (a collective). A rank whose shard
        cannot be built (a self-loop under ``on_self_loop="error"``...) makes every rank raise.

        Parameters
        ----------
        src, dst : array_like of int
            The global edge list's endpoints.
        weights : array_like of int, optional
            None (unweighted), shape (m,) for K = 1, or (m, K); int32 range.
        num_vertices : int, optional
            Defaults to max id + 1.
        partition : VertexPartition, optional
            The vertex ranges, one per rank; defaults to ranges balanced by the edges' sources
            ([`VertexPartition.from_edges`][dyng.distributed.VertexPartition.from_edges]), for
            an undirected graph by both ends (its rows' lengths).
        context : Context, optional
            This process's world; None calls [`init`][dyng.distributed.init] (host graphs).
            In a device world (``init("device")``) each shard lives on its rank's GPU (its
            local rank), unless `resources` names one; only ``apply`` and the counters run
            across device shards yet.
        **options
            [`dyng.Graph.from_edges`][]'s keywords (directed, semantics, properties,
            multi_edges, row_order, vertex_dtype...) for every rank's shard; with
            ``directed=False`` the shard holds both directions of each edge whose ends the rank
            owns, and ``num_edges`` counts as an undirected [`dyng.Graph`][] does.

        Returns
        -------
        DistributedGraph
            This rank's view of the graph, at version 0.

        Raises
        ------
        InvalidArgumentError
            On every rank, for what [`dyng.Graph.from_edges`][] refuses on any rank, or a
            partition for another number of ranks.
        NotSupportedError
            For shard resources of another kind than the world's (CUDA resources in a host
            world, host ones in a device world), or a device world of several ranks without
            an MPI launcher (torchrun: the batches and votes travel over MPI).

        Examples
        --------
        >>> import dyng.distributed as dd
        >>> part = dd.VertexPartition.from_edges([0, 1], 3, num_ranks=1)
        >>> g = dd.DistributedGraph.from_edges([0, 1], [1, 2], [3, 4], partition=part)
        >>> g.local.edges()[2].tolist()
        [[3], [4]]
        >>> u = dd.DistributedGraph.from_edges([0, 1], [1, 1], [3, 4], directed=False)
        >>> (u.directed, u.num_edges, u.local.edges()[0].tolist())
        (False, 3, [0, 1, 1])
        """
        context = init("host") if context is None else context
        comm = _transports.host_comm(context)

        def build():
            directed = _is_directed(options, FROM_EDGES)
            sources, targets = _ids(src, "src", FROM_EDGES), _ids(dst, "dst", FROM_EDGES)
            n = num_vertices
            if n is None:
                n = int(max(sources.max(initial=-1), targets.max(initial=-1))) + 1
            chosen = partition
            if chosen is None:
                chosen = _balanced(sources, targets, n, context.size, directed)
            if chosen.num_ranks != context.size:
                raise InvalidArgumentError(
                    f"{FROM_EDGES}: the partition has {chosen.num_ranks} ranks but the world "
                    f"{context.size}; build it with num_ranks=context.size"
                )
            shard = _build_shard(chosen, context, src, dst, weights, n, options, directed)
            return chosen, shard, directed

        built, verdict = _verdict(build)
        vote(verdict, comm=comm)
        return cls._of_shard(built[1], built[0], context, comm, built[2])

    @classmethod
    def _of_shard(cls, local: Graph, partition: VertexPartition, context, comm, directed: bool):
        """The graph of this rank's shard, built and voted on by every rank (the constructors'
        last step; dyng.distributed._files reads the shard from a file)."""
        self = object.__new__(cls)
        self._local, self._partition = local, partition
        self._context, self._comm, self._directed = context, comm, directed
        return self

    @property
    def local(self) -> Graph:
        """This rank's shard: a directed [`dyng.Graph`][] of the out-edges of its vertices,
        global ids (for an undirected graph, both directions of its vertices' edges)."""
        return self._local

    @property
    def directed(self) -> bool:
        """False for an undirected graph (whose shards store each edge in both directions)."""
        return self._directed

    @property
    def partition(self) -> VertexPartition:
        """The vertex ranges of the ranks."""
        return self._partition

    @property
    def context(self) -> Context:
        """The world this graph is spread over."""
        return self._context

    @property
    def num_vertices(self) -> int:
        """Number of vertices of the whole graph (collective: the largest shard's count)."""
        return int(_allreduce(self._comm, [self._local.num_vertices], "MAX")[0])

    @property
    def num_edges(self) -> int:
        """Number of edges of the whole graph (collective: the sum of the shards' edges), as
        [`dyng.Graph.num_edges`][] counts them: an undirected edge twice, a self-loop once."""
        return int(_allreduce(self._comm, [self._local.num_edges], "SUM")[0])

    @property
    def num_weights(self) -> int:
        """Weights per edge (K; 0 when unweighted), the same on every rank."""
        return self._local.num_weights

    @property
    def version(self) -> int:
        """Number of batches applied since construction, the same on every rank."""
        return self._local.version

    def apply(self, batch) -> ApplySummary:
        """Applies the ranks' batches as one batch, all or nothing across the ranks.

        A collective: every rank passes its own part (an empty ``EdgeBatch()`` when it has
        none). The distributed batch is the ranks' parts laid end to end in rank order, resolved
        under the graph's [`BatchSemantics`][dyng.BatchSemantics] exactly as one graph would
        resolve it: each entry is sent to the owners of its endpoints and applied by its
        source's owner (for an undirected graph, each direction by its own source's owner, so
        an entry (u, v) and a later (v, u) name the same edge, as on one undirected graph).
        When any rank refuses its part, no rank's shard changes and every rank raises the
        same error.

        Parameters
        ----------
        batch : EdgeBatch
            This rank's part of the batch.

        Returns
        -------
        ApplySummary
            The counters of the whole batch (summed over the ranks), the same on every rank.

        Raises
        ------
        TypeError
            When a rank's `batch` is not an EdgeBatch.
        InvalidArgumentError
            What [`dyng.Graph.apply`][] raises for the batch on any rank (a missing deletion
            under ``on_missing_delete="error"``, a weight count other than the graph's...).
        NotSupportedError
            For a batch with vertex insertions or deletions.
        CapacityError
            When a rank's shard would need more edge slots than its offset type addresses.

        Examples
        --------
        >>> import dyng, dyng.distributed as dd
        >>> g = dd.DistributedGraph.from_edges([0], [1], semantics=dyng.BatchSemantics(
        ...     on_missing_delete="error"))
        >>> g.apply(dyng.EdgeBatch(insert=([1], [2]))).inserted_edges, g.num_edges
        (1, 2)
        >>> try:
        ...     g.apply(dyng.EdgeBatch(insert=([2], [0]), delete=([2], [1])))
        ... except dyng.InvalidArgumentError:
        ...     print(g.num_edges, g.version)
        2 1
        """
        return self._apply_logged(batch, log=False)[0]

    def _apply_logged(self, batch, *, log: bool):
        """apply(), also returning this rank's own part: the summary and, with `log`, the
        ChangeLog of its shard's apply. Both come after the vote, so a result repaired from
        the log never sees a batch that another rank refused (the graph stays as it is until
        the next apply, so the log still describes it)."""
        routed, verdict = _verdict(lambda: self._route(batch))
        vote(verdict, comm=self._comm)
        return self._apply_voted(self._deliver(routed), log=log)

    def _deliver(self, routed: _RoutedBatch) -> tuple[ReceivedEdges, ReceivedEdges]:
        """The entries sent to this rank: (insertions, deletions), by sending rank; for an
        undirected graph each entry followed by its reverse (a self-loop once), so the apply and
        the repairs read the directions as a directed graph's entries."""
        insertions = _exchange(routed.insertions, *routed.insertion_arrays, comm=self._comm)
        deletions = _exchange(routed.deletions, *routed.deletion_arrays, comm=self._comm)
        if self._directed:
            return insertions, deletions
        return _directions(insertions), _directions(deletions)

    def _apply_voted(self, received, *, log: bool):
        """_apply_logged's second half, for a batch already routed and voted on by every rank
        and delivered (`_deliver`): callers that routed it for their own checks (sssp_update)
        pass it here rather than routing it again."""
        comm, local = self._comm, self._local
        # Alone, the local apply's own atomicity is the vote: no undo record to keep.
        revertible = comm is not None
        with local._write_lock:
            version, before = local.version, local.num_vertices
            applied, verdict = _verdict(lambda: self._apply_received(received, revertible, log))
            try:
                vote(verdict, comm=comm)
            except BaseException:
                if verdict is None and revertible:
                    local._revert_apply(version)
                raise
            if revertible:
                local._forget_revert()
        summary, change_log = applied
        return self._whole_summary(summary, before), summary, change_log

    def _route(self, batch) -> _RoutedBatch:
        """Checks this rank's part as one graph would on arrival, and routes it to the owners."""
        # The shard's own check of a batch (type, ids, weights), as Graph.apply makes it; what
        # it returns is sent, and the receiver applies it without a second check.
        resolved = self._local._resolve_batch(batch, APPLY)
        if resolved.staged is not None:
            raise NotSupportedError(
                f"{APPLY}: a batch of device arrays cannot be routed yet (the ranks route "
                "batches on the host); pass NumPy arrays, or copy them to the host first"
            )
        n, k = len(resolved.insert_src), self._local.num_weights
        weights = resolved.insert_weights
        rows = np.zeros((n, k), dtype=np.int32) if weights.size < n * k else weights.reshape(n, k)
        return _RoutedBatch(
            _route_ids(self._partition, resolved.insert_src, resolved.insert_dst),
            _route_ids(self._partition, resolved.delete_src, resolved.delete_dst),
            (resolved.insert_src, resolved.insert_dst, rows),
            (resolved.delete_src, resolved.delete_dst, _no_weights(len(resolved.delete_src))),
        )

    def _apply_received(self, received, revertible: bool, log: bool):
        """Applies the received entries this rank's shard stores; (summary, ChangeLog or None)."""
        mine = self._local_batch(*received)
        return self._local._apply(None, APPLY, log=log, resolved=mine, revertible=revertible)

    def _local_batch(self, insertions: ReceivedEdges, deletions: ReceivedEdges) -> _Resolved:
        """The received entries this rank's shard stores (those whose source it owns), in the
        form the shard's apply takes: they were checked by their senders."""
        rank, owner, k = self._context.rank, self._partition._owner_of, self._local.num_weights
        if self._partition.num_ranks == 1:  # alone, the rank owns every source
            keep_insert = keep_delete = slice(None)
        else:
            keep_insert, keep_delete = owner(insertions.src) == rank, owner(deletions.src) == rank
        dtype = self._local._native.vertex_dtype

        def ids(values, argument):  # a no-op unless the sender's shard held wider ids
            return _convert.cast_ids(values, dtype, APPLY, argument)

        return _Resolved(
            ids(insertions.src[keep_insert], "insert_src"),
            ids(insertions.dst[keep_insert], "insert_dst"),
            np.ascontiguousarray(insertions.weights[keep_insert]).reshape(-1),
            k,
            ids(deletions.src[keep_delete], "delete_src"),
            ids(deletions.dst[keep_delete], "delete_dst"),
        )

    def _whole_summary(self, summary: ApplySummary, before: int) -> ApplySummary:
        """The whole batch's counters: sums over the ranks; vertex counts from the largest."""
        if self._comm is None:  # alone, the sums and the largest are this rank's own
            grown = summary.num_vertices_after - before
            if grown == summary.inserted_vertices:
                return summary
            return dataclasses.replace(summary, inserted_vertices=grown)
        counters = dataclasses.asdict(summary)
        sums = _allreduce(self._comm, [counters[name] for name in _SUMMED], "SUM")
        most = _allreduce(self._comm, [before, counters["num_vertices_after"]], "MAX")
        return ApplySummary(
            **dict(zip(_SUMMED, (int(value) for value in sums))),
            inserted_vertices=int(most[1] - most[0]),
            num_vertices_after=int(most[1]),
        )
