"""The child process of the Ctrl-C tests (test_interrupts*.py): it runs long native calls that
its parent interrupts, and reports what it saw on stdout.

Protocol: before each call the parent is to interrupt, the child prints ``go <tag> <seconds>``
(how long the same call took uninterrupted, or 0 where it was not timed) and flushes; the parent
then waits its delay and sends SIGINT. The child prints ``caught <tag> <time>`` (its
time.monotonic(), on the clock the parent's reads: CLOCK_MONOTONIC) when KeyboardInterrupt
reaches it, ``done <tag>`` when the call ends without one, and ``report <json>`` last.

Usage: python _interrupt_child.py '<json spec>', the spec naming a scenario (SCENARIOS) and its
arguments; `scale` 1 is the default suite's size, 2 the long run's (DYNG_LONG_INTERRUPT_TESTS=1),
in which every interrupted call would take seconds.
"""

import json
import signal
import sys
import threading
import time

# A shell that starts the tests in the background leaves SIGINT ignored, and Python keeps an
# ignored SIGINT ignored: give the child Python's own handler whatever it inherited.
signal.signal(signal.SIGINT, signal.default_int_handler)

import numpy as np  # noqa: E402
from _algorithm_examples import answer  # noqa: E402

import dyng  # noqa: E402

SPEC = json.loads(sys.argv[1])
SCALE = SPEC.get("scale", 1)
REPORT = {}


def say(*words):
    print(*words, flush=True)


def timed(call):
    start = time.monotonic()
    value = call()
    return value, time.monotonic() - start


def interrupted_call(tag, call, seconds=0.0, signal_follows=False):
    """Runs call() for the parent to interrupt; returns its value, or None when it was stopped.
    With `signal_follows`, a call that ended first waits for the parent's SIGINT (which Python's
    handler turns into KeyboardInterrupt), so that it cannot land in the code after it; a SIGINT
    that lands between the call's end and that wait (on the "done" line) is that same signal."""
    say("go", tag, repr(seconds))
    finished = announced = False
    try:
        value = call()
        finished = True
        say("done", tag)
        announced = True
        if signal_follows:
            time.sleep(30)
    except KeyboardInterrupt:
        if not finished:
            say("caught", tag, repr(time.monotonic()))
            return None
        if not signal_follows:
            raise
        if not announced:
            say("done", tag)  # at worst twice; the parent reads both as the same end
    return value


def backends():
    """The spec's backends (default: both host backends), by name."""
    make = {
        "sequential": dyng.Resources.sequential,
        "openmp": lambda: dyng.Resources.openmp(2),
        "cuda": dyng.Resources.cuda,
    }
    return {name: make[name]() for name in SPEC.get("backends", ["sequential", "openmp"])}


def complete_digraph(n):
    src, dst = np.nonzero(~np.eye(n, dtype=bool))
    return dyng.Graph.from_edges(src.astype(np.int32), dst.astype(np.int32))


def complete_graph(n):
    upper = np.triu_indices(n, 1)
    return dyng.Graph.from_edges(
        upper[0].astype(np.int32), upper[1].astype(np.int32), directed=False
    )


def cycle_graph_size(res):
    """The smallest complete digraph whose unbounded count should take some tenths of a second
    (four seconds in the long run): the count grows about n-fold with the n-th vertex, so it is predicted from
    K_9's (the counting's speed is not this test's to assume)."""
    dyng.cycle_count.compute(complete_digraph(4), resources=res)  # one-time costs
    _, seconds = timed(lambda: dyng.cycle_count.compute(complete_digraph(9), resources=res))
    n = 9
    while seconds < (0.4 if SCALE == 1 else 4.0) and n < 14:
        n += 1
        seconds *= n
    return n


def random_graph(n, m, k, seed):
    rng = np.random.default_rng(seed)
    weights = rng.integers(1, 100, (m, k) if k > 1 else m, dtype=np.int32)
    return dyng.Graph.from_edges(
        rng.integers(0, n, m, dtype=np.int32),
        rng.integers(0, n, m, dtype=np.int32),
        weights,
        num_vertices=n,
    )


def random_batch(graph, changes, seed):
    """Deletes `changes` stored edges and, on a directed graph, inserts as many new ones."""
    rng = np.random.default_rng(seed)
    src, dst, _ = graph.edges()
    pick = rng.choice(len(src), changes, replace=False)
    if not graph.directed:
        return dyng.EdgeBatch(delete=(src[pick], dst[pick]))
    n, k = graph.num_vertices, graph.num_weights
    ins_src = rng.integers(0, n, changes, dtype=np.int32)
    ins_dst = ((ins_src + rng.integers(1, n, changes)) % n).astype(np.int32)
    weights = rng.integers(1, 100, (changes, k) if k > 1 else changes, dtype=np.int32)
    return dyng.EdgeBatch(insert=(ins_src, ins_dst, weights), delete=(src[pick], dst[pick]))


