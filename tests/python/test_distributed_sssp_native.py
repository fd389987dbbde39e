"""The native per-rank step of distributed sssp (``sssp_shard_*``, sssp/detail/owned_search.hpp).

One step is checked against a NumPy oracle on random shards (distances, parents, the offers to
other ranks' vertices, the active set), the owner's take of the offers against the
lowest-pair rule, and the whole protocol is replayed with several ranks'
shards in one process: every rank's step, its offers delivered to the owners with the
lowest-(distance, source) rule of ``_sssp_rounds``, until no rank has an active vertex; the
trees must equal dyng.sssp's on the whole graph bit for bit, with bucket bounds and without.
"""

from __future__ import annotations

import numpy as np
import pytest

import dyng
from dyng import _backend
from dyng.sssp import INFINITE_DISTANCE

NATIVE = _backend.native()


def random_graph(rng, n, m):
    """Edges without parallel ones (a graph keeps one of them, which the oracle would not)."""
    pairs = np.unique(rng.integers(0, n, (m, 2)), axis=0)
    return pairs[:, 0], pairs[:, 1], rng.integers(1, 5, len(pairs))  # short: many parent ties


def shard_of(src, dst, lengths, n, first, last):
    mine = (src >= first) & (src < last)
    return dyng.Graph.from_edges(src[mine], dst[mine], lengths[mine], num_vertices=n)


def oracle_step(src, dst, lengths, first, last, dist, par, seeds):
    """One step by Bellman-Ford over the owned edges: (dist, par, offers, relaxed mask)."""
    owned = (src >= first) & (src < last)
    inner = owned & (dst >= first) & (dst < last)
    final = dist.copy()
    relaxed = np.zeros(len(dist), dtype=bool)
    frontier = np.unique(seeds[dist[seeds] < INFINITE_DISTANCE])
    while len(frontier):  # relaxes from the seeds and from every vertex whose distance fell
        relaxed[frontier] = True
        edges = inner & np.isin(src, frontier + first)
        before = final.copy()
        np.minimum.at(final, dst[edges] - first, final[src[edges] - first] + lengths[edges])
        frontier = np.flatnonzero(final < before)
    from_relaxed = owned & relaxed[np.clip(src - first, 0, len(dist) - 1)]
    pairs = {v: (int(dist[v]), int(par[v])) for v in range(len(dist))}
    for i in np.flatnonzero(from_relaxed & inner):
        v = int(dst[i] - first)
        pairs[v] = min(pairs[v], (int(final[src[i] - first] + lengths[i]), int(src[i])))
    new_par = np.array([pairs[v][1] for v in range(len(dist))], np.int64)
    assert all(pairs[v][0] == final[v] for v in range(len(dist)))
    ghost = from_relaxed & ~inner
    offers = zip(
        dst[ghost].tolist(),
        (final[src[ghost] - first] + lengths[ghost]).tolist(),
        src[ghost].tolist(),
    )
    return final, new_par, sorted(offers), relaxed


