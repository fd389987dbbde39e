"""Arrays that another thread writes while dyng reads them (issue 11, item 3).

dyng converts and checks every input array into a private copy before any native code runs
without the GIL, so a write made after the checks cannot reach the graph: a call either sees the
write in its copy (and refuses it, changing nothing) or does not (and applies the batch as it
was). Before the fix the checks read the caller's array and the apply read it again, so an id
made negative in between landed in the graph (check_integrity: ids outside [0, n)), or crashed.

Each test is bounded in time: a writer thread toggles one entry between a valid and an invalid
value for as long as the calls run.
"""

import threading
import time

import numpy as np
import pytest

import dyng
from dyng import sssp

ROUNDS = 8
N, M, BATCH = 20_000, 100_000, 150_000


@pytest.fixture(scope="module")
def case():
    rng = np.random.default_rng(7)
    src = rng.integers(0, N, M, dtype=np.int32)
    dst = rng.integers(0, N, M, dtype=np.int32)
    ins = (
        rng.integers(0, N, BATCH, dtype=np.int32),
        rng.integers(0, N, BATCH, dtype=np.int32),
        rng.integers(1, 100, BATCH, dtype=np.int32),
    )
    return src, dst, ins


class Toggler:
    """Flips array[position] between its value and `bad` until stopped."""

    def __init__(self, array, position, bad):
        self.array, self.position, self.bad = array, position, bad
        self.good = array[position].copy()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        a, p = self.array, self.position
        while not self.stop.is_set():
            a[p] = self.bad
            a[p] = self.good

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        self.array[self.position] = self.good


def csr_arrays(g):
    c = g.to_csr()
    return c.row_ptr, c.col_ind, c.weights


def same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def test_apply_uses_the_batch_it_checked(case):
    src, dst, (isrc, idst, iw) = case
    w = np.ones(M, np.int32)
    reference = dyng.Graph.from_edges(src, dst, w, num_vertices=N)
    reference.apply(dyng.EdgeBatch(insert=(isrc.copy(), idst.copy(), iw.copy())))
    expected = csr_arrays(reference)
    ids = idst.copy()
    outcomes = set()
    with Toggler(ids, BATCH - 1, -3):
        for _ in range(ROUNDS):
            g = dyng.Graph.from_edges(src, dst, w, num_vertices=N)
            before = csr_arrays(g)
            try:
                g.apply(dyng.EdgeBatch(insert=(isrc, ids, iw)))
                outcomes.add("applied")
                assert same(csr_arrays(g), expected)
            except dyng.InvalidArgumentError as exc:
                outcomes.add("refused")
                assert "-3" in str(exc)
                assert same(csr_arrays(g), before) and g.version == 0
            g.check_integrity()
    assert outcomes  # the loop ran


def test_update_uses_the_weights_it_checked(case):
    src, dst, (isrc, idst, iw) = case
    w = np.ones(M, np.int32)
    weights = iw.copy()
    with Toggler(weights, BATCH - 1, 0):  # weight 0 is refused by sssp
        for _ in range(ROUNDS // 2):
            g = dyng.Graph.from_edges(src, dst, w, num_vertices=N)
            r = sssp.compute(g, 0)
            try:
                sssp.update(g, dyng.EdgeBatch(insert=(isrc, idst, weights)), r)
            except dyng.InvalidArgumentError:
                assert g.version == 0 and r.graph_version == 0
                continue
            assert g.edges()[2].min() >= 1
            fresh = sssp.compute(g, 0)
            assert np.array_equal(r.distances.to_numpy(), fresh.distances.to_numpy())


def test_construction_uses_the_ids_it_checked(case):
    src, dst, _ = case
    w = np.ones(M, np.int32)
    expected = csr_arrays(dyng.Graph.from_edges(src, dst, w, num_vertices=N))
    ids = dst.copy()
    deadline = time.monotonic() + 10
    with Toggler(ids, M - 1, -4):
        for _ in range(ROUNDS):
            try:
                g = dyng.Graph.from_edges(src, ids, w, num_vertices=N)
            except dyng.InvalidArgumentError as exc:
                assert "-4" in str(exc)
                continue
            g.check_integrity()
            assert same(csr_arrays(g), expected)
            if time.monotonic() > deadline:
                break
