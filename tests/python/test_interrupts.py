"""Ctrl-C during updates (issue 11, item 2; issue 40).

A child process updates a result in a loop; the test sends it SIGINT while the loop runs. The
KeyboardInterrupt must surface, and afterwards the graph and the result must agree: same version,
and the result equal to a fresh compute, so the next update works. Before issue 11's fix, an
interrupt that arrived during the apply was raised before the repair: the graph moved on and the
result could never be updated again. Since issue 40 the interrupt stops the update where it is
(the apply, a repair) and the batch is taken back, graph and results together; an interrupt that
lands after the last repair is raised once the update is complete. test_interrupts_native.py
checks the timing and that nothing changed.
"""

import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest

CHILD = textwrap.dedent("""
    import json, signal, sys, time
    # A shell that starts the tests in the background leaves SIGINT ignored, and Python keeps an
    # ignored SIGINT ignored: give the child Python's own handler whatever it inherited.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.path.insert(0, {tests!r})
    import numpy as np
    import dyng
    from dyng import dynamic_bfs, sssp
    from _algorithm_examples import answer as arrays

    rng = np.random.default_rng(5)
    n, m = 200_000, 1_000_000
    g = dyng.Graph.from_edges(rng.integers(0, n, m, dtype=np.int32),
                              rng.integers(0, n, m, dtype=np.int32),
                              rng.integers(1, 50, m, dtype=np.int32), num_vertices=n)
    algorithms = [{algorithms}]
    results = [a.compute(g, 0) for a in algorithms]
    k = 100_000
    print("ready", flush=True)
    interrupted = False
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            src, dst, _ = g.edges()
            pick = rng.integers(0, len(src), k)
            batch = dyng.EdgeBatch(
                insert=(rng.integers(0, n, k, dtype=np.int32),
                        rng.integers(0, n, k, dtype=np.int32),
                        rng.integers(1, 50, k, dtype=np.int32)),
                delete=(src[pick], dst[pick]))
            {call}
    except KeyboardInterrupt:
        interrupted = True
    report = {{"interrupted": interrupted, "graph": g.version,
               "results": [r.graph_version for r in results]}}
    report["equal"] = all(
        all(np.array_equal(x, y) for x, y in zip(arrays(r), arrays(a.compute(g, 0))))
        for a, r in zip(algorithms, results))
    dyng.update(g, dyng.EdgeBatch(insert=([0], [1], [1])), *results)  # the next update works
    report["next"] = [r.graph_version for r in results]
    print(json.dumps(report), flush=True)
""")

TESTS = pathlib.Path(__file__).resolve().parent  # the child imports _algorithm_examples

# entry: (algorithms the child keeps, the update call of one loop round)
ENTRIES = {
    "dyng_update": ("sssp, dynamic_bfs", "dyng.update(g, batch, *results)"),
    "sssp_update": ("sssp", "sssp.update(g, batch, results[0])"),
}


def run_child(algorithms, call, delay):
    code = CHILD.format(algorithms=algorithms, call=call, tests=str(TESTS))
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "OMP_NUM_THREADS": "2"},
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, out
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child needs POSIX signals")
@pytest.mark.parametrize("entry", sorted(ENTRIES))
@pytest.mark.parametrize("delay", [0.35, 0.8])
def test_interrupted_update_leaves_graph_and_results_in_step(entry, delay):
    report = run_child(*ENTRIES[entry], delay)
    assert report["interrupted"], "the KeyboardInterrupt did not surface"
    assert all(v == report["graph"] for v in report["results"]), report
    assert report["equal"], report
    assert all(v == report["graph"] + 1 for v in report["next"]), report
