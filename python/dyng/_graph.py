"""dyng.Graph: the dynamic graph that every algorithm reads (spec section 2)."""

from __future__ import annotations

import dataclasses
import threading
import warnings
from typing import Any, NamedTuple

import numpy as np

from dyng import _backend, _convert, _device_batch, _log, _resources
from dyng._batch import ApplySummary, EdgeBatch
from dyng._errors import InvalidArgumentError, NotSupportedError
from dyng._properties import BatchSemantics, GraphProperties, check_properties

__all__ = ["CSR", "Graph"]


class CSR(NamedTuple):
    """A compact CSR copy of a graph: ``weights`` is (m, K) int32, or None when unweighted.

    [`dyng.Graph.to_csr`][] returns one; [`dyng.Graph.from_csr`][] takes its three arrays back.

    Attributes
    ----------
    row_ptr : numpy.ndarray
        ``num_vertices + 1`` offsets in the graph's edge dtype: the out-edges of vertex v are
        positions ``row_ptr[v]`` to ``row_ptr[v + 1]`` of the other arrays.
    col_ind : numpy.ndarray
        The target of each edge, in the graph's vertex dtype.
    weights : numpy.ndarray or None
        (m, K) int32 weights, one row per edge; None for an unweighted graph.

    Examples
    --------
    >>> import dyng
    >>> row_ptr, col_ind, weights = dyng.Graph.from_edges([0, 0], [1, 2]).to_csr()
    >>> row_ptr.tolist(), col_ind.tolist(), weights
    ([0, 2, 2, 2], [1, 2], None)
    """

    row_ptr: np.ndarray
    col_ind: np.ndarray
    weights: np.ndarray | None


def _resolve_properties(
    fn, properties, directed, store_transposed, layout, row_order, multi_edges, semantics
):
    if properties is None:
        props = GraphProperties.default()
    elif isinstance(properties, str):
        props = GraphProperties.preset(properties)
    elif isinstance(properties, GraphProperties):
        check_properties(properties, fn, _PROPERTIES_FIELD_NAMES)
        props = dataclasses.replace(properties, semantics=dataclasses.replace(properties.semantics))
    else:
        raise InvalidArgumentError(
            f"{fn}(): properties={properties!r} is not valid; use None, a preset name or a "
            f"dyng.GraphProperties"
        )
    overrides = {
        "directed": directed,
        "store_transposed": store_transposed,
        "layout": layout,
        "order": row_order,
        "parallel_edges": multi_edges,
        "semantics": None if semantics is None else BatchSemantics.coerce(semantics, fn),
    }
    for field, value in overrides.items():
        if value is not None:
            setattr(props, field, value)
    check_properties(props, fn, _KEYWORD_NAMES)
    return props


# What a message calls a field: the keyword argument of from_edges/from_csr that sets it, or the
# field of the `properties` object the caller passed.
_KEYWORD_NAMES = {"order": "row_order", "parallel_edges": "multi_edges"}
_PROPERTIES_FIELD_NAMES = {
    f.name: "properties." + f.name for f in dataclasses.fields(GraphProperties)
}


def _edge_dtype(fn, requested, vertex_dtype, stored_edges):
    if requested is not None:
        if requested == "int32" and stored_edges > _convert.INT32_MAX:
            raise InvalidArgumentError(
                f"{fn}(): {stored_edges} stored edges do not fit int32 offsets; pass "
                f"edge_dtype='int64' or None"
            )
        return requested
    if vertex_dtype == "int64" or stored_edges > _convert.INT32_MAX:
        return "int64"
    return "int32"


def _check_weighted_type(fn, vertex_dtype, edge_dtype, num_weights):
    combos = {("int32", "int32"), ("int32", "int64"), ("int64", "int64")}
    if (vertex_dtype, edge_dtype) not in combos or (vertex_dtype == "int64" and num_weights == 0):
        weight = "unweighted" if num_weights == 0 else "int32"
        raise NotSupportedError(
            f"{fn}(): ({vertex_dtype}, {edge_dtype}, {weight}) is not a compiled type; use one of "
            f"(vertex, edge, weight) {_convert.COMPILED_TYPES}"
        )


