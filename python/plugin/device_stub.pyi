# The CUDA plugin module's additions to python/dyng/_core.pyi, as nanobind's stubgen writes them:
# python/plugin/merge_stub.py merges them into the plugin's _core.pyi at build time (its docstring
# says how, and how to rewrite this file from a CUDA build's stub). test_stubs.py checks both.

from typing import Any

class GraphHandle:
    def to_device(self, device: int, stream: int = 0, primary: bool = False) -> None:
        """
        Uploads the graph to a CUDA device (no-op when a copy is already there); a primary copy applies the graph's batches itself, any other follows the host's.
        """

    def drop_device(self) -> None:
        """
        Frees the device copy (its rows are copied to the host first when only it has them).
        """

    @property
    def device(self) -> int:
        """Ordinal of the device holding a copy, -1 when none."""

    @property
    def device_bytes(self) -> int: ...

    @property
    def device_full_uploads(self) -> int: ...

    @property
    def device_rows_synced(self) -> int: ...

    @property
    def host_rows_current(self) -> bool:
        """
        False while only the device copy holds the rows (the host graph is a shell).
        """

    @property
    def device_rows_uploaded(self) -> int:
        """
        Rows of the last sync copied whole from the host (the rest were replayed).
        """

class SsspDeviceState:
    """An sssp result in CUDA device memory."""

    def clone(self) -> SsspDeviceState:
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

    def distances(self) -> tuple[Annotated[Any, dict(shape=(None,), device='cuda', writable=False)], int]:
        """A read-only view that keeps this state's values alive."""

    def parents(self) -> tuple[Annotated[Any, dict(shape=(None,), device='cuda', writable=False)], int]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, source: int, options: SsspOptions, execution: Execution) -> tuple[SsspDeviceState, SsspStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: SsspOptions, execution: Execution) -> SsspStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

    def to_host(self) -> SsspState:
        """A host result with the same values."""

    @staticmethod
    def from_host(state: SsspState, execution: Execution) -> SsspDeviceState:
        """A device copy of a host result."""

    @property
    def device(self) -> int: ...

class CycleCountDeviceState:
    """A histogram of simple cycles by length, counted on a CUDA device."""

    def clone(self) -> CycleCountDeviceState:
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
    def compute(graph: GraphHandle, options: CycleCountOptions, execution: Execution) -> tuple[CycleCountDeviceState, CycleCountStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: CycleCountOptions, execution: Execution) -> CycleCountStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

    def to_host(self) -> CycleCountState:
        """A host result with the same values."""

    @staticmethod
    def from_host(state: CycleCountState, execution: Execution) -> CycleCountDeviceState:
        """A device copy of a host result."""

    @property
    def device(self) -> int: ...

class MospDeviceState:
    """mosp trees, MOSP tree and path costs in CUDA device memory."""

    def clone(self) -> MospDeviceState:
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

    def combined_distances(self) -> tuple[Annotated[Any, dict(shape=(None,), device='cuda', writable=False)], int]:
        """A read-only view that keeps this state's values alive."""

    def combined_parents(self) -> tuple[Annotated[Any, dict(shape=(None,), device='cuda', writable=False)], int]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, source: int, options: MospOptions, execution: Execution) -> tuple[MospDeviceState, MospStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: MospOptions, execution: Execution) -> MospStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

    def to_host(self) -> MospState:
        """A host result with the same values."""

    @staticmethod
    def from_host(state: MospState, execution: Execution) -> MospDeviceState:
        """A device copy of a host result."""

    @property
    def device(self) -> int: ...

    @property
    def num_objectives(self) -> int: ...

    @property
    def preference_scale(self) -> int: ...

    @property
    def has_path_costs(self) -> bool: ...

    @property
    def consistent(self) -> bool:
        """False after an update that failed part-way: compute the result again."""

    def distances(self, objective: int) -> tuple[Annotated[Any, dict(shape=(None,), device='cuda', writable=False)], int]:
        """A read-only view of objective k's distances."""

    def parents(self, objective: int) -> tuple[Annotated[Any, dict(shape=(None,), device='cuda', writable=False)], int]:
        """A read-only view of objective k's parents."""

    def path_costs(self) -> Annotated[NDArray, dict(shape=(None,))]:
        """
        The n x K path costs, row-major, in host memory (empty when not computed).
        """

class BfsDeviceState:
    """dynamic_bfs levels in device memory."""

    def clone(self) -> BfsDeviceState:
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

    def levels(self) -> tuple[Annotated[Any, dict(shape=(None,), device='cuda', writable=False)], int]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, source: int, options: BfsOptions, execution: Execution) -> tuple[BfsDeviceState, BfsStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: BfsOptions, execution: Execution) -> BfsStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

    def to_host(self) -> BfsState:
        """A host result with the same values."""

    @staticmethod
    def from_host(state: BfsState, execution: Execution) -> BfsDeviceState:
        """A device copy of a host result."""

    @property
    def device(self) -> int: ...

