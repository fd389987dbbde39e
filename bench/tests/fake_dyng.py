"""A tiny pure-Python stand-in for the dyng API the sssp benchmark uses, for testing the harness.

It follows the spec's shapes (Graph.from_edges/clone/apply, EdgeBatch, Resources, sssp.compute /
update returning Result and Stats) with a heap Dijkstra, so the benchmark's plumbing, checks and
report can be tested without the real package. ``broken=`` makes it wrong on purpose, to show
that the benchmark's checks fail.
"""

from __future__ import annotations

import heapq
import types

import numpy as np

INFINITE_DISTANCE = 2**61 - 1


class Resources:
    def __init__(self, backend="openmp", num_threads=0):
        self.backend, self.num_threads = backend, num_threads

    @classmethod
    def sequential(cls):
        return cls("sequential")

    @classmethod
    def openmp(cls, num_threads=0):
        return cls("openmp", num_threads)


class Array:
    def __init__(self, values):
        self._values = np.asarray(values)

    def to_numpy(self, copy=True):
        return self._values.copy() if copy else self._values


class EdgeBatch:
    def __init__(self, insert=None, delete=None):
        self.insert, self.delete = insert, delete


class Graph:
    def __init__(self, n, edges, resources):
        self.num_vertices, self._edges, self.resources = n, edges, resources

    @classmethod
    def from_edges(cls, src, dst, weights, *, num_vertices=None, resources=None):
        edges = {}
        for u, v, w in zip(
            np.asarray(src).tolist(), np.asarray(dst).tolist(), np.asarray(weights).tolist()
        ):
            edges[(u, v)] = w
        return cls(num_vertices, edges, resources)

    @property
    def num_edges(self):
        return len(self._edges)

    def clone(self, resources=None):
        return Graph(self.num_vertices, dict(self._edges), resources or self.resources)

    def apply(self, batch):
        deleted = inserted = updated = 0
        for u, v in zip(*(np.asarray(a).tolist() for a in batch.delete)):
            deleted += self._edges.pop((u, v), None) is not None
        for u, v, w in zip(*(np.asarray(a).tolist() for a in batch.insert)):
            inserted += (u, v) not in self._edges
            updated += (u, v) in self._edges
            self._edges[(u, v)] = w
        return types.SimpleNamespace(
            inserted_edges=inserted, deleted_edges=deleted, updated_edges=updated
        )


def _dijkstra(graph, source):
    out = [[] for _ in range(graph.num_vertices)]
    for (u, v), w in graph._edges.items():
        out[u].append((v, w))
    dist = [INFINITE_DISTANCE] * graph.num_vertices
    dist[source] = 0
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in out[u]:
            if d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    parents = [-1] * graph.num_vertices
    for (u, v), w in sorted(graph._edges.items()):
        if (
            v != source
            and dist[u] < INFINITE_DISTANCE
            and dist[u] + w == dist[v]
            and parents[v] == -1
        ):
            parents[v] = u
    return np.array(dist, dtype=np.int64), np.array(parents, dtype=np.int32)


class Result:
    def __init__(self, dist, parents, method="dijkstra"):
        self.distances, self.parents = Array(dist), Array(parents)
        self.stats = types.SimpleNamespace(method=method)


def make(broken: str | None = None):
    """A module-like namespace; broken in {"update", "parents", "omp", "steady"} corrupts one
    answer ("steady": every update of a result after its first)."""

    def compute(graph, source, *, resources=None):
        dist, parents = _dijkstra(graph, source)
        backend = (resources or graph.resources).backend
        if broken == "parents" or (broken == "omp" and backend == "openmp"):
            reached = np.flatnonzero(parents >= 0)
            parents[reached[-1]] = source if parents[reached[-1]] != source else source + 1
        return Result(dist, parents, "delta_stepping" if backend == "openmp" else "dijkstra")

    def update(graph, batch, result, *, resources=None):
        graph.apply(batch)
        fresh = compute(graph, 0, resources=resources)
        dist = fresh.distances.to_numpy()
        result.updates = getattr(result, "updates", 0) + 1
        if broken == "update" or (broken == "steady" and result.updates > 1):
            dist[np.argmax(dist < INFINITE_DISTANCE // 2)] += 1
        result.distances, result.parents = Array(dist), fresh.parents
        return types.SimpleNamespace(
            path="recompute", fallback_used=True, affected=0, invalidated=0
        )

    sssp = types.SimpleNamespace(
        compute=compute, update=update, INFINITE_DISTANCE=INFINITE_DISTANCE
    )
    return types.SimpleNamespace(
        __version__="0.0.fake",
        Resources=Resources,
        Graph=Graph,
        EdgeBatch=EdgeBatch,
        sssp=sssp,
        config=lambda: {"build": {"build_type": "fake"}},
    )
