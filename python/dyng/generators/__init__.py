"""Batch generators. [`dyng.generators.legacy`][] replays the original tools' seeded generators
(mospPrep's ``changes``, CycleEnumeration-GPU's batch generator) batch for batch.

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

__all__ = ["legacy"]
