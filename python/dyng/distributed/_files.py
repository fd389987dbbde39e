"""A DistributedGraph read from a file, each rank holding only its own shard's edges.

Every rank reads the same file with [`dyng.io`][]'s ``source_range``: the parse reads and checks
every line (so a broken file fails on every rank alike), but keeps only the edges whose source
the rank owns, so no rank ever holds the whole edge list. The partition must be known before the
shard is read, and balancing it by edges needs every vertex's out-degree, which no rank has yet.
Without a given partition the ranks find the degrees together, in two reads before the shard's:

1. every rank reads the file keeping no edge (``source_range=(0, 0)``): the vertex count n;
2. rank r reads the r-th of p equal slices of the ids (a split by vertex count), counts the
   out-degrees of its slice, and an all-gather gives every rank all n degrees;
3. the ranges balanced by those degrees
   ([`VertexPartition.from_degrees`][dyng.distributed.VertexPartition.from_degrees]) are the
   partition, and each rank reads its shard (reusing step 2's read when the ranges coincide).

The degrees are those of the edges the readers return (self-loops dropped, duplicates merged,
mirrors added as asked), so the partition is exactly the one
[`DistributedGraph.from_edges`][dyng.distributed.DistributedGraph.from_edges] makes from the
whole list. The cost: three parses of the file instead of one, memory O(n) per rank for the
degrees, and, during step 2, the edges of one slice of the ids (m/p for ids of even degree, more
on a rank whose slice holds the hubs of a skewed graph). A partition passed in skips steps 1 and
2: one parse. A world of one reads the file once.

An undirected graph's row holds both directions of its vertex's edges, so a rank needs the edges
that end at its vertices too, which other ranks read: each rank sends the edges of its part to
the owners of both their ends (the batch exchange), and keeps both directions of what it
receives whose source it owns (``shard_edges(directed=False)``). The exchange delivers by
sending rank, then position: the full read's order, since the readers sort by (src, dst) and
the ranges ascend, so each edge's entries (u, v) and (v, u) arrive in the order one
undirected graph resolves them in. The degrees behind the partition then count both ends.
"""

from __future__ import annotations

import inspect

import numpy as np

from dyng import io
from dyng._errors import InvalidArgumentError, NotSupportedError
from dyng.distributed import _transports
from dyng.distributed._context import init
from dyng.distributed._exchange import _exchange
from dyng.distributed._graph import (
    DistributedGraph,
    _allreduce,
    _is_directed,
    _shard_graph,
    _verdict,
)
from dyng.distributed._partition import VertexPartition
from dyng.distributed._routing import _route_ids
from dyng.distributed._shards import shard_edges
from dyng.distributed._vote import vote


def _owned(partition: VertexPartition, rank: int) -> tuple[int, int | None]:
    """The source range `rank` reads: its range, open at the top for the last rank (which owns
    the ids past the partition's vertex count)."""
    start, stop = partition.range_of(rank)
    return start, (None if rank == partition.num_ranks - 1 else stop)


def _all_degrees(part, slices: VertexPartition, rank: int, comm, directed) -> np.ndarray:
    """Every vertex's out-degree, from each rank's part of its own slice of the ids; for an
    undirected graph its row's length (the edges that end at it count too, self-loops once)."""
    start, stop = slices.range_of(rank)
    src, dst = np.asarray(part.src, dtype=np.int64), np.asarray(part.dst, dtype=np.int64)
    mine = np.bincount(src - start, minlength=stop - start)
    degrees = np.empty(slices.num_vertices, dtype=np.int64)
    comm.Allgatherv(mine.astype(np.int64), [degrees, np.diff(slices.starts)])
    if not directed:
        ends = np.bincount(dst[src != dst], minlength=slices.num_vertices)
        degrees += _allreduce(comm, ends, "SUM")
    return degrees


def _collective(action, comm):
    """action()'s value on every rank, or every rank raising the lowest failing rank's error."""
    value, verdict = _verdict(action)
    vote(verdict, comm=comm)
    return value


