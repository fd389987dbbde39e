"""dyng: dynamic graph algorithms whose results stay current while a graph changes in batches.

Build a :class:`Graph`, compute a result once (e.g. :func:`dyng.sssp.compute`), then feed
:class:`EdgeBatch` objects to :func:`dyng.update`; each update repairs the result to exactly what
a fresh compute would give, much faster.

Importing dyng is cheap: the native module is selected and loaded on first use (the first graph,
Resources or ``dyng.__version__``).

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 1], [1, 2], [2, 3])
>>> r = dyng.sssp.compute(g, 0)
>>> _ = dyng.update(g, dyng.EdgeBatch(insert=([0], [2], [1])), r)
>>> r.distances.tolist()
[0, 2, 1]
"""

from __future__ import annotations

from dyng import cycle_count, dynamic_bfs, generators, io, mosp, sssp, triangle_delta
from dyng._array import Array
from dyng._batch import ApplySummary, EdgeBatch
from dyng._citations import citation, citation_keys
from dyng._config import config, get_log_level, set_log_level, show_config, use_cpu_only
from dyng._errors import (
    BackendWarning,
    CapacityError,
    ConvergenceError,
    CudaError,
    Error,
    FileFormatError,
    InternalError,
    InvalidArgumentError,
    NotSupportedError,
    OutOfMemoryError,
    StaleResultError,
)
from dyng._graph import CSR, Graph
from dyng._profiler import Profiler, StageRecord, StageSample, profile
from dyng._properties import BatchSemantics, GraphProperties
from dyng._registry import AlgorithmInfo, algorithms
from dyng._resources import Resources, get_default_resources, set_default_resources
from dyng._update import update

__all__ = [
    "Graph",
    "GraphProperties",
    "BatchSemantics",
    "ApplySummary",
    "CSR",
    "EdgeBatch",
    "Resources",
    "get_default_resources",
    "set_default_resources",
    "Array",
    "update",
    "sssp",
    "mosp",
    "cycle_count",
    "dynamic_bfs",
    "triangle_delta",
    "generators",
    "io",
    "testing",
    "algorithms",
    "AlgorithmInfo",
    "citation",
    "citation_keys",
    "config",
    "show_config",
    "set_log_level",
    "get_log_level",
    "use_cpu_only",
    "profile",
    "Profiler",
    "StageRecord",
    "StageSample",
    "Error",
    "InvalidArgumentError",
    "StaleResultError",
    "FileFormatError",
    "CapacityError",
    "NotSupportedError",
    "ConvergenceError",
    "CudaError",
    "OutOfMemoryError",
    "InternalError",
    "BackendWarning",
]

_LAZY_SUBMODULES = ("testing",)


def __getattr__(name):
    # Resolved on demand so that `import dyng` neither loads the native module nor the test
    # helpers.
    if name == "__version__":
        from dyng import _backend

        return _backend.native().__version__
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"dyng.{name}")
    raise AttributeError(f"module 'dyng' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"__version__", *_LAZY_SUBMODULES})
