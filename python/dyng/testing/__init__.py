"""Oracles and random-input generators for testing dyng and code built on it.

* :mod:`dyng.testing.oracles`: pure-Python models (graph with batch semantics, Dijkstra, simple
  cycle histogram) that share no code with the library.
* :mod:`dyng.testing.strategies`: Hypothesis strategies for random graphs and adversarial
  batches (imported on first use, because Hypothesis is a test dependency only).
* :func:`dijkstra` and :func:`check_sssp_tree`: oracles for sssp results on real graphs.
* :func:`combined_graph` and :func:`mosp_path_costs`: mosp's combined graph and path costs, built
  natively; :mod:`dyng.testing.mosp_oracle` is the pure-Python mosp oracle.
* :func:`simple_cycles`: the histogram of simple cycles by plain enumeration (cycle_count's
  oracle).

Importing this package loads neither the native module nor Hypothesis.
"""

from __future__ import annotations

import importlib

from dyng.testing import mosp_oracle, oracles
from dyng.testing.cycle_check import simple_cycles
from dyng.testing.mosp_check import combined_graph, mosp_path_costs
from dyng.testing.sssp_check import SsspTreeCheck, check_sssp_tree, dijkstra

__all__ = [
    "oracles",
    "mosp_oracle",
    "strategies",
    "dijkstra",
    "check_sssp_tree",
    "SsspTreeCheck",
    "combined_graph",
    "mosp_path_costs",
    "simple_cycles",
]


def __getattr__(name):
    if name == "strategies":
        # Deferred so that `import dyng.testing` works without Hypothesis installed.
        return importlib.import_module("dyng.testing.strategies")
    raise AttributeError(f"module 'dyng.testing' has no attribute {name!r}")