def _shard_and_partition(read, context, comm, partition, function, directed):
    """(partition, this rank's part of the file), read as the module docstring says."""
    rank, size = context.rank, context.size
    if partition is not None:
        if partition.num_ranks != size:
            raise InvalidArgumentError(
                f"{function}: the partition has {partition.num_ranks} ranks but the world "
                f"{size}; build it with num_ranks=context.size"
            )
        return partition, _collective(lambda: read(_owned(partition, rank)), comm)
    if size == 1:
        whole = _collective(lambda: read((0, None)), comm)
        return VertexPartition(np.array([0, whole.num_vertices], dtype=np.int64)), whole
    n = _collective(lambda: read((0, 0)).num_vertices, comm)
    slices = VertexPartition(np.arange(size + 1, dtype=np.int64) * n // size)
    start, stop = slices.range_of(rank)
    part = _collective(lambda: read((start, stop)), comm)
    degrees = _all_degrees(part, slices, rank, comm, directed)
    chosen = VertexPartition.from_degrees(degrees, size)
    if chosen.range_of(rank) != (start, stop):
        del part  # the slice's edges go before the shard's come
        part = _collective(lambda: read(_owned(chosen, rank)), comm)
    return chosen, part


def _touching(part, partition: VertexPartition, comm):
    """(src, dst, weights or None): the file's edges with an end this rank owns, in the full
    read's order (the module docstring says why), gathered from every rank's part."""
    src, dst = np.asarray(part.src, np.int64), np.asarray(part.dst, np.int64)
    rows = np.zeros((len(src), 0), np.int32) if part.weights is None else part.weights
    rows = np.ascontiguousarray(rows, dtype=np.int32)
    got = _exchange(_route_ids(partition, src, dst), src, dst, rows, comm=comm)
    return got.src, got.dst, None if part.weights is None else got.weights


def _undirected_shard(part, partition, context, comm, options, function):
    """This rank's shard of an undirected graph from its part of the file (a collective)."""
    src, dst, weights = _touching(part, partition, comm)

    def build():
        shard = shard_edges(partition, context.rank, src, dst, weights, directed=False)
        return _shard_graph(
            shard.src, shard.dst, shard.weights, part.num_vertices, options, context, function
        )

    return _collective(build, comm)


def _split_keywords(reader, keywords: dict) -> tuple[dict, dict]:
    """(the reader's keywords, the rest: dyng.Graph.from_edges's)."""
    names = set(inspect.signature(reader).parameters) - {"path", "source_range"}
    return (
        {k: v for k, v in keywords.items() if k in names},
        {k: v for k, v in keywords.items() if k not in names},
    )


def _from_file(reader, function, path, partition, context, keywords) -> DistributedGraph:
    context = init("host") if context is None else context
    comm = _transports.host_comm(context)
    read_keywords, graph_keywords = _split_keywords(reader, keywords)
    directed = _is_directed(graph_keywords, function)
    if not directed and read_keywords.get("sort_and_dedupe") is False:
        raise NotSupportedError(
            f"{function}: an undirected graph is read in the readers' (src, dst) order, which "
            "both owners of an edge must share; pass sort_and_dedupe=True"
        )

    def read(source_range):
        return reader(path, source_range=source_range, **read_keywords)

    chosen, part = _shard_and_partition(read, context, comm, partition, function, directed)
    options = {"vertex_dtype": part.src.dtype.name, **graph_keywords}
    if not directed:
        local = _undirected_shard(part, chosen, context, comm, options, function)
        return DistributedGraph._of_shard(local, chosen, context, comm, False)
    # The part is the shard already (its sources are this rank's): no shard_edges() pass.
    local = _collective(
        lambda: _shard_graph(
            part.src, part.dst, part.weights, part.num_vertices, options, context, function
        ),
        comm,
    )
    return DistributedGraph._of_shard(local, chosen, context, comm, True)


def read_edge_list(path, *, partition=None, context=None, **keywords) -> DistributedGraph:
    """Reads a text edge list as a [`DistributedGraph`][dyng.distributed.DistributedGraph],
    each rank keeping only its shard's edges (a collective).

    Every rank reads the file with [`dyng.io.read_edge_list_arrays`][]'s ``source_range``;
    without a `partition`, the ranks first find every vertex's out-degree together and balance
    the ranges by them, in two more reads of the file (docs/developer/distributed.md, "Reading
    a shard from a file", says how and what it costs). Ids are the file's (``ids="as_is"``).

    Parameters
    ----------
    path : str or os.PathLike
        The file, the same on every rank.
    partition : VertexPartition, optional
        The vertex ranges, one per rank; defaults to ranges balanced by the file's out-degrees
        (the partition [`DistributedGraph.from_edges`][dyng.distributed.DistributedGraph.from_edges]
        makes from the whole list).
    context : Context, optional
        This process's world; None calls [`init`][dyng.distributed.init] (host graphs).
        In a device world (``init("device")``) each shard lives on its rank's GPU.
    **keywords
        [`dyng.io.read_edge_list_arrays`][]'s keywords (num_weights, index_base, symmetrize,
        duplicates...; not ``ids="compact"``, whose ids depend on the whole file), and
        [`dyng.Graph.from_edges`][]'s for every rank's shard (semantics, properties...;
        ``directed=False`` reads an undirected graph, each rank also receiving the edges that
        end at its vertices from the ranks that read them).

    Returns
    -------
    DistributedGraph
        This rank's view of the graph, at version 0; ``num_vertices`` is the file's.

    Raises
    ------
    FileFormatError
        On every rank, for a missing file or a malformed line anywhere in it.
    InvalidArgumentError
        On every rank, for a keyword the reader or [`dyng.Graph.from_edges`][] refuses, or a
        partition for another number of ranks.
    NotSupportedError
        For shard resources of another kind than the world's, or a device world of several
        ranks without an MPI launcher.

    Examples
    --------
    >>> import os, tempfile, dyng.distributed as dd
    >>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(p, "w").write("0 1 5\\n1 2 6\\n2 0 7\\n")
    >>> g = dd.read_edge_list(p, num_weights=1)
    >>> (g.num_vertices, g.num_edges, g.partition.starts.tolist())
    (3, 3, [0, 3])
    """
    keywords.setdefault("ids", "as_is")
    return _from_file(
        io.read_edge_list_arrays,
        "dyng.distributed.read_edge_list()",
        path,
        partition,
        context,
        keywords,
    )


def read_matrix_market(path, *, partition=None, context=None, **keywords) -> DistributedGraph:
    """Reads a coordinate Matrix Market file as a
    [`DistributedGraph`][dyng.distributed.DistributedGraph], each rank keeping only its shard's
    edges (a collective), as [`read_edge_list`][dyng.distributed.read_edge_list] does.

    Parameters
    ----------
    path : str or os.PathLike
        The file, the same on every rank.
    partition : VertexPartition, optional
        The vertex ranges; defaults to ranges balanced by the file's out-degrees (a symmetric
        matrix's entries count in both directions).
    context : Context, optional
        This process's world; None calls [`init`][dyng.distributed.init] (host graphs).
        In a device world (``init("device")``) each shard lives on its rank's GPU.
    **keywords
        [`dyng.io.read_matrix_market_arrays`][]'s keywords (weights, drop_self_loops...; not
        ``weights="random"``, drawn over the whole file's edges), and
        [`dyng.Graph.from_edges`][]'s for every rank's shard.

    Returns
    -------
    DistributedGraph
        This rank's view of the graph (0-based ids), at version 0.

    Raises
    ------
    FileFormatError
        On every rank, for a missing file or a malformed banner, size line or entry.
    InvalidArgumentError
        On every rank, for a keyword the reader or [`dyng.Graph.from_edges`][] refuses, or a
        partition for another number of ranks.
    NotSupportedError
        For shard resources of another kind than the world's, a device world of several
        ranks without an MPI launcher, or an undirected graph read with
        ``sort_and_dedupe=False`` (its owners need the sorted order).

    Examples
    --------
    >>> import os, tempfile, dyng.distributed as dd
    >>> p = os.path.join(tempfile.mkdtemp(), "g.mtx")
    >>> _ = open(p, "w").write(
    ...     "%%MatrixMarket matrix coordinate integer symmetric\\n3 3 2\\n2 1 5\\n3 2 6\\n")
    >>> g = dd.read_matrix_market(p)
    >>> (g.num_vertices, g.num_edges, g.local.edges()[0].tolist())
    (3, 4, [0, 1, 1, 2])
    """
    return _from_file(
        io.read_matrix_market_arrays,
        "dyng.distributed.read_matrix_market()",
        path,
        partition,
        context,
        keywords,
    )
