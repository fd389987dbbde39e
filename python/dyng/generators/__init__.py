"""Graph and batch generators.

* Seeded synthetic graphs (:mod:`dyng.generators.graphs`): :func:`street_grid` (roads with
  travel times), :func:`rmat` (a follower network), :func:`payments` (a payment graph), and
  :func:`rmat_pairs` / :func:`payment_pairs` to draw more of their edges.
* :mod:`dyng.generators.legacy` replays the original tools' seeded generators (mospPrep's
  ``changes``, CycleEnumeration-GPU's batch generator) batch for batch.

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], [3, 4, 5, 6])
>>> batch = dyng.generators.legacy.cycle_enum_batch(g, num_insertions=2, seed=4)
>>> batch.num_insertions
2
"""

from __future__ import annotations

from dyng.generators import legacy
from dyng.generators.graphs import (
    TRAVEL_SECONDS,
    EdgeList,
    StreetGrid,
    payment_pairs,
    payments,
    rmat,
    rmat_pairs,
    street_grid,
)

__all__ = [
    "EdgeList",
    "StreetGrid",
    "street_grid",
    "rmat",
    "rmat_pairs",
    "payments",
    "payment_pairs",
    "TRAVEL_SECONDS",
    "legacy",
]
