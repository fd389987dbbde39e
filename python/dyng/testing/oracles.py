"""Pure-Python reference models for dyng's tests.

Nothing here touches dyng's native code, so a disagreement between a model and the library is
evidence against one of two independent implementations. Everything favours obviousness over
speed: graphs are dicts of edges, Dijkstra is textbook, cycles are enumerated by depth-first
search. Use them on graphs of at most a few hundred edges.

The batch model follows section 3 of the dyng 0.2 API facts (``BatchSemantics``): deletions run
first (unless ``deletions_first=False``), a missing deletion is ignored, inserting an existing edge
updates it (``upsert``) or is ignored, ids beyond the vertex count grow the graph, and with
``as_sets=True`` repeats of one insertion or one deletion in a batch collapse into one before
anything is counted (the first insertion's weight is kept), and an insertion of an edge that the
same batch deleted counts one cancelled pair. On an undirected graph each batch pair acts on both
directions and every counter counts both (a self-loop once).
"""

from __future__ import annotations

import dataclasses
import heapq
from collections.abc import Iterable, Sequence

__all__ = [
    "INFINITE_DISTANCE",
    "ModelError",
    "ModelSemantics",
    "ModelSummary",
    "GraphModel",
    "dijkstra",
    "component_labels",
    "bfs_levels",
    "simple_cycle_histogram",
    "triangle_count",
    "pagerank_ranks",
    "pagerank_step",
    "edges_from_arrays",
    "SUMMARY_FIELDS",
]

INFINITE_DISTANCE = 2**61 - 1
"""Distance of an unreachable vertex (same value as [`dyng.sssp.INFINITE_DISTANCE`][])."""

SUMMARY_FIELDS = (
    "inserted_edges",
    "updated_edges",
    "deleted_edges",
    "ignored_deletions",
    "dropped_self_loops",
    "cancelled_pairs",
    "inserted_vertices",
    "deleted_vertices",
    "num_vertices_after",
    "ignored_insertions",
)
"""The counters of [`dyng.ApplySummary`][], in declaration order."""


class ModelError(ValueError):
    """A batch that dyng must reject (the model's stand-in for ``InvalidArgumentError``).

    Examples
    --------
    >>> m = GraphModel(2, [0], [1], semantics="set")
    >>> m.apply([0], [-1], None, [], [])
    Traceback (most recent call last):
    ...
    dyng.testing.oracles.ModelError: GraphModel.apply: negative id -1
    """


@dataclasses.dataclass(frozen=True)
class ModelSemantics:
    """The fields of [`dyng.BatchSemantics`][] as plain strings and booleans.

    Attributes
    ----------
    on_existing_insert : {"upsert", "ignore", "error"}
        What inserting an existing edge does.
    on_missing_delete : {"ignore", "error"}
        What deleting a missing edge does.
    on_self_loop : {"keep", "drop", "error"}
        What inserting a self-loop does.
    deletions_first : bool
        Whether a batch's deletions run before its insertions.
    allow_vertex_growth : bool
        Whether ids beyond the vertex count grow the graph (otherwise they are refused).
    as_sets : bool
        Whether repeats of one insertion or deletion in a batch collapse into one.

    Examples
    --------
    >>> ModelSemantics.coerce("set").on_self_loop
    'drop'
    >>> ModelSemantics().on_existing_insert
    'upsert'
    """

    on_existing_insert: str = "upsert"
    on_missing_delete: str = "ignore"
    on_self_loop: str = "keep"
    deletions_first: bool = True
    allow_vertex_growth: bool = True
    as_sets: bool = False

    @classmethod
    def upsert_last_wins(cls) -> ModelSemantics:
        """The default preset: an existing edge's insertion updates its weights.

        Returns
        -------
        ModelSemantics
            ``BatchSemantics.upsert_last_wins()``'s fields.

        Examples
        --------
        >>> ModelSemantics.upsert_last_wins() == ModelSemantics()
        True
        """
        return cls()

    @classmethod
    def set(cls) -> ModelSemantics:
        """The "set" preset: batches as sets of changes (repeats collapse, existing insertions
        and missing deletions are ignored, self-loops dropped).

        Returns
        -------
        ModelSemantics
            ``BatchSemantics.set()``'s fields.

        Examples
        --------
        >>> ModelSemantics.set().as_sets
        True
        """
        return cls("ignore", "ignore", "drop", True, True, True)

    @classmethod
    def coerce(cls, value) -> ModelSemantics:
        """The semantics `value` names.

        Parameters
        ----------
        value : str, ModelSemantics or object
            None or ``"upsert_last_wins"``, ``"set"``, a ModelSemantics, or anything with the
            same attributes (such as a [`dyng.BatchSemantics`][]; enum values are read through
            their ``value``).

        Returns
        -------
        ModelSemantics
            The preset, `value` itself, or a copy of its fields.

        Raises
        ------
        AttributeError
            `value` is none of these and lacks one of the fields.

        Examples
        --------
        >>> import dyng
        >>> ModelSemantics.coerce(dyng.BatchSemantics.set()) == ModelSemantics.set()
        True
        """
        if value is None or value == "upsert_last_wins":
            return cls.upsert_last_wins()
        if value == "set":
            return cls.set()
        if isinstance(value, cls):
            return value
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(cls)}
        return cls(**{k: getattr(v, "value", v) for k, v in fields.items()})


