"""Native layer of dyng (private: use the dyng package, not this module)."""

from typing import Annotated

from numpy.typing import NDArray


class Execution:
    """Where and how one native call runs."""

    def __init__(self, backend: str, num_threads: int = 0, device: int = 0, stream: int = 0) -> None: ...

    @property
    def backend(self) -> str: ...

    @property
    def num_threads(self) -> int: ...

    @property
    def device(self) -> int: ...

    @property
    def stream(self) -> int: ...

    @property
    def resolved_threads(self) -> int:
        """Threads an OpenMP region would get (1 on the sequential backend)."""

class Properties:
    """Storage choices and batch semantics of a native graph."""

    def __init__(self) -> None: ...

    @property
    def directed(self) -> bool: ...

    @directed.setter
    def directed(self, arg: bool, /) -> None: ...

    @property
    def store_transposed(self) -> bool: ...

    @store_transposed.setter
    def store_transposed(self, arg: bool, /) -> None: ...

    @property
    def num_weights(self) -> int: ...

    @num_weights.setter
    def num_weights(self, arg: int, /) -> None: ...

    @property
    def headroom(self) -> float: ...

    @headroom.setter
    def headroom(self, arg: float, /) -> None: ...

    @property
    def allow_parallel_edges(self) -> bool: ...

    @allow_parallel_edges.setter
    def allow_parallel_edges(self, arg: bool, /) -> None: ...

    @property
    def order(self) -> str: ...

    @order.setter
    def order(self, arg: str, /) -> None: ...

    @property
    def on_existing_insert(self) -> str: ...

    @on_existing_insert.setter
    def on_existing_insert(self, arg: str, /) -> None: ...

    @property
    def on_missing_delete(self) -> str: ...

    @on_missing_delete.setter
    def on_missing_delete(self, arg: str, /) -> None: ...

    @property
    def on_self_loop(self) -> str: ...

    @on_self_loop.setter
    def on_self_loop(self, arg: str, /) -> None: ...

    @property
    def deletions_first(self) -> bool: ...

    @deletions_first.setter
    def deletions_first(self, arg: bool, /) -> None: ...

    @property
    def allow_vertex_growth(self) -> bool: ...

    @allow_vertex_growth.setter
    def allow_vertex_growth(self, arg: bool, /) -> None: ...

    @property
    def as_sets(self) -> bool: ...

    @as_sets.setter
    def as_sets(self, arg: bool, /) -> None: ...

MAX_WEIGHTS: int = 64

class GraphHandle:
    """A native graph over one compiled (vertex, edge) id combination."""

    @staticmethod
    def from_edges(vertex_dtype: str, edge_dtype: str, num_vertices: int, src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], weights: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], properties: Properties) -> GraphHandle:
        """Builds from an edge list; weights hold K values per edge, edge-major."""

    @staticmethod
    def from_csr(row_ptr: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], col_ind: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], weights: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], properties: Properties) -> GraphHandle:
        """Builds from a CSR; the dtypes of row_ptr and col_ind pick the types."""

    def apply(self, insert_src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], insert_dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], insert_weights: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], num_weights: int, delete_src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], delete_dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], log: bool = False) -> tuple[dict, ChangeLog]:
        """Applies a batch atomically; returns (summary dict, ChangeLog or None)."""

    def to_csr(self) -> tuple[Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))]]:
        """(row_ptr, col_ind, weights flat K per edge) as fresh arrays."""

    def edges(self) -> tuple[Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))]]:
        """(src, dst, weights flat K per edge) in CSR order."""

    def clone(self) -> GraphHandle:
        """A deep copy."""

    def reserve(self, edge_capacity: int) -> None: ...

    def check_integrity(self) -> None:
        """Raises InternalError naming the first broken storage invariant."""

    @property
    def num_vertices(self) -> int: ...

    @property
    def num_edges(self) -> int: ...

    @property
    def num_weights(self) -> int: ...

    @property
    def version(self) -> int: ...

    @property
    def has_transposed(self) -> bool: ...

    @property
    def vertex_dtype(self) -> str: ...

    @property
    def edge_dtype(self) -> str: ...

    @property
    def properties(self) -> Properties:
        """A copy of the storage properties."""

    @property
    def slot_capacity(self) -> int: ...

    @property
    def relayout_count(self) -> int: ...