@pytest.mark.parametrize("seed", range(8))
def test_one_step_matches_the_numpy_oracle(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    src, dst, lengths = random_graph(rng, n, int(rng.integers(0, 4 * n)))
    first = int(rng.integers(0, n))
    last = int(rng.integers(first + 1, n + 3))  # past n: grown elsewhere, no rows here
    count = last - first
    near = seed % 2 == 1  # seeds within max_length of 0: Dial's queue serves, else the radix heap
    dist = np.where(
        rng.random(count) < 0.5, rng.integers(0, 5 if near else 30, count), INFINITE_DISTANCE
    )
    par = np.where(dist < INFINITE_DISTANCE, rng.integers(-1, n, count), -1).astype(np.int64)
    seeds = rng.integers(0, count, int(rng.integers(0, count + 1))).astype(np.int64)
    want = oracle_step(src, dst, lengths, first, last, dist, par, seeds)
    shard = shard_of(src, dst, lengths, n, first, last)
    active = np.zeros(count, dtype=bool)
    active[seeds] = True
    got_dist, got_par = dist.astype(np.int64), par.copy()
    offers = NATIVE.sssp_shard_search(
        shard._native, 0, first, got_dist, got_par, active, INFINITE_DISTANCE, 4 if near else 0
    )
    assert got_dist.tolist() == want[0].tolist()
    assert got_par.tolist() == want[1].tolist()
    assert sorted(zip(*(o.tolist() for o in offers))) == want[2]
    seeded = np.zeros(count, dtype=bool)
    seeded[seeds] = True
    assert active.tolist() == (seeded & ~want[3]).tolist()  # settled vertices leave the set


def test_the_search_finds_seeds_at_both_ends_of_a_long_range():
    # The seeds are looked up a stretch at a time: the first and last flags of a range far
    # longer than a word are seeds, and an active vertex at the bound stays for a later round.
    n = 10_000
    src, dst, lengths = np.array([0, n - 1]), np.array([1, n - 2]), np.array([1, 1])
    shard = shard_of(src, dst, lengths, n, 0, n)
    dist, par = np.full(n, INFINITE_DISTANCE, np.int64), np.full(n, -1, np.int64)
    active = np.zeros(n, dtype=bool)
    for at, d in ((0, 0), (n // 2, 50), (n - 1, 5)):
        dist[at], active[at] = d, True
    NATIVE.sssp_shard_search(shard._native, 0, 0, dist, par, active, 50)
    assert (dist[1], par[1], dist[n - 2], par[n - 2]) == (1, 0, 6, n - 1)
    assert np.flatnonzero(active).tolist() == [n // 2]


def simulate(src, dst, lengths, n, starts, source, delta, longest):
    """The rounds of _sssp_rounds.search over len(starts) - 1 ranks in one process."""
    ranks = range(len(starts) - 1)
    shards = [shard_of(src, dst, lengths, n, starts[r], starts[r + 1]) for r in ranks]
    dist = np.full(n, INFINITE_DISTANCE, np.int64)
    par = np.full(n, -1, np.int64)
    active = np.zeros(n, dtype=bool)
    dist[source], active[source] = 0, True
    bound = 0
    while active.any():
        lowest = int(dist[active].min())
        if delta is None:
            bound = INFINITE_DISTANCE
        elif lowest >= bound:
            bound = (lowest // delta + 1) * delta
        offers = []
        for r in ranks:
            a, b = starts[r], starts[r + 1]
            view = slice(a, b)
            # Slices of contiguous arrays are contiguous: the step writes through them.
            offers.append(
                NATIVE.sssp_shard_search(
                    shards[r]._native, 0, a, dist[view], par[view], active[view], bound, longest
                )
            )
        for targets, distances, sources in offers:
            for v, d, u in zip(targets.tolist(), distances.tolist(), sources.tolist()):
                if (d, u) < (dist[v], par[v]):
                    active[v] |= d < dist[v]
                    dist[v], par[v] = d, u
    return dist, par


@pytest.mark.parametrize("ranks", [1, 2, 3, 5])
@pytest.mark.parametrize("delta", [None, 1, 3])
def test_the_rounds_over_several_shards_equal_dyng_sssp(ranks, delta):
    rng = np.random.default_rng(ranks * 10 + (delta or 0))
    for _ in range(6):
        n = int(rng.integers(ranks, 60))
        src, dst, lengths = random_graph(rng, n, int(rng.integers(0, 5 * n)))
        inner = np.sort(rng.integers(0, n + 1, ranks - 1))
        starts = [0, *inner.tolist(), n]
        source = int(rng.integers(0, n))
        longest = int(lengths.max(initial=0)) if rng.random() < 0.5 else 0
        dist, par = simulate(src, dst, lengths, n, starts, source, delta, longest)
        whole = dyng.Graph.from_edges(src, dst, lengths, num_vertices=n)
        expected = dyng.sssp.compute(whole, source)
        assert dist.tolist() == expected.distances.to_numpy().tolist()
        assert par.tolist() == expected.parents.to_numpy().tolist()


@pytest.mark.parametrize("seed", range(4))
def test_offers_keep_the_lowest_pair(seed):
    rng = np.random.default_rng(seed)
    first, count, k = 5, 12, 40
    dist = np.where(rng.random(count) < 0.5, rng.integers(0, 9, count), INFINITE_DISTANCE)
    par = np.where(dist < INFINITE_DISTANCE, rng.integers(0, 30, count), -1).astype(np.int64)
    active = rng.random(count) < 0.3
    targets = rng.integers(first, first + count, k)
    offered, sources = rng.integers(0, 9, k), rng.integers(0, 30, k)
    want = {v: (int(dist[v]), int(par[v])) for v in range(count)}
    for t, d, u in zip(targets.tolist(), offered.tolist(), sources.tolist()):
        want[t - first] = min(want[t - first], (d, u))
    lowered = [want[v][0] < dist[v] for v in range(count)]
    got_dist, got_par, got_active = dist.astype(np.int64), par.copy(), active.copy()
    NATIVE.sssp_shard_take_offers(first, got_dist, got_par, got_active, targets, offered, sources)
    assert list(zip(got_dist.tolist(), got_par.tolist())) == [want[v] for v in range(count)]
    assert got_active.tolist() == (active | np.array(lowered)).tolist()


def test_the_shard_reads():
    src, dst, lengths = [0, 0, 1, 2, 3], [1, 2, 2, 0, 0], [5, 2, 7, 1, 3]
    shard = shard_of(*(np.array(a) for a in (src, dst, lengths)), 4, 0, 2)
    assert NATIVE.sssp_shard_lengths(shard._native, 0) == (3, 14, 7, 2, 0, 2)
    # The tree 0 -> 1 -> 2 (owned), 0 -> 2 a non-tree edge, 2 -> 3 on another rank.
    parents, mask = np.array([-1, 0, 1], np.int64), np.zeros(3, bool)
    count, children, cut_parents, positions = NATIVE.sssp_shard_cut(
        shard._native, 0, parents, mask, np.array([1, 1], np.int64), 10
    )
    assert (count, mask.tolist(), children.tolist()) == (2, [False, True, True], [])
    assert sorted(positions.tolist()) == [1, 2]  # what the mask holds, listed by the walk
    mask[:] = False
    assert NATIVE.sssp_shard_cut(shard._native, 0, parents, mask, np.array([0]), 1)[0] == 1
    # The offers into 2 and 0 from the owned vertices with a distance (1's is infinite, then 5).
    plain = dyng.Graph.from_edges(
        src[:3], dst[:3], lengths[:3], num_vertices=4, store_transposed=False
    )
    for graph in (shard, plain):  # in-rows, then a scan of the out-rows
        for dist, want in (
            ([0, INFINITE_DISTANCE], [(2, 2, 0)]),
            ([0, 5], [(2, 2, 0), (2, 12, 1)]),
        ):
            offers = NATIVE.sssp_shard_offers_into(
                graph._native, 0, 0, np.array(dist, np.int64), np.array([2, 0], np.int64)
            )
            assert sorted(zip(*(a.tolist() for a in offers))) == want
    with pytest.raises(dyng.InvalidArgumentError, match="objective=1"):
        NATIVE.sssp_shard_offers_into(
            shard._native, 1, 0, np.zeros(2, np.int64), np.zeros(0, np.int64)
        )
    with pytest.raises(dyng.InvalidArgumentError, match="objective=1"):
        NATIVE.sssp_shard_lengths(shard._native, 1)
    dist, par, active = (np.zeros(2, np.int64), np.full(2, -1, np.int64), np.zeros(3, bool))
    with pytest.raises(dyng.InvalidArgumentError, match="3 active flags"):
        NATIVE.sssp_shard_search(shard._native, 0, 0, dist, par, active, 9)
    with pytest.raises(dyng.InvalidArgumentError, match="not a tree slice"):
        NATIVE.sssp_shard_search(shard._native, 0, -1, dist, par, active[:2], 9)