@dataclasses.dataclass
class ModelSummary:
    """Counters of one [`GraphModel.apply`][dyng.testing.oracles.GraphModel.apply], named like
    [`dyng.ApplySummary`][]'s.

    Attributes
    ----------
    inserted_edges, updated_edges, deleted_edges : int
        Edges the batch inserted, re-weighted and deleted.
    ignored_deletions, ignored_insertions : int
        Deletions of missing edges and insertions of existing ones that did nothing.
    dropped_self_loops : int
        Self-loop insertions the semantics dropped.
    cancelled_pairs : int
        With ``as_sets``, insertions of an edge the same batch deleted.
    inserted_vertices, deleted_vertices : int
        Vertices the batch added and removed.
    num_vertices_after : int
        The vertex count after the batch.

    Examples
    --------
    >>> s = GraphModel(2, [0], [1]).apply([1, 0], [0, 1], None, [], [])
    >>> s.inserted_edges, s.updated_edges
    (1, 1)
    """

    inserted_edges: int = 0
    updated_edges: int = 0
    deleted_edges: int = 0
    ignored_deletions: int = 0
    dropped_self_loops: int = 0
    cancelled_pairs: int = 0
    inserted_vertices: int = 0
    deleted_vertices: int = 0
    num_vertices_after: int = 0
    ignored_insertions: int = 0

    def as_dict(self) -> dict[str, int]:
        """The counters as a dict, in ``SUMMARY_FIELDS`` order.

        Returns
        -------
        dict of str to int
            ``{field: count}``, comparable with [`fields_of`][dyng.testing.oracles.ModelSummary.fields_of].

        Examples
        --------
        >>> ModelSummary(inserted_edges=2).as_dict()["inserted_edges"]
        2
        """
        return {name: getattr(self, name) for name in SUMMARY_FIELDS}

    @staticmethod
    def fields_of(summary) -> dict[str, int]:
        """The counters of any ApplySummary-like object, as a dict comparable with as_dict().

        Parameters
        ----------
        summary : object
            A [`dyng.ApplySummary`][], a ModelSummary, or anything with the same counters.

        Returns
        -------
        dict of str to int
            ``{field: count}`` in ``SUMMARY_FIELDS`` order.

        Raises
        ------
        AttributeError
            `summary` lacks one of the counters.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0], [1])
        >>> m = GraphModel(2, [0], [1])
        >>> a = g.apply(dyng.EdgeBatch(insert=([1], [0])))
        >>> ModelSummary.fields_of(a) == m.apply([1], [0], None, [], []).as_dict()
        True
        """
        return {name: int(getattr(summary, name)) for name in SUMMARY_FIELDS}


def _as_int_list(values) -> list[int]:
    if values is None:
        return []
    return [int(v) for v in (values.tolist() if hasattr(values, "tolist") else values)]


