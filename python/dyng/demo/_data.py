"""The sizes of the demo's embedded data: three seeded graphs made by ``dyng.generators.graphs``
(a street grid with travel times, an R-MAT follower network, a payment graph), each standing for
a graph that users keep results current on, and the sizes of the batches streamed into them.

The same seed gives the same graphs on every machine (NumPy's PCG64 stream).
"""

from __future__ import annotations

import dataclasses
import math

__all__ = ["Sizes", "sizes"]

# The default size (scale 1).
ROAD_SIDE = 1000
FOLLOWER_SCALE = 20
PAYMENT_ACCOUNTS = 80000
ROAD_CLOSURES = 4
FOLLOWS = 200
PAYMENTS = 40


@dataclasses.dataclass(frozen=True)
class Sizes:
    """How big the three graphs and their batches are; ``sizes`` scales the default ones.

    A batch closes `road_closures` streets (and opens those closed two batches before), changes
    the travel time of ``3 * road_closures`` others, and adds and removes `follows` follows and
    `payments` payments.
    """

    road_side: int
    follower_scale: int
    follower_edge_factor: int
    payment_accounts: int
    payments_per_account: int
    road_closures: int
    follows: int
    payments: int

    def describe(self):
        return (
            f"roads {self.road_side}x{self.road_side} junctions, followers R-MAT scale "
            f"{self.follower_scale}, payments among {self.payment_accounts} accounts"
        )

    def describe_batch(self):
        return (
            f"street closures {self.road_closures}, travel-time changes "
            f"{3 * self.road_closures}, follows and unfollows {self.follows} each, new and "
            f"expired payments {self.payments} each"
        )


def sizes(scale):
    """The graph and batch sizes for `scale` (1.0: the default);
    every graph's edge count grows about linearly with it, the batches as its square root."""
    root = math.sqrt(scale)
    return Sizes(
        road_side=max(4, round(ROAD_SIDE * root)),
        follower_scale=max(4, round(FOLLOWER_SCALE + math.log2(scale))),
        follower_edge_factor=8,
        payment_accounts=max(50, round(PAYMENT_ACCOUNTS * scale)),
        payments_per_account=2,
        road_closures=max(1, round(ROAD_CLOSURES * root)),
        follows=max(1, round(FOLLOWS * root)),
        payments=max(1, round(PAYMENTS * root)),
    )