class TriangleDeltaDeviceState:
    """
    The number of triangles of an undirected graph, counted on a CUDA device.
    """

    def clone(self) -> TriangleDeltaDeviceState:
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
    def compute(graph: GraphHandle, options: TriangleDeltaOptions, execution: Execution) -> tuple[TriangleDeltaDeviceState, TriangleDeltaStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: TriangleDeltaOptions, execution: Execution) -> TriangleDeltaStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

    def to_host(self) -> TriangleDeltaState:
        """A host result with the same values."""

    @staticmethod
    def from_host(state: TriangleDeltaState, execution: Execution) -> TriangleDeltaDeviceState:
        """A device copy of a host result."""

    @property
    def device(self) -> int: ...

class ComponentsDeviceState:
    """Component labels, sizes and count of a graph, on a CUDA device."""

    def clone(self) -> ComponentsDeviceState:
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

    def labels(self) -> tuple[Annotated[Any, dict(shape=(None,), device='cuda', writable=False)], int]:
        """A read-only view that keeps this state's values alive."""

    def sizes(self) -> tuple[Annotated[Any, dict(shape=(None,), device='cuda', writable=False)], int]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, options: ComponentsOptions, execution: Execution) -> tuple[ComponentsDeviceState, ComponentsStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: ComponentsOptions, execution: Execution) -> ComponentsStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

    def to_host(self) -> ComponentsState:
        """A host result with the same values."""

    @staticmethod
    def from_host(state: ComponentsState, execution: Execution) -> ComponentsDeviceState:
        """A device copy of a host result."""

    @property
    def device(self) -> int: ...

class PagerankDeviceState:
    """PageRank of a graph's vertices, on a CUDA device."""

    def clone(self) -> PagerankDeviceState:
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

    def ranks(self) -> tuple[Annotated[Any, dict(shape=(None,), device='cuda', writable=False)], int]:
        """A read-only view that keeps this state's values alive."""

    @staticmethod
    def compute(graph: GraphHandle, options: PagerankOptions, execution: Execution) -> tuple[PagerankDeviceState, PagerankStats]:
        """Returns (state, stats)."""

    def update(self, graph: GraphHandle, log: ChangeLog, options: PagerankOptions, execution: Execution) -> PagerankStats:
        """Repairs the state after graph.apply(..., log=True); returns the stats."""

    def to_host(self) -> PagerankState:
        """A host result with the same values."""

    @staticmethod
    def from_host(state: PagerankState, execution: Execution) -> PagerankDeviceState:
        """A device copy of a host result."""

    @property
    def device(self) -> int: ...

    @staticmethod
    def compute_from(graph: GraphHandle, start: Annotated[NDArray, dict(shape=(None,), order='C', device='cpu', writable=False)], options: PagerankOptions, execution: Execution) -> tuple[PagerankDeviceState, PagerankStats]:
        """
        compute from `start` (float64, at most one entry per vertex) instead of the uniform vector; returns (state, stats).
        """

def cuda_device_count() -> int:
    """CUDA devices this process can use (0 without a driver or device)."""

def cuda_use_device(device: int) -> None:
    """
    Makes `device` this thread's current CUDA device and leaves it so (NCCL binds a communicator to the current device).
    """

def cuda_synchronize(device: int, stream: int = 0) -> None:
    """Waits for the work queued on the stream."""

def cuda_copy_to_host(device: int, source: int, out: Annotated[NDArray, dict(order='C', device='cpu')]) -> None:
    """
    Copies out.nbytes bytes of device memory from address `source` into `out` (a writable C-contiguous host array).
    """

def cuda_workspace_bytes(device: int) -> int:
    """Device memory held by dyng's pool on the device."""

def cuda_release_workspaces(device: int) -> None:
    """Returns the pool's unused memory to the driver."""

class StagedBatch:
    """A batch converted and checked in device memory for one graph."""

    @property
    def conversion_faults(self) -> list[tuple[str, str, int, object, int]]:
        """
        (array, what, index, value, column) of each fault the conversion found.
        """

def device_array_view(source: object) -> tuple[int, str, int, list[int], list[int], int, object]:
    """
    (ptr, kind, bits, shape, strides, device, None) of a DLPack array in CUDA memory.
    """

def cuda_pointer_device(pointer: int) -> int:
    """The device a pointer's memory is on, -1 for host or unknown memory."""

def stage_device_batch(graph: GraphHandle, insert_src: tuple[int, int, bool, int, int, int, int] | None, insert_dst: tuple[int, int, bool, int, int, int, int] | None, insert_weights: tuple[int, int, bool, int, int, int, int] | None, num_weights: int, delete_src: tuple[int, int, bool, int, int, int, int] | None, delete_dst: tuple[int, int, bool, int, int, int, int] | None) -> StagedBatch:
    """
    Converts and checks a batch of device arrays on the graph's device; None when the graph's batches are applied by the host.
    """

def apply_staged(graph: GraphHandle, staged: StagedBatch, log: bool = False, execution: Execution = ..., revertible: bool = False) -> tuple[dict, ChangeLog]:
    """
    Applies a staged batch on the graph's device; returns (summary dict, ChangeLog or None). With revertible, GraphHandle.revert() can take it back.
    """

def sssp_validate_staged(staged: StagedBatch, options: SsspOptions) -> None:
    """sssp_validate_batch for a staged batch."""

def mosp_validate_staged(staged: StagedBatch, options: MospOptions) -> None:
    """mosp_validate_batch for a staged batch."""
