"""Native layer of dyng (private: use the dyng package, not this module)."""

from collections.abc import Sequence
from typing import Annotated

import numpy
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

    def attach_profiler(self, session: ProfileSession | None) -> None:
        """
        Sends the stages of calls made with this Execution to `session` (None: to nobody). The caller keeps the session alive while it is attached.
        """

    @property
    def profiling(self) -> bool: ...

    @property
    def resolved_threads(self) -> int:
        """Threads an OpenMP region would get (1 on the sequential backend)."""

def set_log_level(level: int) -> None:
    """
    Sets the core's log level: 0 off, 1 error, 2 warn, 3 info, 4 debug, 5 trace.
    """

def get_log_level() -> int:
    """The core's log level (0 off .. 5 trace)."""

class ProfileSession:
    """The stages and counters one dyng.profile() collects."""

    def __init__(self, *, sync_stages: bool = False, nvtx: bool = False, cuda_events: bool = False) -> None: ...

    def samples(self) -> list[tuple[str, int, int, float, float, float]]:
        """
        Finished stages in end order: (name, depth, begin_index, start_ms, host_ms, device_ms).
        """

    def counters(self) -> list[tuple[str, int]]:
        """(name, total) in first-use order."""

    def reset(self) -> None:
        """Drops every sample and counter."""

class ProfileStage:
    """A stage opened from Python on an Execution's session."""

    def __init__(self, execution: Execution, name: str) -> None: ...

    def __enter__(self) -> None: ...

    def __exit__(self, *args) -> None: ...

def nvtx_available() -> bool:
    """True when this module emits NVTX ranges."""

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

    def apply(self, insert_src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], insert_dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], insert_weights: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], num_weights: int, delete_src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], delete_dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], log: bool = False, execution: Execution = ..., revertible: bool = False) -> tuple[dict, ChangeLog]:
        """
        Applies a batch atomically (a large one on the execution's OpenMP team); returns (summary dict, ChangeLog or None). With revertible, revert() can take it back until the next apply or forget_revert().
        """

    def revert(self, version: int) -> None:
        """
        Takes back the last apply (made with revertible) from graph version `version`.
        """

    def forget_revert(self) -> None:
        """Frees what revert() would need (the batch stays)."""

    def to_csr(self) -> tuple[Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))]]:
        """(row_ptr, col_ind, weights flat K per edge) as fresh arrays."""

    def edges(self) -> tuple[Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))]]:
        """(src, dst, weights flat K per edge) in CSR order."""

    def clone(self, keep_device: bool = False) -> GraphHandle:
        """
        A deep copy; with keep_device, a graph whose device copy applies its batches is copied on that device (the copy's host rows are then off too).
        """

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
    def host_bytes(self) -> int:
        """
        Host memory of the graph's storage in bytes (0 for the shell of a device graph).
        """

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
    def num_vertices(self) -> int: ...

    @property
    def source(self) -> int: ...

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

class CycleCountOptions:
    """Native cycle_count options."""

    def __init__(self, max_length: int = -1) -> None: ...

    @property
    def max_length(self) -> int: ...

    @max_length.setter
    def max_length(self, arg: int, /) -> None: ...

    @property
    def repair_budget(self) -> float:
        """Tuning knob for tests: the update's work budget (0 always recomputes)."""

    @repair_budget.setter
    def repair_budget(self, arg: float, /) -> None: ...

    @property
    def parallel_min_edges(self) -> int:
        """Tuning knob for tests: 0 runs the OpenMP team on any graph."""

    @parallel_min_edges.setter
    def parallel_min_edges(self, arg: int, /) -> None: ...

    @property
    def gpu_wave_slots(self) -> int:
        """Tuning knob for tests: at most this many CUDA search slots per wave."""

    @gpu_wave_slots.setter
    def gpu_wave_slots(self, arg: int, /) -> None: ...

    @property
    def gpu_depth_first_paths(self) -> int:
        """
        Tuning knob for tests: paths a CUDA level list holds before depth-first.
        """

    @gpu_depth_first_paths.setter
    def gpu_depth_first_paths(self, arg: int, /) -> None: ...

class CycleCountStats(UpdateStats):
    """cycle_count's counters."""

    @property
    def deletions(self) -> int: ...

    @property
    def insertions(self) -> int: ...

    @property
    def cycles_removed(self) -> int: ...

    @property
    def cycles_added(self) -> int: ...

