"""Oracles and random-input generators for testing dyng and code built on it.

* [`dyng.testing.oracles`][]: pure-Python models (graph with batch semantics, Dijkstra, simple
  cycle histogram) that share no code with the library.
* [`dyng.testing.strategies`][]: Hypothesis strategies for random graphs and adversarial
  batches (imported on first use, because Hypothesis is a test dependency only).
* [`dijkstra`][dyng.testing.dijkstra] and [`check_sssp_tree`][dyng.testing.check_sssp_tree]:
  oracles for sssp results on real graphs.
* [`combined_graph`][dyng.testing.combined_graph] and
  [`mosp_path_costs`][dyng.testing.mosp_path_costs]: mosp's combined graph and path costs, built
  natively; [`dyng.testing.mosp_oracle`][] is the pure-Python mosp oracle.
* [`simple_cycles`][dyng.testing.simple_cycles]: the histogram of simple cycles by plain
  enumeration (cycle_count's oracle).

Importing this package loads neither the native module nor Hypothesis.

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1])
>>> bool(dyng.testing.check_sssp_tree(g, dyng.sssp.compute(g, 0)))
True
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
