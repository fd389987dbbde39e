import io

import numpy as np
import pytest

from bench import generators, timing, verify


def _diamond():
    # 0 -> 1 (2), 0 -> 2 (1), 1 -> 3 (1), 2 -> 3 (2): two tight paths into 3; 4 is unreachable.
    src = np.array([0, 0, 1, 2, 4], dtype=np.int32)
    dst = np.array([1, 2, 3, 3, 0], dtype=np.int32)
    w = np.array([2, 1, 1, 2, 5], dtype=np.int32)
    return generators.EdgeGraph("diamond", 5, src, dst, w, {})


def test_scipy_distances_and_canonical_parents_on_a_tie():
    g = _diamond()
    dist = verify.as_dyng_distances(verify.scipy_distances(verify.scipy_csr(g), 0))
    assert dist.tolist() == [0, 2, 1, 3, verify.INFINITE_DISTANCE]
    assert verify.canonical_parents(g, dist, 0).tolist() == [-1, 0, 0, 1, -1]


def test_assert_equal_names_the_first_difference():
    verify.assert_equal("same", np.array([1, 2]), np.array([1, 2]))
    with pytest.raises(verify.VerificationError, match="2 vertices differ, first vertex 1"):
        verify.assert_equal("x", np.array([1, 5, 7]), np.array([1, 2, 3]))
    with pytest.raises(verify.VerificationError, match="shape"):
        verify.assert_equal("x", np.array([1]), np.array([1, 2]))


def test_run_interleaved_alternates_peers_and_times_only_run(monkeypatch):
    clock = [0.0]
    order = []
    monkeypatch.setattr(timing.time, "perf_counter", lambda: clock[0])

    def peer(name, setup_cost, run_cost):
        def setup():
            clock[0] += setup_cost
            order.append(name + ".setup")

        def run(_):
            clock[0] += run_cost
            order.append(name)
            return name

        return timing.Peer(name, setup, run)

    seen = []
    samples = timing.run_interleaved(
        [peer("a", 100.0, 0.002), peer("b", 50.0, 0.003)],
        3,
        check=lambda i, out: seen.append((i, out)),
    )
    assert [o for o in order if "." not in o] == ["a", "b"] * 4
    assert samples["a"].ms == pytest.approx([2.0] * 3)
    assert samples["b"].ms == pytest.approx([3.0] * 3)
    assert len(samples["a"].warmup_ms) == 1 and samples["b"].median_ms == pytest.approx(3.0)
    assert seen[0] == (0, {"a": "a", "b": "b"}) and len(seen) == 4


def test_a_failing_check_stops_the_run():
    def check(i, out):
        raise verify.VerificationError("wrong")

    with pytest.raises(verify.VerificationError):
        timing.run_interleaved([timing.Peer("a", lambda: 0, lambda s: s)], 2, check=check)


def test_progress_throttles_only_ticks(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(timing.time, "perf_counter", lambda: clock[0])
    stream = io.StringIO()
    progress = timing.Progress(stream, min_gap=2.0)
    progress("start")
    progress("tick 1", throttle=True)
    clock[0] = 3.0
    progress("tick 2", throttle=True)
    progress("end")
    lines = stream.getvalue().splitlines()
    assert [line.split("] ")[1] for line in lines] == ["start", "tick 2", "end"]
