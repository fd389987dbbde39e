"""What generic tests need to run each registered algorithm, in one place, keyed by the registry.

Tests that cover "every algorithm" iterate ``dyng._registry.ALGORITHM_MODULES`` and ask here for
the algorithm's specifics: a small graph it takes, how to compute a result on it (a source or
not), a batch, the profile stages a compute and an update record, and the arrays that make a
result's answer. :func:`example` fails loudly for a registered algorithm without an entry, so a
new algorithm cannot be skipped silently: its entry goes here with its own tests. (The long calls
the Ctrl-C tests interrupt are in _interrupt_child.py, ``Case``, which fails the same way.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

import dyng


def weighted_graph(resources, k=1, n=60, m=300, seed=3, **kw):
    """A random directed graph with `k` weights per edge (1..8)."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    w = rng.integers(1, 9, (m, k)).astype(np.int32)
    return dyng.Graph.from_edges(
        src, dst, w if k > 1 else w[:, 0], num_vertices=n, resources=resources, **kw
    )


def small_undirected_graph(resources):
    """Two triangles sharing the edge (0, 1), and vertex 4 alone: undirected, simple, sorted."""
    return dyng.Graph.from_edges(
        [0, 1, 2, 0, 3], [1, 2, 0, 3, 1], num_vertices=5, directed=False, resources=resources
    )


@dataclasses.dataclass(frozen=True)
class Example:
    """One algorithm's small example.

    Attributes
    ----------
    graph : callable(resources) -> Graph
    compute : callable(module, graph) -> Result
    batch : callable() -> EdgeBatch
        A batch the graph takes (weights as the graph has them).
    stages : dict of str to tuple of str
        Stages the compute and the update record together, by backend family ("host", "cuda"),
        besides ``<algorithm>.compute`` and ``<algorithm>.update``.
    answer : callable(result) -> list of numpy arrays
        What a result says: two results with equal answers are equal.
    """

    graph: Callable
    compute: Callable
    batch: Callable
    stages: dict
    answer: Callable

    def run(self, module, graph):
        """A result of `graph` (the example's) computed, then updated with the example's batch."""
        result = self.compute(module, graph)
        module.update(graph, self.batch(), result)
        return result


def _source_zero(module, graph):
    return module.compute(graph, 0)


EXAMPLES = {
    "sssp": Example(
        graph=weighted_graph,
        compute=_source_zero,
        batch=lambda: dyng.EdgeBatch(insert=([1, 2], [5, 6], [1, 2]), delete=([0], [1])),
        stages={
            "host": ("sssp.reset", "sssp.loop", "sssp.finalize", "sssp.repair", "graph.apply"),
            "cuda": ("sssp.loop", "sssp.repair", "graph.apply"),
        },
        answer=lambda r: [r.distances.to_numpy(), r.parents.to_numpy()],
    ),
    "cycle_count": Example(
        graph=lambda res: weighted_graph(res, properties="cycle_enum_compatible"),
        compute=lambda module, g: module.compute(g, max_length=4),
        batch=lambda: dyng.EdgeBatch(insert=([3], [7], [1])),
        stages={
            "host": (
                "cycle_count.count",
                "cycle_count.repair",
                "cycle_count.count_batch",
                "graph.apply",
            ),
            "cuda": ("cycle_count.count", "cycle_count.count_batch", "graph.apply"),
        },
        answer=lambda r: [r.counts.to_numpy()],
    ),
    "mosp": Example(
        graph=lambda res: weighted_graph(res, k=3, properties="mosp_compatible"),
        compute=_source_zero,
        batch=lambda: dyng.EdgeBatch(insert=([3], [7], [[1, 2, 3]])),
        stages={
            "host": (
                "mosp.objective",
                "mosp.combine",
                "mosp.combined_sssp",
                "mosp.path_costs",
                "mosp.repair",
                "mosp.combined_layout",
                "graph.apply",
            ),
            "cuda": (
                "mosp.objectives",
                "mosp.combine",
                "mosp.combined_sssp",
                "mosp.path_costs",
                "mosp.repair",
                "mosp.objective",
                "sssp.repair",
                "graph.apply",
            ),
        },
        answer=lambda r: (
            [
                r.combined_distances.to_numpy(),
                r.combined_parents.to_numpy(),
                r.path_costs.to_numpy(),
            ]
            + [r.distances(i).to_numpy() for i in range(r.num_objectives)]
            + [r.parents(i).to_numpy() for i in range(r.num_objectives)]
        ),
    ),
    "dynamic_bfs": Example(
        graph=weighted_graph,
        compute=_source_zero,
        batch=lambda: dyng.EdgeBatch(insert=([3], [7], [1]), delete=([0], [1])),
        stages={
            "host": ("dynamic_bfs.loop", "dynamic_bfs.repair", "graph.apply"),
            "cuda": ("dynamic_bfs.loop", "dynamic_bfs.repair", "graph.apply"),
        },
        answer=lambda r: [r.levels.to_numpy()],
    ),
    "triangle_delta": Example(
        graph=small_undirected_graph,
        compute=lambda module, g: module.compute(g),
        batch=lambda: dyng.EdgeBatch(insert=([2], [3])),
        stages={
            "host": ("triangle_delta.count", "triangle_delta.count_batch", "graph.apply"),
            "cuda": ("triangle_delta.count", "triangle_delta.count_batch", "graph.apply"),
        },
        answer=lambda r: [np.array([r.count])],
    ),
    "components": Example(
        graph=lambda res: weighted_graph(res, m=70),
        compute=lambda module, g: module.compute(g),
        batch=lambda: dyng.EdgeBatch(insert=([3], [7], [1]), delete=([0], [1])),
        stages={
            "host": (
                "components.union_find",
                "components.split",
                "components.merge",
                "components.repair",
                "graph.apply",
            ),
            "cuda": ("components.afforest", "components.repair", "graph.apply"),
        },
        answer=lambda r: [r.labels.to_numpy(), r.sizes.to_numpy(), np.array([r.count])],
    ),
    "pagerank": Example(
        graph=weighted_graph,
        compute=lambda module, g: module.compute(g),
        batch=lambda: dyng.EdgeBatch(insert=([3], [7], [1]), delete=([0], [1])),
        stages={
            "host": ("pagerank.iterate", "pagerank.frontier", "pagerank.repair", "graph.apply"),
            "cuda": ("pagerank.iterate", "pagerank.frontier", "pagerank.repair", "graph.apply"),
        },
        answer=lambda r: [r.ranks.to_numpy(), np.array([r.iterations, r.residual])],
    ),
}


def example(name) -> Example:
    """The example of registered algorithm `name`; fails naming this file when it has none."""
    found = EXAMPLES.get(name)
    if found is None:
        raise LookupError(
            f"tests/python/_algorithm_examples.py has no example for the registered "
            f"algorithm {name!r}; add one to EXAMPLES"
        )
    return found


def answer(result) -> tuple:
    """The arrays that make `result`'s answer (by its algorithm's example)."""
    return tuple(example(result._ALGORITHM.name).answer(result))