class ChangeLog:
    """The effective edge changes of one Graph.apply()."""

    @property
    def graph_version(self) -> int: ...

    @property
    def num_changes(self) -> int: ...

    @property
    def num_vertices_before(self) -> int: ...

    @property
    def num_vertices_after(self) -> int: ...

    def changes(self) -> tuple[Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))]]:
        """(src, dst, kind) arrays; kind 0 inserted, 1 deleted, 2 reweighted."""

class UpdateStats:
    """What one compute or update did."""

    @property
    def affected(self) -> int: ...

    @property
    def iterations(self) -> int: ...

    @property
    def frontier_visits(self) -> int: ...

    @property
    def fallback_used(self) -> bool: ...

    @property
    def converged(self) -> bool: ...

    @property
    def engine_used(self) -> str: ...

    @property
    def method(self) -> str: ...

    @property
    def path(self) -> str:
        """'compute', 'incremental' or 'recompute'."""

class SsspOptions:
    """Native sssp options."""

    def __init__(self, delta: int = 0, objective: int = 0, validate_inputs: bool = True) -> None: ...

    @property
    def delta(self) -> int: ...

    @delta.setter
    def delta(self, arg: int, /) -> None: ...

    @property
    def objective(self) -> int: ...

    @objective.setter
    def objective(self, arg: int, /) -> None: ...

    @property
    def validate_inputs(self) -> bool: ...

    @validate_inputs.setter
    def validate_inputs(self, arg: bool, /) -> None: ...

class SsspStats(UpdateStats):
    """sssp's counters."""

    @property
    def invalidated(self) -> int: ...

    @property
    def epochs(self) -> int: ...

    @property
    def pushes(self) -> int: ...

    @property
    def packed_parents(self) -> bool: ...

class SsspState:
    """sssp distances and parents on the host."""

    def clone(self) -> SsspState:
        """A deep copy."""

    @property
    def vertex_dtype(self) -> str:
        """The id type of the graph: int32 or int64."""

    @property
    def graph_version(self) -> int:
        """The graph version the state matches."""

    @property
    def source(self) -> int: ...

    @property
    def num_vertices(self) -> int: ...

    def distances(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view that keeps this state's values alive."""

    def parents(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, source: int, options: SsspOptions, execution: Execution) -> tuple[SsspState, SsspStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: SsspOptions, execution: Execution) -> SsspStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

    @staticmethod
    def from_arrays(graph: GraphHandle, source: int, distances: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], parents: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], canonicalize: bool, options: SsspOptions, execution: Execution) -> SsspState:
        """
        A state from given arrays (int64 distances, parents in the graph's id type).
        """

def sssp_validate_batch(insert_src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], insert_dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], insert_weights: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], num_weights: int, options: SsspOptions) -> None:
    """
    Raises InvalidArgumentError when the insertions carry an objective weight < 1.
    """

def sssp_validate_graph(graph: GraphHandle, source: int, options: SsspOptions) -> None:
    """Raises unless the graph and source suit sssp."""

def sssp_reference_dijkstra(graph: GraphHandle, source: int, objective: int = 0) -> tuple[Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))]]:
    """
    Serial Dijkstra oracle: (int64 distances, parents in the graph's id type).
    """

SSSP_INFINITE_DISTANCE: int = 2305843009213693951

class BfsOptions:
    """Native dynamic_bfs options."""

    def __init__(self) -> None: ...

class BfsStats(UpdateStats):
    """dynamic_bfs's counters."""

    @property
    def invalidated(self) -> int: ...

    @property
    def invalidation_rounds(self) -> int: ...

class BfsState:
    """BFS levels of one source on the host."""

    def clone(self) -> BfsState:
        """A deep copy."""

    @property
    def vertex_dtype(self) -> str:
        """The id type of the graph: int32 or int64."""

    @property
    def graph_version(self) -> int:
        """The graph version the state matches."""

    @property
    def source(self) -> int: ...

    @property
    def num_vertices(self) -> int: ...

    def levels(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, source: int, options: BfsOptions, execution: Execution) -> tuple[BfsState, BfsStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: BfsOptions, execution: Execution) -> BfsStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

build_config: dict = ...

def openmp_max_threads() -> int:
    """Threads an OpenMP region gets by default (1 without OpenMP)."""