def _weight_rows(weights, count: int) -> tuple[int, list[tuple[int, ...]]]:
    """Normalises weights given as None, (m,) or (m, K) into (K, list of K-tuples)."""
    if weights is None:
        return 0, [()] * count
    rows = weights.tolist() if hasattr(weights, "tolist") else list(weights)
    if len(rows) != count:
        raise ModelError(f"GraphModel: {len(rows)} weight rows for {count} edges")
    if count == 0:
        # An empty weight array carries its K only in its shape.
        shape = tuple(getattr(weights, "shape", (0,)))
        return (int(shape[1]) if len(shape) == 2 else 1), []
    if isinstance(rows[0], (list, tuple)):
        tuples = [tuple(int(x) for x in row) for row in rows]
    else:
        tuples = [(int(x),) for x in rows]
    return len(tuples[0]), tuples


class GraphModel:
    """A graph as a dict ``{(u, v): weights}`` (weights: a K-tuple, ``()`` when unweighted).

    Parameters
    ----------
    num_vertices : int or None
        Vertex count; None means max id + 1 (0 for no edges).
    src, dst : sequence of int
        Edge endpoints. Repeated (u, v) merge: the first position is kept, the last weight wins.
    weights : None, sequence of int, or sequence of K-sequences
        Edge weights (K = 1 for a flat sequence).
    directed : bool
        When False every edge is stored in both directions.
    semantics : "upsert_last_wins", "set", ModelSemantics or dyng.BatchSemantics
        How ``apply`` resolves batches.

    Attributes
    ----------
    edges : dict
        ``{(u, v): weights}`` in first-insertion order (an undirected edge in both directions).
    num_vertices, num_weights : int
        The vertex count and K.
    directed : bool
        Whether the model is directed.
    semantics : ModelSemantics
        How batches are resolved.
    version : int
        Batches applied so far.

    Examples
    --------
    >>> m = GraphModel(3, [0, 1], [1, 2], [4, 5])
    >>> m.apply([0], [2], [1], [], []).inserted_edges
    1
    >>> dijkstra(m, 0)
    ([0, 4, 1], [-1, 0, 0])
    """

    def __init__(
        self, num_vertices, src, dst, weights=None, *, directed=True, semantics="upsert_last_wins"
    ):
        src, dst = _as_int_list(src), _as_int_list(dst)
        if len(src) != len(dst):
            raise ModelError(f"GraphModel: {len(src)} sources but {len(dst)} destinations")
        self.num_weights, rows = _weight_rows(weights, len(src))
        if num_vertices is None:
            num_vertices = max(src + dst, default=-1) + 1
        self.num_vertices = int(num_vertices)
        self.directed = bool(directed)
        self.semantics = ModelSemantics.coerce(semantics)
        self.version = 0
        for i, (u, v) in enumerate(zip(src, dst)):
            if not (0 <= u < self.num_vertices and 0 <= v < self.num_vertices):
                raise ModelError(
                    f"GraphModel: edge {i} ({u}, {v}) outside [0, {self.num_vertices})"
                )
        #: ``{(u, v): weights}`` in first-insertion order.
        self.edges: dict[tuple[int, int], tuple[int, ...]] = {}
        for i, ((u, v), w) in enumerate(zip(zip(src, dst), rows)):
            # The semantics govern the first edges too: dropped or refused self-loops.
            if u == v and self.semantics.on_self_loop == "drop":
                continue
            if u == v and self.semantics.on_self_loop == "error":
                raise ModelError(f"GraphModel: edge {i} is a self-loop ({u}, {u})")
            for key in self._directions(u, v):
                self.edges[key] = w

    def _directions(self, u: int, v: int) -> tuple[tuple[int, int], ...]:
        if self.directed or u == v:
            return ((u, v),)
        return ((u, v), (v, u))

    def copy(self) -> GraphModel:
        """An independent copy (its own edge dict; the other fields are immutable values).

        Returns
        -------
        GraphModel
            A model equal to this one that batches change on its own.

        Examples
        --------
        >>> m = GraphModel(2, [0], [1])
        >>> c = m.copy()
        >>> _ = c.apply([], [], None, [0], [1])
        >>> m.num_edges, c.num_edges
        (1, 0)
        """
        other = object.__new__(GraphModel)
        other.__dict__.update(self.__dict__)
        other.edges = dict(self.edges)
        return other

    @property
    def num_edges(self) -> int:
        """Stored directed edges (an undirected edge counts twice, a self-loop once)."""
        return len(self.edges)

    def sorted_edges(self) -> list[tuple[int, int, tuple[int, ...]]]:
        """Edges as (u, v, weights), sorted by (u, v): the order of a sorted CSR.

        Returns
        -------
        list of tuple
            ``(u, v, weights)`` with weights a K-tuple.

        Examples
        --------
        >>> GraphModel(3, [1, 0], [2, 1], [5, 6]).sorted_edges()
        [(0, 1, (6,)), (1, 2, (5,))]
        """
        return [(u, v, w) for (u, v), w in sorted(self.edges.items())]

    def in_edges(self) -> list[list[tuple[int, tuple[int, ...]]]]:
        """For every vertex v, its in-edges as (u, weights), sorted by u.

        Returns
        -------
        list of list of tuple
            One list per vertex.

        Examples
        --------
        >>> GraphModel(3, [0, 1], [2, 2]).in_edges()
        [[], [], [(0, ()), (1, ())]]
        """
        result: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(self.num_vertices)]
        for (u, v), w in sorted(self.edges.items()):
            result[v].append((u, w))
        return result

    def out_edges(self) -> list[list[tuple[int, tuple[int, ...]]]]:
        """For every vertex u, its out-edges as (v, weights), sorted by v.

        Returns
        -------
        list of list of tuple
            One list per vertex.

        Examples
        --------
        >>> GraphModel(3, [0, 0], [2, 1]).out_edges()
        [[(1, ()), (2, ())], [], []]
        """
        result: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(self.num_vertices)]
        for (u, v), w in sorted(self.edges.items()):
            result[u].append((v, w))
        return result

    def apply(self, ins_src, ins_dst, ins_w, del_src, del_dst) -> ModelSummary:
        """Applies one batch and returns its counters; atomic (a ModelError changes nothing).

        Parameters
        ----------
        ins_src, ins_dst : sequence of int
            The insertions' endpoints.
        ins_w : None, sequence of int, or sequence of K-sequences
            The insertions' weights: None (unweighted batch), a flat sequence (K = 1) or (n, K)
            rows. A batch with no insertions is accepted whatever its weights; otherwise its K
            must match the model's.
        del_src, del_dst : sequence of int
            The deletions' endpoints.

        Returns
        -------
        ModelSummary
            The batch's counters.

        Raises
        ------
        ModelError
            Mismatched lengths, a weight count other than the model's, a negative id, an id
            beyond the vertex count without vertex growth, or what the semantics refuse
            (``"error"``: a self-loop, an existing insertion, a missing deletion).

        Examples
        --------
        >>> m = GraphModel(3, [0, 1], [1, 2], [4, 5])
        >>> s = m.apply([2], [3], [1], [0], [1])
        >>> s.deleted_edges, s.inserted_edges, s.inserted_vertices, m.num_vertices
        (1, 1, 1, 4)
        """
        ins_src, ins_dst = _as_int_list(ins_src), _as_int_list(ins_dst)
        del_src, del_dst = _as_int_list(del_src), _as_int_list(del_dst)
        rows, new_n = self._check_batch(ins_src, ins_dst, ins_w, del_src, del_dst)
        # Resolve on a scratch copy so that a rejected batch leaves self untouched.
        replay = _BatchReplay(self, dict(self.edges))
        if self.semantics.deletions_first:
            replay.deletions(del_src, del_dst)
            replay.insertions(ins_src, ins_dst, rows)
        else:
            replay.insertions(ins_src, ins_dst, rows)
            replay.deletions(del_src, del_dst)
        s = replay.summary
        s.inserted_vertices = new_n - self.num_vertices
        s.num_vertices_after = new_n
        self.edges = replay.edges
        self.num_vertices = new_n
        self.version += 1
        return s

    def _check_batch(self, ins_src, ins_dst, ins_w, del_src, del_dst):
        """Rejects a malformed batch; returns the insertions' weight rows and the vertex count
        after the batch."""
        if len(ins_src) != len(ins_dst) or len(del_src) != len(del_dst):
            raise ModelError("GraphModel.apply: mismatched endpoint lengths")
        k, rows = _weight_rows(ins_w, len(ins_src))
        if ins_src and k != self.num_weights:
            raise ModelError(
                f"GraphModel.apply: batch has {k} weights, graph has {self.num_weights}"
            )
        sem = self.semantics
        for u in ins_src + ins_dst + del_src + del_dst:
            if u < 0:
                raise ModelError(f"GraphModel.apply: negative id {u}")
        # A dropped self-loop is as if absent, so it does not grow the vertex set either (not
        # stated by the spec; this is what dyng does).
        growing = [
            x + 1
            for u, v in zip(ins_src, ins_dst)
            if not (u == v and sem.on_self_loop == "drop")
            for x in (u, v)
        ]
        new_n = max([self.num_vertices] + growing)
        if new_n > self.num_vertices and not sem.allow_vertex_growth:
            raise ModelError(f"GraphModel.apply: id {new_n - 1} >= {self.num_vertices}")
        if sem.on_self_loop == "error" and any(u == v for u, v in zip(ins_src, ins_dst)):
            raise ModelError("GraphModel.apply: self-loop insertion")
        return rows, new_n