class CycleCountState:
    """A histogram of simple cycles by length, on the host."""

    def clone(self) -> CycleCountState:
        """A deep copy."""

    @property
    def vertex_dtype(self) -> str:
        """The id type of the graph: int32 or int64."""

    @property
    def graph_version(self) -> int:
        """The graph version the state matches."""

    @property
    def num_vertices(self) -> int: ...

    @property
    def max_length(self) -> int: ...

    def counts(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, options: CycleCountOptions, execution: Execution) -> tuple[CycleCountState, CycleCountStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: CycleCountOptions, execution: Execution) -> CycleCountStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

def cycle_count_enumerate(graph: GraphHandle, max_length: int = -1) -> Annotated[NDArray, dict(shape=(None,))]:
    """
    The untrimmed histogram of simple cycles by plain enumeration (an oracle).
    """

class MospOptions:
    """Native mosp options."""

    def __init__(self, preferences: Sequence[int] = [], delta: int = 0, compute_path_costs: bool = True, validate_inputs: bool = True, num_objectives: int = 0) -> None: ...

    @property
    def preferences(self) -> list[int]: ...

    @preferences.setter
    def preferences(self, arg: Sequence[int], /) -> None: ...

    @property
    def delta(self) -> int: ...

    @delta.setter
    def delta(self, arg: int, /) -> None: ...

    @property
    def compute_path_costs(self) -> bool: ...

    @compute_path_costs.setter
    def compute_path_costs(self, arg: bool, /) -> None: ...

    @property
    def validate_inputs(self) -> bool: ...

    @validate_inputs.setter
    def validate_inputs(self, arg: bool, /) -> None: ...

    @property
    def num_objectives(self) -> int: ...

    @num_objectives.setter
    def num_objectives(self, arg: int, /) -> None: ...

    @property
    def repair_budget(self) -> float:
        """Tuning knob for tests: the update's work budget (0 always recomputes)."""

    @repair_budget.setter
    def repair_budget(self, arg: float, /) -> None: ...

    @property
    def parallel_min_edges(self) -> int:
        """Tuning knob for tests: 0 runs the OpenMP team on any graph."""

    @parallel_min_edges.setter
    def parallel_min_edges(self, arg: int, /) -> None: ...

class MospStats(UpdateStats):
    """mosp's counters."""

    @property
    def objectives(self) -> list[SsspStats]: ...

    @property
    def combined_edges(self) -> int: ...

    @property
    def preference_scale(self) -> int: ...

class MospState:
    """mosp trees, MOSP tree and path costs on the host."""

    def clone(self) -> MospState:
        """A deep copy."""

    @property
    def vertex_dtype(self) -> str:
        """The id type of the graph: int32 or int64."""

    @property
    def graph_version(self) -> int:
        """The graph version the state matches."""

    @property
    def num_vertices(self) -> int: ...

    @property
    def source(self) -> int: ...

    def combined_distances(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view that keeps this state's values alive."""

    def combined_parents(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, source: int, options: MospOptions, execution: Execution) -> tuple[MospState, MospStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: MospOptions, execution: Execution) -> MospStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

    @property
    def num_objectives(self) -> int: ...

    @property
    def preference_scale(self) -> int: ...

    @property
    def has_path_costs(self) -> bool: ...

    @property
    def consistent(self) -> bool:
        """False after an update that failed part-way: compute the result again."""

    def distances(self, objective: int) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view of objective k's distances."""

    def parents(self, objective: int) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view of objective k's parents."""

    def path_costs(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """
        The n x K path costs, row-major, in host memory (empty when not computed).
        """

    @staticmethod
    def from_arrays(graph: GraphHandle, source: int, distances: Sequence[Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)]], parents: Sequence[Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)]], canonicalize: bool, options: MospOptions, execution: Execution) -> MospState:
        """
        A state from per-objective trees (int64 distances, parents in the graph's id type).
        """

def mosp_validate_batch(insert_src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], insert_dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], insert_weights: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], num_weights: int, options: MospOptions) -> None:
    """
    Raises InvalidArgumentError when the insertions carry an objective weight < 1.
    """

def mosp_combined_graph(parents: Sequence[Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)]], source: int, preferences: Sequence[int]) -> tuple[Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))]]:
    """
    The combined graph of K parent arrays: (row_ptr int64, col, weights int32).
    """

