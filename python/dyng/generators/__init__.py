"""Graph and batch generators.

* Seeded synthetic graphs ([`dyng.generators.graphs`][]):
  [`street_grid`][dyng.generators.graphs.street_grid] (roads with travel times),
  [`rmat`][dyng.generators.graphs.rmat] (a follower network),
  [`payments`][dyng.generators.graphs.payments] (a payment graph), and
  [`rmat_pairs`][dyng.generators.graphs.rmat_pairs] /
  [`payment_pairs`][dyng.generators.graphs.payment_pairs] to draw more of their edges.
* [`dyng.generators.legacy`][] replays the original tools' seeded generators (mospPrep's
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