class _BatchReplay:
    """One batch of GraphModel.apply replayed on a scratch copy of the edges: the deletions and
    the insertions in the semantics' order, with the counters they owe."""

    def __init__(self, model: GraphModel, edges: dict) -> None:
        self.model = model
        self.sem = model.semantics
        self.edges = edges
        self.summary = ModelSummary()
        self.deleted: set[tuple[int, int]] = set()
        self.inserted: set[tuple[int, int]] = set()
        self.seen_deletions: set[tuple[int, int]] = set()

    def deletions(self, del_src, del_dst) -> None:
        sem, edges, s = self.sem, self.edges, self.summary
        for u, v in zip(del_src, del_dst):
            keys = self.model._directions(u, v)
            if sem.as_sets and keys[0] in self.seen_deletions:
                continue  # repeats collapse before anything is counted
            self.seen_deletions.update(keys)
            if keys[0] in edges:
                for key in keys:
                    del edges[key]
                    self.deleted.add(key)
                s.deleted_edges += len(keys)
            elif sem.on_missing_delete == "error":
                raise ModelError(f"GraphModel.apply: missing deletion ({u}, {v})")
            else:
                s.ignored_deletions += len(keys)

    def insertions(self, ins_src, ins_dst, rows) -> None:
        sem, edges, s = self.sem, self.edges, self.summary
        for (u, v), w in zip(zip(ins_src, ins_dst), rows):
            keys = self.model._directions(u, v)
            if u == v and sem.on_self_loop == "drop":
                s.dropped_self_loops += 1
            elif sem.as_sets and keys[0] in self.inserted:
                pass  # a repeat: collapsed, not counted
            elif keys[0] in edges:
                if sem.on_existing_insert == "error":
                    raise ModelError(f"GraphModel.apply: existing insertion ({u}, {v})")
                if sem.on_existing_insert == "ignore":
                    s.ignored_insertions += len(keys)
                else:
                    for key in keys:
                        edges[key] = w
                    s.updated_edges += len(keys)
            else:
                for key in keys:
                    edges[key] = w
                s.inserted_edges += len(keys)
                if sem.as_sets:
                    s.cancelled_pairs += sum(1 for key in keys if key in self.deleted)
            self.inserted.update(keys)