def mosp_path_costs(graph: GraphHandle, parents: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], source: int, num_objectives: int = 0) -> tuple[Annotated[NDArray, dict(shape=(None,))], int]:
    """The path costs along `parents`: (n*K int64 row-major, K)."""

MOSP_MAX_OBJECTIVES: int = 64

MOSP_MAX_PREFERENCE_SCALE: int = 1048576

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
    def num_vertices(self) -> int: ...

    @property
    def source(self) -> int: ...

    def levels(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, source: int, options: BfsOptions, execution: Execution) -> tuple[BfsState, BfsStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: BfsOptions, execution: Execution) -> BfsStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

class TriangleDeltaOptions:
    """Native triangle_delta options."""

    def __init__(self) -> None: ...

    @property
    def repair_budget(self) -> float:
        """Tuning knob for tests: the update's work budget (0 always recomputes)."""

    @repair_budget.setter
    def repair_budget(self, arg: float, /) -> None: ...

    @property
    def parallel_min_edges(self) -> int:
        """Tuning knob for tests: 0 runs the OpenMP team on any graph."""

    @parallel_min_edges.setter
    def parallel_min_edges(self, arg: int, /) -> None: ...

class TriangleDeltaStats(UpdateStats):
    """triangle_delta's counters."""

    @property
    def deletions(self) -> int: ...

    @property
    def insertions(self) -> int: ...

    @property
    def triangles_removed(self) -> int: ...

    @property
    def triangles_added(self) -> int: ...

class TriangleDeltaState:
    """The number of triangles of an undirected graph, on the host."""

    def clone(self) -> TriangleDeltaState:
        """A deep copy."""

    @property
    def vertex_dtype(self) -> str:
        """The id type of the graph: int32 or int64."""

    @property
    def graph_version(self) -> int:
        """The graph version the state matches."""

    @property
    def num_vertices(self) -> int: ...

    @property
    def count(self) -> int: ...

    @staticmethod
    def compute(graph: GraphHandle, options: TriangleDeltaOptions, execution: Execution) -> tuple[TriangleDeltaState, TriangleDeltaStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: TriangleDeltaOptions, execution: Execution) -> TriangleDeltaStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

class ComponentsOptions:
    """Native components options."""

    def __init__(self) -> None: ...

    @property
    def kind(self) -> str:
        """"weak" or "strong"."""

    @kind.setter
    def kind(self, arg: str, /) -> None: ...

    @property
    def repair_budget(self) -> float:
        """Tuning knob for tests: the update's work budget (0 always recomputes)."""

    @repair_budget.setter
    def repair_budget(self, arg: float, /) -> None: ...

    @property
    def parallel_min_edges(self) -> int:
        """Tuning knob for tests: 0 runs the OpenMP team on any graph."""

    @parallel_min_edges.setter
    def parallel_min_edges(self, arg: int, /) -> None: ...

class ComponentsStats(UpdateStats):
    """components' counters."""

    @property
    def merged(self) -> int: ...

    @property
    def split(self) -> int: ...

    @property
    def relabelled(self) -> int: ...

    @property
    def searches(self) -> int: ...

    @property
    def search_size(self) -> int: ...

class ComponentsState:
    """Component labels, sizes and count of a graph, on the host."""

    def clone(self) -> ComponentsState:
        """A deep copy."""

    @property
    def vertex_dtype(self) -> str:
        """The id type of the graph: int32 or int64."""

    @property
    def graph_version(self) -> int:
        """The graph version the state matches."""

    @property
    def num_vertices(self) -> int: ...

    @property
    def count(self) -> int: ...

    def labels(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view that keeps this state's values alive."""

    def sizes(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, options: ComponentsOptions, execution: Execution) -> tuple[ComponentsState, ComponentsStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: ComponentsOptions, execution: Execution) -> ComponentsStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

class PagerankOptions:
    """Native pagerank options."""

    def __init__(self) -> None: ...

    @property
    def alpha(self) -> float: ...

    @alpha.setter
    def alpha(self, arg: float, /) -> None: ...

    @property
    def tol(self) -> float: ...

    @tol.setter
    def tol(self, arg: float, /) -> None: ...

    @property
    def max_iter(self) -> int: ...

    @max_iter.setter
    def max_iter(self, arg: int, /) -> None: ...

    @property
    def weighted(self) -> bool: ...

    @weighted.setter
    def weighted(self, arg: bool, /) -> None: ...

    @property
    def personalization(self) -> Annotated[NDArray, dict(shape=(None,))]:
        """float64 teleport weights per vertex id (empty: uniform)."""

    @personalization.setter
    def personalization(self, arg: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], /) -> None: ...

    @property
    def dangling(self) -> Annotated[NDArray, dict(shape=(None,))]:
        """float64 dangling weights per vertex id (empty: personalization)."""

    @dangling.setter
    def dangling(self, arg: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], /) -> None: ...

    @property
    def repair_budget(self) -> float:
        """Tuning knob for tests: the update's work budget (0 always recomputes)."""

    @repair_budget.setter
    def repair_budget(self, arg: float, /) -> None: ...

    @property
    def parallel_min_edges(self) -> int:
        """Tuning knob for tests: 0 runs the OpenMP team on any graph."""

    @parallel_min_edges.setter
    def parallel_min_edges(self, arg: int, /) -> None: ...

