"""The demo's embedded data: three seeded graphs, made in NumPy, each standing for a graph that
users keep results current on.

* roads: a city's street grid (``side x side`` junctions) with about one block in eight missing,
  every street two-way, an integer travel time in seconds per direction;
* followers: a follower network drawn by R-MAT (a few accounts with very many followers, most with
  few), directed, unweighted;
* payments: accounts paying mostly accounts of nearby ids (a community), directed, unweighted,
  so short payment cycles exist but stay countable.

The same seed gives the same graphs on every machine (NumPy's PCG64 stream).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

__all__ = ["Sizes", "EdgeList", "sizes", "roads", "followers", "payments"]

# Quadrant probabilities of R-MAT (Graph500's a, b, c; d = 0.05).
_RMAT_ABC = (0.57, 0.19, 0.19)
_RMAT_CHUNK = 1 << 17
# Travel times of one block, seconds: from a fast avenue to a slow side street.
TRAVEL_SECONDS = (20, 120)
_MISSING_BLOCKS = 0.125
# The default size (scale 1).
ROAD_SIDE = 1000
FOLLOWER_SCALE = 20
PAYMENT_ACCOUNTS = 80000
ROAD_CLOSURES = 4
FOLLOWS = 200
PAYMENTS = 40
# How far (in ids) a payment usually goes: the community each account belongs to.
_PAYMENT_REACH = 40


@dataclasses.dataclass(frozen=True)
class Sizes:
    """How big the three graphs and their batches are; :func:`sizes` scales the default ones.

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


@dataclasses.dataclass(frozen=True)
class EdgeList:
    """A directed edge list: ``src[i] -> dst[i]`` with ``weights[i]`` (None: unweighted)."""

    num_vertices: int
    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray | None = None

    @property
    def num_edges(self):
        return int(self.src.size)


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


def roads(side, rng):
    """The street grid: junction ``r * side + c``; returns (EdgeList, blocks) where blocks is the
    (k, 2) array of two-way streets ``(u, v)``, u < v, each listed once."""
    ids = np.arange(side * side, dtype=np.int64).reshape(side, side)
    across = np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], axis=1)
    down = np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], axis=1)
    blocks = np.concatenate([across, down])
    blocks = blocks[rng.random(len(blocks)) >= _MISSING_BLOCKS]
    low, high = TRAVEL_SECONDS
    seconds = rng.integers(low, high + 1, size=len(blocks), dtype=np.int64)
    return two_way(side * side, blocks, seconds), blocks


def two_way(num_vertices, blocks, seconds):
    """Both directions of each street in `blocks`, with the same travel time."""
    src = np.concatenate([blocks[:, 0], blocks[:, 1]])
    dst = np.concatenate([blocks[:, 1], blocks[:, 0]])
    return EdgeList(num_vertices, src, dst, np.concatenate([seconds, seconds]).astype(np.int32))


def rmat_pairs(scale, count, rng):
    """`count` R-MAT (follower, followed) pairs among ``2**scale`` accounts (self-follows and
    repeats included: the caller drops them)."""
    a, b, c = _RMAT_ABC
    place = 1 << np.arange(scale - 1, -1, -1, dtype=np.int64)
    src = np.empty(count, dtype=np.int64)
    dst = np.empty(count, dtype=np.int64)
    # In chunks, so the draws (scale doubles per pair) stay a few tens of MiB.
    for begin in range(0, count, _RMAT_CHUNK):
        end = min(begin + _RMAT_CHUNK, count)
        draws = rng.random((end - begin, scale))
        src_bit = draws >= a + b
        dst_bit = ((draws >= a) & ~src_bit) | (draws >= a + b + c)
        src[begin:end] = src_bit.astype(np.int64) @ place
        dst[begin:end] = dst_bit.astype(np.int64) @ place
    return src, dst


def followers(scale, edge_factor, rng):
    """The follower network: ``edge_factor * 2**scale`` R-MAT draws, self-follows dropped and
    repeats merged."""
    n = 1 << scale
    src, dst = rmat_pairs(scale, edge_factor * n, rng)
    keys = unique_keys(src, dst, n)
    return EdgeList(n, keys // n, keys % n)


def payments(accounts, per_account, rng):
    """The payment graph: each account pays `per_account` others, mostly within its community
    (ids within ``_PAYMENT_REACH``), sometimes anyone."""
    src, dst = payment_pairs(accounts, accounts * per_account, rng)
    keys = unique_keys(src, dst, accounts)
    return EdgeList(accounts, keys // accounts, keys % accounts)


def payment_pairs(accounts, count, rng):
    """`count` (payer, payee) pairs as :func:`payments` draws them."""
    src = rng.integers(0, accounts, size=count, dtype=np.int64)
    near = (src + rng.integers(1, _PAYMENT_REACH + 1, size=count)) % accounts
    anyone = rng.integers(0, accounts, size=count, dtype=np.int64)
    dst = np.where(rng.random(count) < 0.9, near, anyone)
    return src, dst


def unique_keys(src, dst, n):
    """``src * n + dst`` of the pairs, sorted, without repeats or self-loops."""
    keys = src * n + dst
    keys = keys[src != dst]
    # Sort and compare neighbours: np.unique's hash path is several times slower on these.
    keys.sort()
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