def dijkstra(model: GraphModel, source: int, objective: int = 0) -> tuple[list[int], list[int]]:
    """Shortest distances from ``source`` and canonical parents.

    The canonical parent of a reachable vertex v != source is the lowest-id in-neighbour u != v
    with ``dist[u] + w(u, v) == dist[v]``; the source and unreachable vertices get -1, and
    unreachable vertices have distance INFINITE_DISTANCE. Weights must be >= 1.

    Parameters
    ----------
    model : GraphModel
        A weighted model.
    source : int
        The source vertex.
    objective : int
        The weight column used as the edge length.

    Returns
    -------
    (list of int, list of int)
        The distances and the canonical parents.

    Raises
    ------
    ModelError
        `source` is not a vertex, `objective` is not a weight column, or a weight is < 1.

    Examples
    --------
    >>> dijkstra(GraphModel(3, [0, 0, 1], [1, 2, 2], [1, 2, 1]), 0)
    ([0, 1, 2], [-1, 0, 0])
    """
    n = model.num_vertices
    if not 0 <= source < n:
        raise ModelError(f"dijkstra: source {source} outside [0, {n})")
    if model.num_weights <= objective:
        raise ModelError(
            f"dijkstra: objective {objective} but the model has {model.num_weights} weights"
        )
    out = model.out_edges()
    for (u, v), w in model.edges.items():
        if w[objective] < 1:
            raise ModelError(f"dijkstra: edge ({u}, {v}) has weight {w[objective]} < 1")
    dist = [INFINITE_DISTANCE] * n
    dist[source] = 0
    heap = [(0, source)]
    done = [False] * n
    while heap:
        d, u = heapq.heappop(heap)
        if done[u]:
            continue
        done[u] = True
        for v, w in out[u]:
            nd = d + w[objective]
            if nd < dist[v]:
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    parents = [-1] * n
    for v, ins in enumerate(model.in_edges()):
        if v == source or dist[v] == INFINITE_DISTANCE:
            continue
        # in_edges() is sorted by u, so the first tight one is the lowest id.
        parents[v] = next(
            u
            for u, w in ins
            if u != v and dist[u] != INFINITE_DISTANCE and dist[u] + w[objective] == dist[v]
        )
    return dist, parents