class PagerankStats(UpdateStats):
    """pagerank's counters."""

    @property
    def vertices_touched(self) -> int: ...

    @property
    def frontier_size(self) -> int: ...

    @property
    def residual(self) -> float: ...

    @property
    def touched_per_iteration(self) -> list[int]: ...

class PagerankState:
    """PageRank of a graph's vertices, on the host."""

    def clone(self) -> PagerankState:
        """A deep copy."""

    @property
    def vertex_dtype(self) -> str:
        """The id type of the graph: int32 or int64."""

    @property
    def graph_version(self) -> int:
        """The graph version the state matches."""

    @property
    def num_vertices(self) -> int: ...

    @property
    def iterations(self) -> int: ...

    @property
    def residual(self) -> float: ...

    def ranks(self) -> Annotated[NDArray, dict(shape=(None,), writable=False)]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, options: PagerankOptions, execution: Execution) -> tuple[PagerankState, PagerankStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: PagerankOptions, execution: Execution) -> PagerankStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

    @staticmethod
    def compute_from(graph: GraphHandle, start: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], options: PagerankOptions, execution: Execution) -> tuple[PagerankState, PagerankStats]:
        """
        compute from `start` (float64, at most one entry per vertex) instead of the uniform vector; returns (state, stats).
        """

class MospChangeCounts:
    """What mospPrep's change generator reports about a batch."""

    @property
    def inserts(self) -> int: ...

    @property
    def reweights(self) -> int: ...

    @property
    def deletes(self) -> int: ...

    @property
    def requested_deletes(self) -> int: ...

    @property
    def safe_rounds(self) -> int: ...

    @property
    def centre(self) -> int: ...

    @property
    def region(self) -> int: ...

    @property
    def summary(self) -> str: ...

def legacy_mosp_changes(graph: GraphHandle, num_changes: int, insertion_percentage: float, mode: str, weight_min: int, weight_max: int, seed: int, local_hops: int, safe_deletions: bool, source: int) -> tuple:
    """
    mospPrep's `changes`: (insert_src, insert_dst, insert_weights flat, delete_src, delete_dst, MospChangeCounts).
    """

def legacy_cycle_enum_batch(graph: GraphHandle, num_deletions: int, num_insertions: int, seed: int, locality_window: int | None) -> tuple:
    """
    CycleEnumeration-GPU's batch generator: (insert_src, insert_dst, delete_src, delete_dst), each sorted.
    """

def io_seeded_uniform(count: int, lo: int, hi: int, seed: int) -> Annotated[NDArray, dict(shape=(None,))]:
    """
    count int32 values uniform in [lo, hi] from std::mt19937(seed), as mospPrep draws them.
    """

def io_read_edge_list(path: str, num_weights: int, compact: bool, index_base: int, symmetrize: bool, drop_self_loops: bool, merge: bool, threads: int, wide: bool, source_lo: int, source_hi: int) -> tuple:
    """
    Edge list -> (n, src, dst, weights|None, K, external_ids, timestamps, mm, symmetric), the edges with source_lo <= src < source_hi.
    """

def io_read_matrix_market(path: str, weights: str, num_weights: int, random_min: int, random_max: int, random_seed: int, drop_self_loops: bool, sort_and_dedupe: bool, threads: int, wide: bool, source_lo: int, source_hi: int) -> tuple:
    """Matrix Market -> the tuple of io_read_edge_list."""

