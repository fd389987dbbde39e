"""dyng as a NetworkX backend, and NetworkX graphs whose results stay current.

Two ways in (docs/networkx.md has the whole story):

- ``backend="dyng"`` (or ``nx.config.backend_priority = ["dyng"]``) sends a plain NetworkX graph
  to dyng: it is converted, computed and answered in NetworkX's own types. Every mutation of the
  graph drops the conversion, so each call converts and computes afresh.
- [`DiGraph`][dyng.nx.DiGraph] and [`Graph`][dyng.nx.Graph] are NetworkX graphs (subclasses of ``nx.DiGraph`` and
  ``nx.Graph``) that record every edge change as a pending batch. A NetworkX call that dyng
  implements applies the batch to a dyng copy and repairs the cached result with ``update``
  instead of recomputing; every other call runs NetworkX's own code on the graph itself.

This module stays cheap to import: NetworkX imports it for [`get_info`][dyng.nx.get_info] while it is itself
being imported, so NetworkX and the native module are loaded only when a backend attribute is
first used.

Examples
--------
>>> import networkx as nx
>>> import dyng.nx
>>> G = dyng.nx.DiGraph()
>>> G.add_weighted_edges_from([("a", "b", 2), ("b", "c", 2), ("a", "c", 5)])
>>> nx.single_source_dijkstra_path_length(G, "a")
{'a': 0, 'b': 2, 'c': 4}
>>> G.remove_edge("b", "c")
>>> nx.single_source_dijkstra_path_length(G, "a")
{'a': 0, 'b': 2, 'c': 5}
>>> G.dyng_stats.computes, G.dyng_stats.updates
(1, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dyng.nx._info import get_info

if TYPE_CHECKING:  # for type checkers and the API reference; at run time __getattr__ loads them
    from dyng.nx._graph_types import DiGraph, Graph
    from dyng.nx._interface import BackendInterface

__all__ = ["BackendInterface", "DiGraph", "Graph", "get_info"]

_LAZY = {
    "BackendInterface": "dyng.nx._interface",
    "DiGraph": "dyng.nx._graph_types",
    "Graph": "dyng.nx._graph_types",
}


def __getattr__(name):
    # These import NetworkX; get_info must not.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'dyng.nx' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