def _check_ids_below(fn, name, ids, n):
    if ids.size:
        too_big = ids >= n
        if too_big.any():
            position = int(np.argmax(too_big))
            raise InvalidArgumentError(
                f"{fn}(): {name}[{position}] = {int(ids[position])} is not below num_vertices={n}; "
                f"pass ids in [0, {n}) or a larger num_vertices"
            )


def _self_loops_by_rule(fn, props, src, dst):
    """The positions of the self-loops to keep out of a new graph: none under on_self_loop
    'keep' (the default), all under 'drop'; under 'error' the first one is refused, as 0.2 does
    at construction (the graph's semantics govern its first edges as they govern its batches)."""
    rule = props.semantics.on_self_loop
    if rule == "keep" or src.size == 0:
        return None
    loops = src == dst
    if not loops.any():
        return None
    if rule == "error":
        position = int(np.argmax(loops))
        raise InvalidArgumentError(
            f"{fn}(): edge {position} is a self-loop ({int(src[position])}, {int(src[position])}) "
            f"and the graph's semantics say on_self_loop='error'; remove it or build with "
            f"on_self_loop='keep' or 'drop'"
        )
    return loops


class Graph:
    """A directed or undirected graph with K int32 weights per edge, changed in batches.

    Build one with [`from_edges`][dyng.Graph.from_edges] or [`from_csr`][dyng.Graph.from_csr];
    change it with [`apply`][dyng.Graph.apply], [`dyng.update`][] or an algorithm's ``update``.
    Every applied batch increments [`version`][dyng.Graph.version]. Calling ``Graph()``
    directly raises TypeError.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], [4, 5, 6])
    >>> (g.num_vertices, g.num_edges, g.num_weights, g.version)
    (3, 3, 1, 0)
    >>> g.apply(dyng.EdgeBatch(delete=([2], [0]))).deleted_edges
    1
    >>> g.version
    1
    """

    # Set by _wrap (the constructor refuses direct calls); declared for type checkers.
    _native: Any
    _resources: Any
    _write_lock: Any

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "Graph() cannot be called directly; build a graph with dyng.Graph.from_edges(...) or "
            "dyng.Graph.from_csr(...)"
        )

    @classmethod
    def _wrap(cls, native_graph, resources):
        self = object.__new__(cls)
        self._native = native_graph
        self._resources = resources
        # Results remember this token, not the graph, so they do not keep a graph alive.
        self._identity = object()
        # Held by every call that changes the graph (apply, dyng.update) for its whole length.
        self._write_lock = threading.RLock()
        if resources is not None and resources.backend == "cuda":
            # A device graph: the upload is what the caller asked for, not an implicit copy, and
            # the device copy applies the graph's batches itself.
            native_graph.to_device(resources.device, resources.stream, primary=True)
        return self

    def _ensure_device(self, resources, fn):
        """Gives the graph a copy on `resources`' device before a CUDA algorithm runs on it.

        A graph whose own resources are CUDA has one already. A host graph gets one on first
        use (then kept level with every apply): that upload is an implicit host-to-device copy,
        so it follows ``resources.copy_policy``.
        """
        if self._native.device == resources.device:
            return
        if self._resources is None or self._resources.backend != "cuda":
            policy = resources.copy_policy
            if policy == "error":
                raise InvalidArgumentError(
                    f"{fn}(): the graph lives on the host and running on CUDA device "
                    f"{resources.device} needs a host-to-device copy, which copy_policy='error' "
                    f"forbids; move it first with graph.to_backend(resources)"
                )
            if policy == "warn":
                warnings.warn(
                    f"{fn}(): copying a host graph to CUDA device {resources.device} "
                    f"(copy_policy='warn'); graph.to_backend(resources) avoids this",
                    stacklevel=3,
                )
        _log.log(
            "debug",
            lambda: (
                f"{fn}(): copying the host graph to CUDA device "
                f"{resources.device} (copy_policy={resources.copy_policy!r})"
            ),
        )
        self._native.to_device(resources.device, resources.stream)

    def _ensure_device_for(self, execution):
        """Restores the device copy for an update on `execution` if a failed sync dropped it."""
        if self._native.device != execution.device:
            self._native.to_device(
                execution.device, execution.stream, primary=self.space == "device"
            )

    @classmethod
    def from_edges(
        cls,
        src,
        dst,
        weights=None,
        *,
        num_vertices=None,
        properties=None,
        directed=None,
        store_transposed=None,
        layout=None,
        row_order=None,
        multi_edges=None,
        semantics=None,
        vertex_dtype=None,
        edge_dtype=None,
        resources=None,
    ):
        """Builds a graph from an edge list.

        Parameters
        ----------
        src, dst : array_like of int
            Edge endpoints (NumPy, DLPack, buffer protocol or lists).
        weights : array_like of int, optional
            None (unweighted), shape (m,) for K = 1, or (m, K). int32 range.
        num_vertices : int, optional
            Defaults to max id + 1; ids must lie in [0, num_vertices).
        properties : str or GraphProperties, optional
            A preset name ("default", "mosp_compatible", "cycle_enum_compatible") or an object;
            the keywords below override its fields.
        directed, store_transposed, layout : optional
            GraphProperties fields.
        row_order : {"sorted", "append"}, optional
            GraphProperties.order.
        multi_edges : {"forbid", "allow"}, optional
            GraphProperties.parallel_edges. With "forbid", a repeated (u, v) keeps its first
            position and its last weight.
        semantics : {"upsert_last_wins", "set"} or BatchSemantics, optional
            How the graph resolves its batches (GraphProperties.semantics); its on_self_loop
            rule also governs the edges given here.
        vertex_dtype, edge_dtype : {"int32", "int64"}, optional
            Inferred when None; int64 ids are narrowed only when vertex_dtype="int32" is given
            (range-checked).
        resources : Resources or str, optional
            Where the graph lives and runs (a backend name stands for ``Resources(name)``);
            defaults to the process default.

        Returns
        -------
        Graph
            At version 0.

        Raises
        ------
        InvalidArgumentError
            For ids that are negative, not integers, not below `num_vertices` or too large for
            `vertex_dtype`; `src` and `dst` (or `weights`) of different lengths; weights
            outside int32; a bad property value; a self-loop under ``on_self_loop="error"``.
        NotSupportedError
            For a (vertex, edge, weight) type combination this build does not compile, or a
            planned layout.
        TypeError
            When `resources` is not a Resources, a backend name or None.

        Examples
        --------
        >>> import numpy as np, dyng
        >>> g = dyng.Graph.from_edges(np.array([0, 0, 1]), np.array([1, 1, 2]), [5, 7, 1])
        >>> g.edges()[2].tolist()  # the repeated (0, 1) keeps the last weight
        [[7], [1]]
        >>> dyng.Graph.from_edges([0], [1], directed=False).num_edges
        2
        """
        fn = "Graph.from_edges"
        native = _backend.native()
        res = _resources.resolve(resources, None, fn) or _resources.get_default_resources()
        props = _resolve_properties(
            fn, properties, directed, store_transposed, layout, row_order, multi_edges, semantics
        )
        s = _convert.id_array(src, fn, "src")
        d = _convert.id_array(dst, fn, "dst")
        _convert.check_same_length(fn, "src", s, "dst", d)
        if weights is None:
            flat, k = np.empty(0, dtype=np.int32), 0
        else:
            flat, k = _convert.weight_matrix(weights, len(s), fn, "weights")
        max_id = int(max(s.max(initial=-1), d.max(initial=-1)))
        if num_vertices is None:
            n = max_id + 1
        else:
            n = _convert.as_int(num_vertices, fn, "num_vertices", minimum=0)
            _check_ids_below(fn, "src", s, n)
            _check_ids_below(fn, "dst", d, n)
        vid = _convert.dtype_name(vertex_dtype, fn, "vertex_dtype")
        if vid is None:
            vid = _convert.common_id_dtype(s, d)
            if n - 1 > _convert.INT32_MAX:
                vid = "int64"  # num_vertices itself needs int64 ids
        # Casting first names an offending id rather than the count it implies.
        s = _convert.cast_ids(s, vid, fn, "src")
        d = _convert.cast_ids(d, vid, fn, "dst")
        if vid == "int32" and n - 1 > _convert.INT32_MAX:
            raise InvalidArgumentError(
                f"{fn}(): num_vertices={n} does not fit int32 ids; use vertex_dtype='int64'"
            )
        dropped = _self_loops_by_rule(fn, props, s, d)
        if dropped is not None:  # num_vertices still counts their ids, as 0.2 does
            keep = ~dropped
            s, d = s[keep], d[keep]
            if k:
                flat = flat.reshape(-1, k)[keep].reshape(-1)
        stored = len(s) * (1 if props.directed else 2)
        eid = _edge_dtype(fn, _convert.dtype_name(edge_dtype, fn, "edge_dtype"), vid, stored)
        _check_weighted_type(fn, vid, eid, k)
        handle = native.GraphHandle.from_edges(vid, eid, n, s, d, flat, props._to_native(native, k))
        return cls._wrap(handle, res)

    @classmethod
    def from_csr(
        cls,
        row_ptr,
        col_ind,
        weights=None,
        *,
        properties=None,
        directed=None,
        store_transposed=None,
        layout=None,
        row_order=None,
        multi_edges=None,
        semantics=None,
        vertex_dtype=None,
        edge_dtype=None,
        resources=None,
    ):
        """Builds a graph from a CSR (row_ptr has num_vertices + 1 entries).

        The dtype of ``row_ptr`` picks the offset type (int32 unless it is 64-bit or the ids are
        int64). An undirected CSR must already be symmetric.

        Parameters
        ----------
        row_ptr : array_like of int
            ``num_vertices + 1`` non-decreasing offsets from 0 to ``len(col_ind)``.
        col_ind : array_like of int
            The target of each edge, row by row.
        weights : array_like of int, optional
            None (unweighted), shape (m,) for K = 1, or (m, K). int32 range.
        properties, directed, store_transposed, layout, row_order, multi_edges, semantics : optional
            As in [`from_edges`][dyng.Graph.from_edges].
        vertex_dtype, edge_dtype : {"int32", "int64"}, optional
            Inferred when None: from `col_ind` and the vertex count, and from `row_ptr`'s dtype.
        resources : Resources or str, optional
            Where the graph lives and runs; defaults to the process default.

        Returns
        -------
        Graph
            At version 0.

        Raises
        ------
        InvalidArgumentError
            For an empty `row_ptr`, one that does not run from 0 to ``len(col_ind)`` or
            decreases, a target not below the vertex count, more vertices than
            ``vertex_dtype="int32"`` can number, weights of another length or outside int32, or
            a bad property value.
        NotSupportedError
            For a (vertex, edge, weight) type combination this build does not compile, or a
            planned layout.
        TypeError
            When `resources` is not a Resources, a backend name or None.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_csr([0, 2, 3, 3], [1, 2, 2], [1, 5, 2])
        >>> (g.num_vertices, g.num_edges, str(g.edge_dtype))
        (3, 3, 'int32')
        """
        fn = "Graph.from_csr"
        native = _backend.native()
        res = _resources.resolve(resources, None, fn) or _resources.get_default_resources()
        props = _resolve_properties(
            fn, properties, directed, store_transposed, layout, row_order, multi_edges, semantics
        )
        rp = _convert.offset_array(row_ptr, fn, "row_ptr")
        col = _convert.id_array(col_ind, fn, "col_ind")
        if len(rp) == 0:
            raise InvalidArgumentError(
                f"{fn}(): row_ptr is empty; it needs num_vertices + 1 entries (at least [0])"
            )
        n, m = len(rp) - 1, len(col)
        if int(rp[0]) != 0 or int(rp[-1]) != m:
            raise InvalidArgumentError(
                f"{fn}(): row_ptr starts at {int(rp[0])} and ends at {int(rp[-1])} but must run "
                f"from 0 to len(col_ind)={m}; pass a valid CSR"
            )
        if n and (np.diff(rp) < 0).any():
            position = int(np.argmax(np.diff(rp) < 0))
            raise InvalidArgumentError(
                f"{fn}(): row_ptr decreases at index {position + 1} ({int(rp[position])} then "
                f"{int(rp[position + 1])}); row_ptr must be non-decreasing"
            )
        _check_ids_below(fn, "col_ind", col, n)
        if weights is None:
            flat, k = np.empty(0, dtype=np.int32), 0
        else:
            flat, k = _convert.weight_matrix(weights, m, fn, "weights")
        vid = _convert.dtype_name(vertex_dtype, fn, "vertex_dtype")
        if vid is None:
            vid = "int64" if (col.dtype == np.int64 or n - 1 > _convert.INT32_MAX) else "int32"
        elif vid == "int32" and n - 1 > _convert.INT32_MAX:
            raise InvalidArgumentError(
                f"{fn}(): {n} vertices do not fit int32 ids; use vertex_dtype='int64'"
            )
        eid = _convert.dtype_name(edge_dtype, fn, "edge_dtype")
        if eid is None:
            eid = "int64" if (rp.dtype == np.int64 or vid == "int64") else "int32"
        _check_weighted_type(fn, vid, eid, k)
        rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(rp).astype(np.int64))
        dropped = _self_loops_by_rule(fn, props, rows, col)
        if dropped is not None:
            keep = ~dropped
            col = col[keep]
            if k:
                flat = flat.reshape(-1, k)[keep].reshape(-1)
            rp = np.concatenate(([0], np.cumsum(np.bincount(rows[keep], minlength=n))))
            rp = rp.astype(np.int64 if eid == "int64" else np.int32)
        col = _convert.cast_ids(col, vid, fn, "col_ind")
        rp = _convert.cast_ids(rp, eid, fn, "row_ptr", what="offsets")
        handle = native.GraphHandle.from_csr(rp, col, flat, props._to_native(native, k))
        return cls._wrap(handle, res)

    @property
    def num_vertices(self):
        """Number of vertices."""
        return self._native.num_vertices

    @property
    def num_edges(self):
        """Stored directed edges (an undirected edge counts twice, a self-loop once)."""
        return self._native.num_edges

    @property
    def num_weights(self):
        """Weights per edge (K; 0 when unweighted)."""
        return self._native.num_weights

    @property
    def weighted(self):
        """True when the graph has at least one weight per edge."""
        return self._native.num_weights > 0

    @property
    def directed(self):
        """True for a directed graph; False when every edge is stored in both directions."""
        return self._native.properties.directed

    @property
    def has_transposed(self):
        """True when in-edges are stored (sssp needs them)."""
        return self._native.has_transposed

    @property
    def version(self):
        """Number of batches applied since construction."""
        return self._native.version

    @property
    def space(self):
        """Where the graph lives: "device" on CUDA resources, else "host".

        A device graph resolves and applies its batches on the device and keeps no host copy of
        its rows; ``edges()``, ``to_csr()``, ``clone()`` and host algorithms copy them back when
        they need them. A host graph used with CUDA resources gets a device copy that follows
        its batches."""
        if self._resources is not None and self._resources.backend == "cuda":
            return "device"
        return "host"

    @property
    def properties(self):
        """A copy of the graph's GraphProperties."""
        return GraphProperties._from_native(self._native.properties)

    @property
    def vertex_dtype(self):
        """NumPy dtype of vertex ids (int32 or int64)."""
        return np.dtype(self._native.vertex_dtype)

    @property
    def edge_dtype(self):
        """NumPy dtype of edge offsets (int32 or int64)."""
        return np.dtype(self._native.edge_dtype)

    @property
    def resources(self):
        """The Resources that apply() and algorithms use by default."""
        return self._resources

    def apply(self, batch, *, resources=None):
        """Applies a batch atomically: an invalid batch raises and changes nothing.

        Existing results of this graph become stale (update them with ``dyng.update`` instead to
        keep them current).

        Parameters
        ----------
        batch : EdgeBatch
            The insertions and deletions, resolved under the graph's
            [`BatchSemantics`][dyng.BatchSemantics].
        resources : Resources or str, optional
            Defaults to the graph's own. A device graph applies every batch on its device. A
            host graph writes a large batch on the OpenMP team of ``openmp`` (or ``cuda``)
            resources; the result does not depend on it.

        Returns
        -------
        ApplySummary
            What the batch did (edges inserted, updated, deleted, ignored...).

        Raises
        ------
        TypeError
            When `batch` is not an EdgeBatch, or `resources` not a Resources, backend name or
            None.
        InvalidArgumentError
            For a batch the graph refuses: negative ids, ids out of range (with vertex growth
            off), a weight count other than the graph's, src and dst of different lengths, or
            what the semantics call an error (an existing insertion, a missing deletion, a
            self-loop).
        NotSupportedError
            For a batch with vertex insertions or deletions (planned).
        CapacityError
            When the graph would need more edge slots than its offset type addresses.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0], [1], [5])
        >>> s = g.apply(dyng.EdgeBatch(insert=([0], [1], [7]), delete=([1], [0])))
        >>> (s.updated_edges, s.ignored_deletions)
        (1, 1)
        """
        chosen = _resources.resolve(resources, self._resources, "Graph.apply")
        with self._write_lock:
            summary, _ = self._apply(batch, "Graph.apply", log=False, resources=chosen)
        return summary

    def _apply(self, batch, fn, *, log, resolved=None, resources=None, revertible=False):
        """Applies `batch`; Ctrl-C stops it before its first write. With `revertible`, the graph
        keeps what _revert_apply() needs until the next apply or _forget_revert()."""
        if resolved is None:
            resolved = self._resolve_batch(batch, fn)
        execution = (resources or self._resources)._execution()
        if resolved.staged is not None:
            counters, change_log = _backend.native().apply_staged(
                self._native, resolved.staged, log=log, execution=execution, revertible=revertible
            )
        else:
            counters, change_log = self._native.apply(
                *resolved.native_args(), log=log, execution=execution, revertible=revertible
            )
        return ApplySummary(**counters), change_log

    def _revert_apply(self, version):
        """Takes back the last apply, made with revertible=True from `version`: rows, counts and
        version as they were (a repair after it failed or was interrupted)."""
        self._native.revert(version)

    def _forget_revert(self):
        """Frees what _revert_apply() would need."""
        self._native.forget_revert()

    def _resolve_batch(self, batch, fn):
        if not isinstance(batch, EdgeBatch):
            raise TypeError(f"{fn}(): batch must be a dyng.EdgeBatch; got {type(batch).__name__}")
        if self.space == "device":
            staged = _device_batch.stage_if_on_device(self, batch, fn)
            if staged is not None:
                return staged
        return batch._resolve(self._native.vertex_dtype, self._native.num_weights, fn)

    def to_csr(self):
        """A compact CSR copy: ``CSR(row_ptr, col_ind, weights (m, K) or None)``.

        Rows are in the graph's row order (sorted by target by default); a device graph is
        copied back to the host.

        Returns
        -------
        CSR
            New arrays, independent of the graph.

        Examples
        --------
        >>> import dyng
        >>> c = dyng.Graph.from_edges([1, 0], [0, 1], [2, 3]).to_csr()
        >>> (c.row_ptr.tolist(), c.col_ind.tolist(), c.weights.tolist())
        ([0, 1, 2], [1, 0], [[3], [2]])
        """
        row_ptr, col, weights = self._native.to_csr()
        return CSR(row_ptr, col, self._weights_2d(weights, len(col)))

    def edges(self):
        """(src, dst, weights) in CSR order; weights is (m, K) or None.

        Returns
        -------
        tuple of (numpy.ndarray, numpy.ndarray, numpy.ndarray or None)
            The stored edges' sources and targets in the vertex dtype, and their (m, K) int32
            weights (None when unweighted); an undirected graph lists both directions.

        Examples
        --------
        >>> import dyng
        >>> src, dst, w = dyng.Graph.from_edges([1, 0], [0, 1]).edges()
        >>> (src.tolist(), dst.tolist(), w)
        ([0, 1], [1, 0], None)
        """
        src, dst, weights = self._native.edges()
        return src, dst, self._weights_2d(weights, len(src))

    def _weights_2d(self, flat, m):
        k = self._native.num_weights
        return None if k == 0 else flat.reshape(m, k)

    def clone(self, resources=None):
        """A deep copy at the same version; `resources` defaults to this graph's.

        Results of this graph are not results of the copy (updating them with the copy's
        batches raises StaleResultError).

        Parameters
        ----------
        resources : Resources or str, optional
            Where the copy lives and runs; None for this graph's resources.

        Returns
        -------
        Graph
            An independent graph with the same edges, properties and version.

        Raises
        ------
        TypeError
            When `resources` is not a Resources, a backend name or None.
        InvalidArgumentError
            For an unknown backend name.
        NotSupportedError
            For a backend this build lacks.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0], [1], [1])
        >>> h = g.clone(); _ = h.apply(dyng.EdgeBatch(delete=([0], [1])))
        >>> (g.num_edges, h.num_edges)
        (1, 0)
        """
        res = _resources.resolve(resources, self._resources, "Graph.clone")
        # A device graph cloned onto its own device is copied there, not through the host.
        keep = (
            self.space == "device"
            and res is not None
            and res.backend == "cuda"
            and res.device == self._native.device
        )
        return Graph._wrap(self._native.clone(keep_device=keep), res)

    def to_backend(self, resources):
        """A copy of this graph that uses `resources` (a Resources or backend name).

        [`clone`][dyng.Graph.clone] with the resources required: moving a graph to a device
        (``to_backend(dyng.Resources.cuda())``) uploads it once, so later calls do not copy.

        Parameters
        ----------
        resources : Resources or str
            Where the copy lives and runs.

        Returns
        -------
        Graph
            An independent graph with the same edges, properties and version.

        Raises
        ------
        InvalidArgumentError
            When `resources` is None, or an unknown backend name.
        TypeError
            When `resources` is not a Resources or a backend name.
        NotSupportedError
            For a backend this build lacks.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0], [1], [1]).to_backend("sequential")
        >>> g.resources.backend
        'sequential'
        """
        if resources is None:
            raise InvalidArgumentError(
                "Graph.to_backend(): resources is None; pass a dyng.Resources or backend name"
            )
        return self.clone(resources)

    def reserve(self, edge_capacity) -> None:
        """Makes room for `edge_capacity` stored edges so later batches avoid re-layouts.

        The edges, version and results are unchanged.

        Parameters
        ----------
        edge_capacity : int
            Stored edges to make room for in total (an undirected edge counts twice).

        Raises
        ------
        InvalidArgumentError
            For a negative or non-integer `edge_capacity`.
        CapacityError
            For more edges than the graph's edge offset type can address.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0], [1], [1]); g.reserve(1000)
        >>> g.num_edges
        1
        """
        cap = _convert.as_int(edge_capacity, "Graph.reserve", "edge_capacity", minimum=0)
        self._native.reserve(cap)

    def check_integrity(self) -> None:
        """Verifies every storage invariant; raises InternalError on a violation.

        For tests and bug reports: a graph built and changed through dyng's API always passes.

        Raises
        ------
        InternalError
            When an invariant is broken (a bug in dyng; the message says which).

        Examples
        --------
        >>> import dyng
        >>> dyng.Graph.from_edges([0], [1], [1]).check_integrity()
        """
        self._native.check_integrity()

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce_ex__(self, protocol):
        raise TypeError(
            "dyng.Graph cannot be pickled; save it with to_csr() or edges() and rebuild it with "
            "Graph.from_csr() / Graph.from_edges()"
        )

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        return (
            f"Graph(num_vertices={self.num_vertices}, num_edges={self.num_edges}, "
            f"num_weights={self.num_weights}, {kind}, version={self.version}, "
            f"vertex_dtype={self._native.vertex_dtype}, edge_dtype={self._native.edge_dtype})"
        )