def bfs_levels(model: GraphModel, source: int) -> list[int]:
    """Hops from ``source`` to every vertex along out-edges (weights ignored), -1 if unreachable.

    Parameters
    ----------
    model : GraphModel
        Any model.
    source : int
        The source vertex.

    Returns
    -------
    list of int
        The level of every vertex.

    Raises
    ------
    ModelError
        `source` is not a vertex.

    Examples
    --------
    >>> bfs_levels(GraphModel(4, [0, 1, 0], [1, 2, 2]), 0)
    [0, 1, 1, -1]
    """
    n = model.num_vertices
    if not 0 <= source < n:
        raise ModelError(f"bfs_levels: source {source} outside [0, {n})")
    out = model.out_edges()
    levels = [-1] * n
    levels[source] = 0
    frontier = [source]
    while frontier:
        following = []
        for u in frontier:
            for v, _ in out[u]:
                if levels[v] == -1:
                    levels[v] = levels[u] + 1
                    following.append(v)
        frontier = following
    return levels


def component_labels(model: GraphModel, kind: str = "weak") -> list[int]:
    """For every vertex, the smallest vertex id of its component: weakly connected (edge
    directions ignored) or, with ``kind="strong"``, strongly connected (directed models only).
    Each vertex not yet labelled, in increasing order, labels its whole component, found by
    searches from it (both ways for weak; forward and backward, intersected, for strong).

    Parameters
    ----------
    model : GraphModel
        Any model (directed for ``"strong"``).
    kind : {"weak", "strong"}
        Which components.

    Returns
    -------
    list of int
        The label of every vertex.

    Raises
    ------
    ModelError
        ``kind="strong"`` on an undirected model.

    Examples
    --------
    >>> component_labels(GraphModel(5, [0, 1, 2, 3], [1, 2, 0, 4]))
    [0, 0, 0, 3, 3]
    >>> component_labels(GraphModel(5, [0, 1, 2, 3], [1, 2, 0, 4]), "strong")
    [0, 0, 0, 3, 4]
    """
    n = model.num_vertices
    ahead: list[set[int]] = [set() for _ in range(n)]
    behind: list[set[int]] = [set() for _ in range(n)]
    for u, v in model.edges:
        ahead[u].add(v)
        behind[v].add(u)
    if kind == "strong" and not model.directed:
        raise ModelError("component_labels: strong components need a directed model")
    if kind == "weak" or not model.directed:
        ahead = [a | b for a, b in zip(ahead, behind)]
        behind = ahead

    def reach(start: int, step: list[set[int]]) -> set[int]:
        seen, stack = {start}, [start]
        while stack:
            for w in step[stack.pop()]:
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        return seen

    labels = [-1] * n
    for v in range(n):
        if labels[v] < 0:
            for w in reach(v, ahead) & reach(v, behind):
                labels[w] = v
    return labels