class Case:
    """What an algorithm's test runs on: a graph whose compute takes long; a batch whose update
    of `copies` results takes long (each repair sent to a recompute, or, for cycles, a path of
    edges of a dense digraph, whose cycles are counted edge by edge); a small compute with a
    known answer, or None to compare with the first compute; and whether a compute is cheap
    enough to check the next update against. A result's answer is its arrays
    (_algorithm_examples.answer). Each registered algorithm has a method ``_<name>`` here; one
    without fails, naming it."""

    def __init__(self, algorithm, res):
        self.algorithm = algorithm
        self.known = None
        self.cheap = False
        self.answer = answer
        self.update_like_compute = True  # an update past its budget gives a compute's bits
        build = getattr(self, f"_{algorithm}", None)
        if build is None:
            raise LookupError(
                f"_interrupt_child.py has no case for the registered algorithm "
                f"{algorithm!r}; add Case._{algorithm}"
            )
        build(res)

    def _cycle_count(self, res):
        n = cycle_graph_size(res)
        self.graph = complete_digraph(n)
        self.compute = lambda g, res: dyng.cycle_count.compute(g, resources=res)
        # The cycles through each deleted edge are searched one edge after another.
        self.batch = dyng.EdgeBatch(delete=(np.arange(n - 1), np.arange(1, n)))
        self.copies = 1
        # K_6 has 6! / ((6 - k)! k) cycles of length k.
        self.known = (
            lambda res: dyng.cycle_count.compute(
                complete_digraph(6), resources=res
            ).counts.tolist(),
            [0, 0, 15, 40, 90, 144, 120],
        )

    def _triangle_delta(self, res):
        n = 1300 if SCALE == 1 else 4000
        self.graph = complete_graph(n)
        self.compute = lambda g, res: dyng.triangle_delta.compute(g, resources=res)
        self.batch = random_batch(self.graph, 40 * n, 3)
        self.copies = 2
        self.known = (
            lambda res: int(dyng.triangle_delta.compute(complete_graph(40), resources=res).count),
            40 * 39 * 38 // 6,
        )

    def _mosp(self, res):
        k = 6 if SCALE == 1 else 48
        self.graph = random_graph(100_000, 800_000, k, 1)
        self.compute = lambda g, res: dyng.mosp.compute(g, 0, resources=res)
        self.batch = random_batch(self.graph, 20_000, 2)
        self.copies = 2

    def _linear_search(self, module, grow=1):
        """sssp, dynamic_bfs: a linear search takes seconds only on a very large graph; a compute
        takes a fraction of a second (`grow` times the graph for a faster search)."""
        n, m = (500_000 * grow, 4_000_000 * grow) if SCALE == 1 else (8_000_000, 96_000_000)
        self.graph = random_graph(n, m, 1, 1)
        self.compute = lambda g, res: module.compute(g, 0, resources=res)
        self.batch = random_batch(self.graph, m // 50, 2)
        self.copies = 4
        self.cheap = True

    def _sssp(self, res):
        self._linear_search(dyng.sssp)

    def _dynamic_bfs(self, res):
        # A BFS on two threads took about 20 ms on the default graph, too short to tell a stop
        # from the end once the signal comes a fifth into it.
        self._linear_search(dyng.dynamic_bfs, grow=2)

    def _components(self, res):
        """Weak components: union-find reads every edge once, so only a very large graph takes
        seconds; the batch's deletions of a random graph's edges send each repair past its
        budget to a recompute."""
        n, m = (1_000_000, 8_000_000) if SCALE == 1 else (8_000_000, 96_000_000)
        self.graph = random_graph(n, m, 1, 1)
        self.compute = lambda g, res: dyng.components.compute(g, resources=res)
        self.batch = random_batch(self.graph, m // 50, 2)
        self.copies = 4
        self.cheap = True

    def _pagerank(self, res):
        """PageRank at a tolerance no iteration reaches, so a compute runs max_iter iterations,
        each reading every edge; an update does not converge either and falls back to full
        iterations from the previous ranks (a warm start, so not a compute's bits)."""
        n, m = (500_000, 4_000_000) if SCALE == 1 else (8_000_000, 96_000_000)
        self.graph = random_graph(n, m, 1, 1)
        self.compute = lambda g, res: dyng.pagerank.compute(
            g, tol=1e-300, max_iter=40, resources=res
        )
        self.batch = random_batch(self.graph, m // 50, 2)
        self.copies = 4
        self.cheap = True
        self.update_like_compute = False


def same(a, b):
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def graph_state(graph):
    src, dst, weights = graph.edges()
    return [np.array([graph.version]), src, dst, weights]


def scenario_algorithm():
    """For each host backend: a compute, interrupted, and the next compute's answer; an update of
    several results, interrupted, and the graph and every result after it."""
    chosen = backends()
    case = Case(SPEC["algorithm"], next(iter(chosen.values())))
    for name, res in chosen.items():
        graph = case.graph.clone(res)  # on the device for CUDA
        reference, seconds = timed(lambda: case.compute(graph, res))
        entry = REPORT.setdefault(name, {})
        stopped = interrupted_call(
            f"{name}-compute", lambda: case.compute(graph, res), seconds, signal_follows=True
        )
        entry["compute_stopped"] = stopped is None
        if case.known is not None:
            entry["next_compute_right"] = case.known[0](res) == case.known[1]
        else:
            entry["next_compute_right"] = same(
                case.answer(case.compute(graph, res)), case.answer(reference)
            )
        results = [reference] + [reference.clone() for _ in range(case.copies - 1)]
        before = graph_state(graph), [case.answer(r) for r in results]
        versions = [r.graph_version for r in results]
        # A result the interrupted update never touches, when an update's answer is not a
        # compute's: the next update of both must then agree bit for bit.
        twin = None if case.update_like_compute else reference.clone()
        # The update repairs several results, each about a compute: the parent's delay, from
        # the compute's time, lands in its first part.
        updated = interrupted_call(
            f"{name}-update",
            lambda: dyng.update(graph, case.batch, *results),
            seconds,
            signal_follows=True,
        )
        entry["update_stopped"] = updated is None
        entry["update_completed"] = bool(
            graph.version == before[0][0][0] + 1
            and all(r.graph_version == graph.version for r in results)
        )
        entry["graph_as_before"] = same(graph_state(graph), before[0])
        entry["results_as_before"] = (
            all(same(case.answer(r), a) for r, a in zip(results, before[1]))
            and [r.graph_version for r in results] == versions
        )
        graph.check_integrity()
        if case.cheap and twin is not None:
            # The batch then goes through, as it does for a result it never stopped on.
            dyng.update(graph, case.batch, results[0], twin)
            entry["next_update_right"] = same(case.answer(results[0]), case.answer(twin))
        elif case.cheap:
            # The batch then goes through, and the result is what a compute gives.
            dyng.update(graph, case.batch, results[0])
            entry["next_update_right"] = same(
                case.answer(results[0]), case.answer(case.compute(graph, res))
            )
    say("report", json.dumps(REPORT))


def scenario_signal_handlers():
    """A triangle count of a few tenths of a second, interrupted under other signal setups: a Python
    handler that returns, on each backend (it must run while the call runs, and the call still
    gives the right answer); a compute on another thread (KeyboardInterrupt goes to the main
    thread, as Python has it, and the compute is not stopped); SIGINT ignored (nothing stops)."""
    n = 1200 if SCALE == 1 else 4000
    graph = complete_graph(n)
    expected = n * (n - 1) * (n - 2) // 6
    for name, res in backends().items():
        count, seconds = timed(lambda: int(dyng.triangle_delta.compute(graph, resources=res).count))
        handled = []
        signal.signal(signal.SIGINT, lambda signum, frame: handled.append(time.monotonic()))
        count = interrupted_call(
            f"handler-{name}",
            lambda: int(dyng.triangle_delta.compute(graph, resources=res).count),
            seconds,
        )
        signal.signal(signal.SIGINT, signal.default_int_handler)
        REPORT[f"handler-{name}"] = {"handled": handled, "right": count == expected}

    # The last host backend timed above (`res`, `seconds`): the default resources may be a GPU,
    # which would end the count long before the signal comes.
    def work():
        try:
            outcome["count"] = int(dyng.triangle_delta.compute(graph, resources=res).count)
        except BaseException as error:  # reported, so the test can say what went wrong
            outcome["error"] = repr(error)
        finally:
            finished.set()

    outcome, finished = {}, threading.Event()
    worker = threading.Thread(target=work)
    worker.start()
    say("go", "thread", repr(seconds))
    caught = None
    # An Event, not worker.join(): Python 3.12's join, interrupted by KeyboardInterrupt, can report
    # a thread that still runs as ended.
    while not finished.is_set():
        try:
            finished.wait(0.01)
        except KeyboardInterrupt:
            caught = time.monotonic()
    worker.join()
    REPORT["thread"] = {
        "caught": caught,
        "right": outcome.get("count") == expected,
        "error": outcome.get("error"),
        "count": outcome.get("count"),
        "expected": expected,
    }

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    count = interrupted_call(
        "ignored", lambda: int(dyng.triangle_delta.compute(graph, resources=res).count), seconds
    )
    REPORT["ignored"] = {"right": count == expected}
    say("report", json.dumps(REPORT))


SCENARIOS = {"algorithm": scenario_algorithm, "signal_handlers": scenario_signal_handlers}

if __name__ == "__main__":
    SCENARIOS[SPEC["scenario"]]()
