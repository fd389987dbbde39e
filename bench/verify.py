"""Answer checks for the benchmark: a wrong result must stop it, never be timed and reported.

The references are independent of dyng: SciPy's Dijkstra for distances and a NumPy
reconstruction of the canonical parent (the lowest-id in-neighbour ``u`` with
``dist[u] + w(u, v) == dist[v]``, -1 for the source and unreachable vertices); for components,
any labelling (SciPy's, NetworKit's) turned into dyng's canonical one.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse
import scipy.sparse.csgraph

from bench.generators import EdgeGraph

INFINITE_DISTANCE = (1 << 61) - 1


class VerificationError(RuntimeError):
    """A dyng answer differs from its reference."""


def scipy_csr(graph: EdgeGraph) -> scipy.sparse.csr_matrix:
    """The graph as a SciPy CSR matrix (edges are already sorted and unique)."""
    n = graph.num_vertices
    return scipy.sparse.csr_matrix(
        (graph.weights.astype(np.float64), graph.dst, graph.row_ptr()), shape=(n, n)
    )


def scipy_distances(csr, source: int) -> np.ndarray:
    return scipy.sparse.csgraph.dijkstra(csr, directed=True, indices=source)


def as_dyng_distances(distances: np.ndarray) -> np.ndarray:
    """SciPy float distances (inf = unreachable) in dyng's int64 form."""
    out = np.full(distances.shape, INFINITE_DISTANCE, dtype=np.int64)
    finite = np.isfinite(distances)
    out[finite] = distances[finite].astype(np.int64)
    return out


def canonical_parents(graph: EdgeGraph, distances: np.ndarray, source: int) -> np.ndarray:
    """Lowest-id tight in-neighbour per vertex; -1 for the source and unreachable vertices."""
    n = graph.num_vertices
    dist_src = distances[graph.src]
    reached = dist_src < INFINITE_DISTANCE
    tight = reached & (dist_src + graph.weights == distances[graph.dst]) & (graph.dst != source)
    parents = np.full(n, n, dtype=np.int64)
    np.minimum.at(parents, graph.dst[tight], graph.src[tight].astype(np.int64))
    parents[parents == n] = -1
    return parents


def canonical_labels(labels: np.ndarray) -> np.ndarray:
    """Component labels as dyng gives them: each vertex labelled with the smallest vertex id of
    its component, whatever ids `labels` used.

    Examples
    --------
    >>> canonical_labels(np.array([7, 2, 7, 2, 5])).tolist()
    [0, 1, 0, 1, 4]
    """
    _, first, inverse = np.unique(np.asarray(labels), return_index=True, return_inverse=True)
    return first[inverse].astype(np.int64)


def assert_equal(what: str, actual: np.ndarray, expected: np.ndarray) -> None:
    """Raises VerificationError naming the first differing vertex and the count of differences."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    if actual.shape != expected.shape:
        raise VerificationError(
            f"{what}: shape {actual.shape} differs from the reference's {expected.shape}"
        )
    differ = np.flatnonzero(actual.astype(np.int64) != expected.astype(np.int64))
    if differ.size:
        v = int(differ[0])
        raise VerificationError(
            f"{what}: {differ.size} vertices differ, first vertex {v}: got "
            f"{actual[v]}, expected {expected[v]}"
        )