def simple_cycle_histogram(model: GraphModel, max_length: int = -1) -> list[int]:
    """Counts directed simple cycles of length 2..bound, each once; self-loops are ignored.

    Returns a list indexed by length with ``bound + 1`` entries, where bound is
    ``min(max_length, max(n, 2))`` (or ``max(n, 2)`` when max_length is -1). Each cycle is counted
    from its lowest vertex, walking only through higher vertices.

    Parameters
    ----------
    model : GraphModel
        A directed model (weights ignored).
    max_length : int
        The longest cycle counted, or -1 for no limit.

    Returns
    -------
    list of int
        ``bound + 1`` counts by length.

    Raises
    ------
    RecursionError
        A cycle longer than Python's recursion limit (the model is for small graphs).

    Examples
    --------
    >>> simple_cycle_histogram(GraphModel(3, [0, 1, 2, 1], [1, 2, 0, 0]))
    [0, 0, 1, 1]
    """
    n = model.num_vertices
    bound = max(n, 2) if max_length < 0 else min(max_length, max(n, 2))
    counts = [0] * (bound + 1)
    out = [[v for v, _ in row if v != u] for u, row in enumerate(model.out_edges())]
    for root in range(n):
        on_path = [False] * n
        on_path[root] = True

        def walk(u: int, length: int, root: int = root, on_path: list[bool] = on_path) -> None:
            for v in out[u]:
                if v == root:
                    if length >= 2:
                        counts[length] += 1
                elif v > root and not on_path[v] and length < bound:
                    on_path[v] = True
                    walk(v, length + 1)
                    on_path[v] = False

        walk(root, 1)
    return counts


def triangle_count(model: GraphModel) -> int:
    """Counts triangles {u, v, w} of an undirected model: three distinct vertices, pairwise
    adjacent; self-loops are ignored. Tries every triple u < v < w of adjacent u, v.

    Parameters
    ----------
    model : GraphModel
        An undirected model (a directed one is read by its out-edges only).

    Returns
    -------
    int
        The number of triangles.

    Raises
    ------
    IndexError
        An edge names a vertex at or beyond ``num_vertices`` (a model that was built wrong).

    Examples
    --------
    >>> triangle_count(GraphModel(4, [0, 1, 2, 2], [1, 2, 0, 3], directed=False))
    1
    """
    adjacent = [{v for v, _ in row if v != u} for u, row in enumerate(model.out_edges())]
    found = 0
    for u in range(model.num_vertices):
        for v in adjacent[u]:
            if v > u:
                found += sum(1 for w in adjacent[v] if w > v and w in adjacent[u])
    return found


def pagerank_ranks(
    model: GraphModel,
    alpha: float = 0.85,
    weighted: bool = False,
    tol: float = 1e-15,
    max_iter: int = 10000,
    personalization=None,
    dangling=None,
) -> list[float]:
    """PageRank by NumPy's dense power iteration on the model's transition matrix (networkx's
    definition: out-edges in proportion to the first weight when `weighted`, jumps to
    `personalization`, dangling vertices step to `dangling`, else `personalization`; each a
    sequence or a dict by vertex id, missing ids 0, scaled to sum 1; None: uniform), iterated
    until the L1 change is below ``n * tol``; the default `tol` makes it the exact answer to
    test a kernel's tolerance against.

    Parameters
    ----------
    model : GraphModel
        Any model (an undirected one lists both directions).
    alpha : float
        The damping factor.
    weighted : bool
        Transitions in proportion to the first weight column.
    tol : float
        The convergence tolerance per vertex.
    max_iter : int
        The most iterations.
    personalization, dangling : sequence or dict, optional
        Where jumps land and where dangling vertices step (by vertex id).

    Returns
    -------
    list of float
        The ranks, by vertex.

    Raises
    ------
    IndexError
        A vector names a vertex at or beyond ``num_vertices``.

    Examples
    --------
    >>> [round(r, 4) for r in pagerank_ranks(GraphModel(3, [0, 1], [1, 2]))]
    [0.1844, 0.3412, 0.4744]
    >>> [round(r, 4) for r in pagerank_ranks(GraphModel(3, [0, 1], [1, 2]), personalization={0: 1})]
    [0.3887, 0.3304, 0.2809]
    """
    import numpy as np

    n = model.num_vertices
    if n == 0:
        return []

    def scaled(vector):
        if vector is None:
            return np.full(n, 1.0 / n)
        items = vector.items() if isinstance(vector, dict) else enumerate(vector)
        dense = np.zeros(n)
        for v, w in items:
            dense[v] = w
        return dense / dense.sum()

    p = scaled(personalization)
    d = p if dangling is None else scaled(dangling)
    a = np.zeros((n, n))
    for (u, v), w in model.edges.items():
        a[u, v] += w[0] if weighted and w else 1.0
    out = a.sum(axis=1)
    is_dangling = out == 0
    q = np.divide(a, out[:, None], out=np.zeros_like(a), where=~is_dangling[:, None])
    x = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        last = x
        x = alpha * (x @ q + x[is_dangling].sum() * d) + (1.0 - alpha) * p
        if np.abs(x - last).sum() < n * tol:
            break
    return [float(r) for r in x]


