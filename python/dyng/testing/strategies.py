"""Hypothesis strategies for random graphs and adversarial batches.

The batches aim at the places where dynamic algorithms break: most deletions hit existing edges
(so shortest-path tree edges get cut), some deletions miss, endpoints repeat within a batch,
self-loops appear, the same edge is inserted and deleted in one batch, new ids grow the vertex
set, existing edges get re-weighted, and "tight" insertions create equal-length alternatives
through a lower-id vertex, which must move a canonical parent. Small weight ranges are favoured
so that ties are common.

Requires the ``hypothesis`` package (a test dependency, not a runtime one).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import strategies as st

from dyng.testing.oracles import INFINITE_DISTANCE, GraphModel, ModelSummary, dijkstra

__all__ = ["RandomGraph", "RandomBatch", "graphs", "batches"]


def _weights_array(weights, count: int):
    if weights is None:
        return None
    return np.asarray(weights, dtype=np.int32).reshape(count)


@dataclasses.dataclass(frozen=True)
class RandomGraph:
    """An edge list drawn by [`graphs`][dyng.testing.strategies.graphs].

    Attributes
    ----------
    num_vertices : int
        n; every id lies below it.
    src, dst : list of int
        The edges' endpoints (pairs may repeat: construction merges them, the last weight
        winning).
    weights : list of int or None
        One weight per edge, or None if unweighted.

    Examples
    --------
    >>> g = RandomGraph(3, [0, 1], [1, 2], [4, 5])
    >>> g.num_weights, g.to_graph().num_edges
    (1, 2)
    """

    num_vertices: int
    src: list
    dst: list
    weights: list | None

    @property
    def num_weights(self) -> int:
        """K: 1 for a weighted list, 0 for an unweighted one."""
        return 0 if self.weights is None else 1

    def arrays(self, id_dtype=np.int32):
        """The edges as NumPy arrays.

        Parameters
        ----------
        id_dtype : numpy dtype
            The dtype of the id arrays.

        Returns
        -------
        (numpy.ndarray, numpy.ndarray, numpy.ndarray or None)
            src and dst in `id_dtype`, weights int32 or None.

        Raises
        ------
        TypeError
            `id_dtype` is not a NumPy dtype.

        Examples
        --------
        >>> [a.tolist() for a in RandomGraph(2, [0], [1], [3]).arrays()]
        [[0], [1], [3]]
        """
        return (
            np.asarray(self.src, dtype=id_dtype),
            np.asarray(self.dst, dtype=id_dtype),
            _weights_array(self.weights, len(self.src)),
        )

    def to_graph(self, *, id_dtype=np.int32, **kw):
        """[`dyng.Graph.from_edges`][] on these edges with ``num_vertices`` set.

        Parameters
        ----------
        id_dtype : numpy dtype
            The dtype of the id arrays handed over (int64 arrays make an int64-id graph).
        **kw
            Passed through (``directed=``, ``vertex_dtype=``, ...).

        Returns
        -------
        dyng.Graph
            A new graph of these edges.

        Raises
        ------
        TypeError
            A keyword [`dyng.Graph.from_edges`][] does not take.
        InvalidArgumentError
            As [`dyng.Graph.from_edges`][] raises it for the keyword values.

        Examples
        --------
        >>> RandomGraph(3, [0, 0], [1, 1], [2, 7]).to_graph().edges()[2].tolist()  # merged
        [[7]]
        """
        import dyng

        src, dst, w = self.arrays(id_dtype)
        kw.setdefault("num_vertices", self.num_vertices)
        return dyng.Graph.from_edges(src, dst, w, **kw)

    def model(self, *, directed=True, semantics="upsert_last_wins") -> GraphModel:
        """The pure-Python model of the graph ``to_graph`` builds.

        Parameters
        ----------
        directed : bool
            As ``to_graph(directed=...)``.
        semantics : str, ModelSemantics or dyng.BatchSemantics
            The semantics the model's batches follow.

        Returns
        -------
        GraphModel
            The model of the same edges.

        Raises
        ------
        ModelError
            An id at or beyond ``num_vertices``, or a self-loop the semantics refuse.

        Examples
        --------
        >>> RandomGraph(3, [0, 0], [1, 1], [2, 7]).model().edges
        {(0, 1): (7,)}
        """
        return GraphModel(
            self.num_vertices,
            self.src,
            self.dst,
            self.weights,
            directed=directed,
            semantics=semantics,
        )


@dataclasses.dataclass(frozen=True)
class RandomBatch:
    """A batch drawn by [`batches`][dyng.testing.strategies.batches].

    Attributes
    ----------
    insert_src, insert_dst : list of int
        The insertions' endpoints.
    insert_weights : list of int or None
        One weight per insertion, or None if unweighted.
    delete_src, delete_dst : list of int
        The deletions' endpoints.

    Examples
    --------
    >>> b = RandomBatch([0], [2], [1], [0], [1])
    >>> b.num_insertions, b.to_batch().num_deletions
    (1, 1)
    """

    insert_src: list
    insert_dst: list
    insert_weights: list | None
    delete_src: list
    delete_dst: list

    @property
    def num_insertions(self) -> int:
        """The number of insertions (repeats counted)."""
        return len(self.insert_src)

    @property
    def num_deletions(self) -> int:
        """The number of deletions (repeats counted)."""
        return len(self.delete_src)

    def to_batch(self, *, id_dtype=np.int32):
        """The [`dyng.EdgeBatch`][] of this batch.

        Parameters
        ----------
        id_dtype : numpy dtype
            The dtype of the id arrays.

        Returns
        -------
        dyng.EdgeBatch
            The same insertions and deletions.

        Raises
        ------
        OverflowError
            An id does not fit `id_dtype`.

        Examples
        --------
        >>> RandomBatch([0], [2], [1], [], []).to_batch().insert_dst.tolist()
        [2]
        """
        import dyng

        ins = (
            np.asarray(self.insert_src, dtype=id_dtype),
            np.asarray(self.insert_dst, dtype=id_dtype),
        )
        if self.insert_weights is not None:
            ins = ins + (_weights_array(self.insert_weights, len(self.insert_src)),)
        dele = (
            np.asarray(self.delete_src, dtype=id_dtype),
            np.asarray(self.delete_dst, dtype=id_dtype),
        )
        return dyng.EdgeBatch(insert=ins, delete=dele)

    def apply_to(self, model: GraphModel) -> ModelSummary:
        """Applies the batch to `model` (in place) and returns the model's counters.

        Parameters
        ----------
        model : GraphModel
            The model to change.

        Returns
        -------
        ModelSummary
            The batch's counters.

        Raises
        ------
        ModelError
            The batch is one the model's semantics refuse (nothing changes then).

        Examples
        --------
        >>> m = RandomGraph(2, [0], [1], [1]).model()
        >>> RandomBatch([1], [0], [2], [0], [1]).apply_to(m).deleted_edges, m.edges
        (1, {(1, 0): (2,)})
        """
        return model.apply(
            self.insert_src, self.insert_dst, self.insert_weights, self.delete_src, self.delete_dst
        )


def _weight(max_weight: int):
    # Mostly tiny weights so that equal-length paths (ties) are frequent.
    return st.one_of(st.integers(1, min(3, max_weight)), st.integers(1, max_weight))


@st.composite
def graphs(
    draw,
    *,
    min_vertices=1,
    max_vertices=10,
    max_edges=30,
    weighted=True,
    max_weight=20,
    self_loops=True,
):
    """Random edge lists (with repeated pairs, which construction merges, last weight winning).

    Parameters
    ----------
    min_vertices, max_vertices : int
        The range of n.
    max_edges : int
        The most edges drawn.
    weighted : bool
        Whether the edges get weights.
    max_weight : int
        The largest weight (small ones are favoured, so that ties are common).
    self_loops : bool
        Whether self-loops may appear.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy of [`RandomGraph`][dyng.testing.strategies.RandomGraph].

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When drawn from: a range that is empty (``min_vertices > max_vertices``, a negative
        bound).

    Examples
    --------
    >>> from hypothesis import given
    >>> @given(graphs(max_vertices=5))
    ... def check(g):
    ...     assert len(g.src) == len(g.dst)
    >>> check()
    """
    n = draw(st.integers(min_vertices, max_vertices))
    m = draw(st.integers(0, max_edges))
    src, dst = [], []
    for _ in range(m):
        if src and draw(st.integers(0, 9)) == 0:
            # Repeat an earlier pair: exercises the merge rule of from_edges.
            i = draw(st.integers(0, len(src) - 1))
            u, v = src[i], dst[i]
        else:
            u, v = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        if u == v and not self_loops:
            continue
        src.append(u)
        dst.append(v)
    weights = [draw(_weight(max_weight)) for _ in src] if weighted else None
    return RandomGraph(n, src, dst, weights)


def _current_state(graph):
    """(num_vertices, sorted existing (u, v) pairs, model or None) of a RandomGraph, GraphModel
    or dyng.Graph."""
    if isinstance(graph, GraphModel):
        return graph.num_vertices, sorted(graph.edges), graph
    if isinstance(graph, RandomGraph):
        model = graph.model()
        return model.num_vertices, sorted(model.edges), model
    src, dst, _ = graph.edges()
    pairs = sorted(set(zip(np.asarray(src).tolist(), np.asarray(dst).tolist())))
    return int(graph.num_vertices), pairs, None


def _tight_insertions(model: GraphModel | None, source: int, max_weight: int):
    """Candidate insertions (u, v, w) that give v an equal-length path through a lower id than its
    current canonical parent: after them the canonical parent must change."""
    if (
        model is None
        or model.num_weights != 1
        or not 0 <= source < model.num_vertices
        or any(w[0] < 1 for w in model.edges.values())
    ):
        return []
    dist, parents = dijkstra(model, source)
    found = []
    for v, p in enumerate(parents):
        if p <= 0:
            continue
        for u in range(p):
            w = dist[v] - dist[u] if dist[u] != INFINITE_DISTANCE else 0
            if u != v and 1 <= w <= max_weight:
                found.append((u, v, w))
    return found


@st.composite
def batches(
    draw,
    graph,
    *,
    max_insertions=8,
    max_deletions=8,
    weighted=True,
    max_weight=20,
    grow=True,
    self_loops=True,
    source=0,
):
    """Adversarial batches for ``graph`` (a RandomGraph, a GraphModel or a dyng.Graph).

    Deletions: mostly existing edges, some random (usually missing) pairs, repeats and self-loops.
    Insertions: random pairs (ids up to 3 beyond the vertex count when ``grow``), re-weights of
    existing edges, repeats of earlier insertions with another weight, re-insertions of this
    batch's deletions, self-loops, and tight low-id insertions for shortest paths from ``source``.

    Parameters
    ----------
    graph : RandomGraph, GraphModel or dyng.Graph
        The graph the batches are for.
    max_insertions, max_deletions : int
        The most insertions and deletions of a batch.
    weighted : bool
        Whether insertions get weights.
    max_weight : int
        The largest weight.
    grow : bool
        Whether insertions may name up to 3 ids beyond the vertex count.
    self_loops : bool
        Whether self-loops may appear.
    source : int
        The source whose canonical shortest-path parents the tight insertions aim at.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy of [`RandomBatch`][dyng.testing.strategies.RandomBatch].

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When drawn from: a negative maximum.

    Examples
    --------
    >>> from hypothesis import given
    >>> g = RandomGraph(3, [0, 1], [1, 2], [1, 1])
    >>> @given(batches(g))
    ... def check(b):
    ...     b.apply_to(g.model())
    >>> check()
    """
    n, existing, model = _current_state(graph)
    tight = _tight_insertions(model, source, max_weight) if weighted else []
    limit = n + (3 if grow else 0)
    vertex = st.integers(0, max(limit - 1, 0)) if limit > 0 else None

    del_src, del_dst = [], []
    if n > 0:
        for _ in range(draw(st.integers(0, max_deletions))):
            kind = draw(st.integers(0, 9))
            if existing and kind < 6:
                u, v = existing[draw(st.integers(0, len(existing) - 1))]
            elif del_src and kind < 8:
                i = draw(st.integers(0, len(del_src) - 1))
                u, v = del_src[i], del_dst[i]
            elif self_loops and kind == 8:
                u = v = draw(st.integers(0, n - 1))
            else:
                # Deletion ids stay below n: whether a deletion may grow the vertex set is
                # unspecified, and a pair with a new id can never exist anyway.
                u, v = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
            if u == v and not self_loops:
                continue
            del_src.append(u)
            del_dst.append(v)

    ins_src, ins_dst, ins_w = [], [], []
    if vertex is not None:
        for _ in range(draw(st.integers(0, max_insertions))):
            kind = draw(st.integers(0, 11))
            w = draw(_weight(max_weight))
            if kind < 3 or not (existing or del_src or ins_src or tight):
                u, v = draw(vertex), draw(vertex)
            elif kind < 5 and existing:
                u, v = existing[draw(st.integers(0, len(existing) - 1))]
            elif kind < 7 and ins_src:
                i = draw(st.integers(0, len(ins_src) - 1))
                u, v = ins_src[i], ins_dst[i]
            elif kind < 9 and del_src:
                i = draw(st.integers(0, len(del_src) - 1))
                u, v = del_src[i], del_dst[i]
            elif kind < 11 and tight:
                u, v, w = tight[draw(st.integers(0, len(tight) - 1))]
            elif self_loops:
                u = v = draw(vertex)
            else:
                u, v = draw(vertex), draw(vertex)
            if u == v and not self_loops:
                continue
            ins_src.append(u)
            ins_dst.append(v)
            ins_w.append(w)
    return RandomBatch(ins_src, ins_dst, ins_w if weighted else None, del_src, del_dst)
