"""Oracles and random-input generators for testing dyng and code built on it.

* :mod:`dyng.testing.oracles`: pure-Python models (graph with batch semantics, Dijkstra, simple
  cycle histogram) that share no code with the library.
* :mod:`dyng.testing.strategies`: Hypothesis strategies for random graphs and adversarial
  batches (imported on first use, because Hypothesis is a test dependency only).
* :func:`dijkstra` and :func:`check_sssp_tree`: oracles for sssp results on real graphs.

Importing this package loads neither the native module nor Hypothesis.
"""

from __future__ import annotations

import importlib

from dyng.testing import oracles
from dyng.testing.sssp_check import SsspTreeCheck, check_sssp_tree, dijkstra

__all__ = ["oracles", "strategies", "dijkstra", "check_sssp_tree", "SsspTreeCheck"]


def __getattr__(name):
    if name == "strategies":
        # Deferred so that `import dyng.testing` works without Hypothesis installed.
        return importlib.import_module("dyng.testing.strategies")
    raise AttributeError(f"module 'dyng.testing' has no attribute {name!r}")