def pagerank_step(num_vertices: int, src, dst, ranks, alpha: float = 0.85, weights=None):
    """One full iteration of networkx.pagerank's power iteration applied to `ranks`, on the edge
    list (`src`, `dst`) (an undirected graph lists both directions; parallel edges add up), with
    transition probabilities in proportion to `weights` when given. Vectorised NumPy, so it also
    checks an answer on graphs of millions of edges: ``np.abs(step - ranks).sum() < n * tol`` is
    the convergence test of a compute.

    Parameters
    ----------
    num_vertices : int
        n.
    src, dst : array_like of int
        The edges.
    ranks : array_like of float
        The ranks to step from, one per vertex.
    alpha : float
        The damping factor.
    weights : array_like of float, optional
        One weight per edge; None: every edge counts 1.

    Returns
    -------
    numpy.ndarray
        float64 ranks after one iteration.

    Raises
    ------
    ValueError
        `ranks` or `weights` does not match the vertex or edge count.

    Examples
    --------
    >>> step = pagerank_step(3, [0, 1], [1, 2], [0.1844, 0.3412, 0.4744])
    >>> [round(float(r), 4) for r in step]
    [0.1844, 0.3412, 0.4744]
    """
    import numpy as np

    x = np.asarray(ranks, dtype=np.float64)
    src, dst = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    w = np.ones(src.size) if weights is None else np.asarray(weights, dtype=np.float64)
    out = np.bincount(src, weights=w, minlength=num_vertices)
    dangling = out == 0
    share = np.divide(x, out, out=np.zeros(num_vertices), where=~dangling)
    pulled = np.bincount(dst, weights=share[src] * w, minlength=num_vertices)
    return alpha * (pulled + x[dangling].sum() / num_vertices) + (1.0 - alpha) / num_vertices


def edges_from_arrays(
    src: Iterable[int], dst: Iterable[int], weights: Sequence | None = None
) -> dict[tuple[int, int], tuple[int, ...]]:
    """``{(u, v): weights}`` from endpoint arrays such as ``Graph.edges()`` returns, for comparison
    with ``GraphModel.edges``.

    Parameters
    ----------
    src, dst : iterable of int
        The edges' endpoints.
    weights : sequence, optional
        None, a flat sequence (K = 1) or (m, K) rows.

    Returns
    -------
    dict
        ``{(u, v): weights}`` with weights a K-tuple (``()`` unweighted).

    Raises
    ------
    ModelError
        A repeated pair, or a weight count other than the edge count.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [3, 4])
    >>> edges_from_arrays(*g.edges()) == GraphModel(3, [0, 1], [1, 2], [3, 4]).edges
    True
    """
    src, dst = _as_int_list(src), _as_int_list(dst)
    _, rows = _weight_rows(weights, len(src))
    result: dict[tuple[int, int], tuple[int, ...]] = {}
    for key, w in zip(zip(src, dst), rows):
        if key in result:
            raise ModelError(f"edges_from_arrays: pair {key} appears twice")
        result[key] = w
    return result
