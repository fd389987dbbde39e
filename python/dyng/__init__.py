"""dyng: dynamic graph algorithms whose results stay current while a graph changes in batches.

Build a [`Graph`][dyng.Graph], compute a result once (e.g. [`dyng.sssp.compute`][]), then feed
[`EdgeBatch`][dyng.EdgeBatch] objects to [`dyng.update`][]; each update repairs the result to
exactly what a fresh compute would give, much faster.

Importing dyng is cheap: its names are imported on first use, and the native module is selected
and loaded on the first graph, Resources or ``dyng.__version__``.

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

import importlib
from typing import TYPE_CHECKING

# Where each public name lives. They are imported on first use (PEP 562), so that `import dyng`
# loads neither NumPy nor the native module: NetworkX imports dyng.nx's get_info at every
# `import networkx` once dyng is installed (the networkx.backend_info entry point), and that must
# stay cheap. Type checkers read the imports below instead.
_HOMES = {
    "Array": "dyng._array",
    "ApplySummary": "dyng._batch",
    "EdgeBatch": "dyng._batch",
    "citation": "dyng._citations",
    "citation_keys": "dyng._citations",
    "config": "dyng._config",
    "get_log_level": "dyng._config",
    "set_log_level": "dyng._config",
    "show_config": "dyng._config",
    "use_cpu_only": "dyng._config",
    "BackendWarning": "dyng._errors",
    "CapacityError": "dyng._errors",
    "ConvergenceError": "dyng._errors",
    "CudaError": "dyng._errors",
    "Error": "dyng._errors",
    "FileFormatError": "dyng._errors",
    "InternalError": "dyng._errors",
    "InvalidArgumentError": "dyng._errors",
    "NotSupportedError": "dyng._errors",
    "OutOfMemoryError": "dyng._errors",
    "StaleResultError": "dyng._errors",
    "CSR": "dyng._graph",
    "Graph": "dyng._graph",
    "Profiler": "dyng._profiler",
    "StageRecord": "dyng._profiler",
    "StageSample": "dyng._profiler",
    "profile": "dyng._profiler",
    "BatchSemantics": "dyng._properties",
    "GraphProperties": "dyng._properties",
    "AlgorithmInfo": "dyng._registry",
    "algorithms": "dyng._registry",
    "Resources": "dyng._resources",
    "get_default_resources": "dyng._resources",
    "set_default_resources": "dyng._resources",
    "update": "dyng._update",
}
# The algorithm modules (dyng.sssp, ...) are submodules too: the registry names them
# (_registry.ALGORITHM_MODULES), read on first use, since it imports dataclasses. Type checkers
# see them as what __getattr__ returns, or as themselves after `import dyng.<algorithm>`.
_SUBMODULES = ("generators", "io", "testing", "nx", "distributed")

if TYPE_CHECKING:
    from dyng import distributed, generators, io, testing
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

# The public names but the algorithm modules: `__all__` (made on first use, by __getattr__) adds
# those the registry names.
_PUBLIC = (
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
    "generators",
    "io",
    "testing",
    "distributed",
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
)


def _algorithm_modules():
    from dyng import _registry

    return _registry.ALGORITHM_MODULES


def __getattr__(name):
    if name == "__version__":
        from dyng import _backend

        return _backend.native().__version__
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(importlib.import_module(home), name)
    elif name == "__all__":
        value = [*_PUBLIC, *_algorithm_modules()]
    elif name in _SUBMODULES or (not name.startswith("_") and name in _algorithm_modules()):
        value = importlib.import_module(f"dyng.{name}")
    elif name.startswith("_") and not name.startswith("__"):
        # A private module (dyng._backend, ...): the eager package of 0.2 made them all
        # attributes of dyng, and code that reads them that way keeps working.
        try:
            value = importlib.import_module(f"dyng.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"dyng.{name}":
                raise
            raise AttributeError(f"module 'dyng' has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module 'dyng' has no attribute {name!r}")
    globals()[name] = value  # later reads skip this function
    return value


def __dir__():
    return sorted(
        set(globals()) | {"__version__", "__all__", *_HOMES, *_SUBMODULES, *_algorithm_modules()}
    )