def io_read_csr_triplet(prefix: str, num_weights: int) -> tuple:
    """CSR triplet -> (row_ptr, col_ind, weights flat, K), int64 indices."""

def io_read_legacy_batch(insert_path: str, delete_path: str, num_weights: int, num_vertices: int, id_max: int, mosp_lenient: bool) -> tuple:
    """
    insert.txt/delete.txt -> (ins_src, ins_dst, ins_weights flat, K, del_src, del_dst).
    """

def io_read_batches(path: str, num_weights: int, num_vertices: int) -> list:
    """.dgt -> list of the tuples of io_read_legacy_batch."""

def io_read_vertex_values(path: str, function: str, num_vertices: int, inf: int, minimum: int, below: int) -> Annotated[NDArray, dict(shape=(None,))]:
    """'v value' lines -> int64 array indexed by vertex."""

def io_write_edge_list(path: str, src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], weights: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], num_weights: int) -> None:
    """Writes 'src dst w1..wK' lines."""

def io_write_matrix_market(path: str, num_vertices: int, src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], weights: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], num_weights: int, weight_column: int) -> None:
    """Writes a coordinate MM file."""

def io_write_csr_triplet(prefix: str, row_ptr: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], col_ind: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], weights: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], num_weights: int) -> None:
    """Writes RowPtr/ColInd/Values files."""

def io_write_legacy_batch(insert_path: str, delete_path: str, insert_src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], insert_dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], insert_weights: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], num_weights: int, delete_src: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], delete_dst: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)]) -> None:
    """Writes insert.txt and delete.txt."""

def io_write_batches(path: str, batches: list) -> None:
    """
    Writes a .dgt file from tuples (ins_src, ins_dst, ins_w, K, del_src, del_dst).
    """

def io_write_vertex_values(path: str, function: str, values: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], inf: int) -> None:
    """Writes 'v value' lines (INF at or above inf > 0)."""

def io_write_path_costs(path: str, costs: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], num_columns: int, inf: int) -> None:
    """Writes 'v c1 .. cK' lines."""

def io_write_text(path: str, function: str, text: str) -> None:
    """Writes text atomically."""

def io_write_group_open() -> None:
    """
    Opens a write group: files written on this thread wait in it until commit.
    """

def io_write_group_commit() -> None:
    """Puts every file of the innermost group in place and closes it."""

def io_write_group_discard() -> None:
    """
    Closes the innermost group, removing its files' temporary copies and new folders.
    """

def io_write_bytes(path: str, function: str, data: bytes) -> None:
    """Writes bytes atomically."""

build_config: dict = ...

def openmp_max_threads() -> int:
    """Threads an OpenMP region gets by default (1 without OpenMP)."""

def sssp_shard_search(graph: GraphHandle, objective: int, first: int, distances: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu')], parents: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu')], active: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')], bound: int, max_length: int = 0) -> tuple[Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))]]:
    """
    Dijkstra over the owned vertices [first, first + len(distances)) of a shard from its active vertices below `bound`, updating the int64 distances and parents and the bool active set in place: the offers to other ranks' vertices (targets, distances, sources), int64. `max_length` > 0, the rows' largest length, lets Dial's queue serve.
    """

def sssp_shard_take_offers(first: int, distances: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu')], parents: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu')], active: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')], targets: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], offered: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], sources: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)]) -> None:
    """
    Takes int64 offers (global target, distance, source) into the tree slice starting at `first`: the lowest (distance, source) pair per target; a lowered target turns active.
    """

def sssp_shard_cut(graph: GraphHandle, first: int, parents: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu')], mask: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')], roots: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], limit: int) -> tuple[int, Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))]]:
    """
    Cuts the subtrees below the int64 root positions on this shard into the bool `mask`, at most `limit` vertices: (count cut, children on other ranks, their cut parents, the positions cut).
    """

def sssp_shard_lengths(graph: GraphHandle, objective: int) -> tuple[int, int, int, int, int, int]:
    """
    (edges, sum, largest length, smallest length, its edge's source, its edge's target) of a shard's objective column (-1 ends when the shard has no edges).
    """

def sssp_shard_offers_into(graph: GraphHandle, objective: int, first: int, distances: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], targets: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)]) -> tuple[Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))], Annotated[NDArray, dict(shape=(None,))]]:
    """
    The int64 offers (targets, distances, sources) of the shard's edges into int64 `targets` from the owned vertices [first, first + len(distances)) with a distance.
    """
