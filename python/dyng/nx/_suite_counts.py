"""How many of NetworkX's own tests ran through dyng, and how they ended (ci/nx_suite.sh).

Counting honestly means counting tests in which a dyng function actually ran, not tests of
functions dyng implements: with ``NETWORKX_TEST_BACKEND=dyng`` a test may call such a function
with arguments dyng refuses (NetworkX then runs it), and a test of another function may reach
dyng through NetworkX's own code (``dijkstra_path`` calls ``single_source_dijkstra``).

With ``DYNG_NX_SUITE_COUNTS=<folder>`` set, every dyng function that runs writes the id of the
current pytest test (``PYTEST_CURRENT_TEST``) to ``<folder>/calls-<pid>.tsv``. Loaded as a
pytest plugin (``-p dyng.nx._suite_counts``), this module also writes every test's outcome to
``<folder>/outcomes-<pid>.tsv``, and can_run writes each refusal with its reason to
``refusals-<pid>.tsv``; ``python -m dyng.nx._suite_counts <folder>`` joins them and prints the
counts. Without the variable nothing is written.
"""

from __future__ import annotations

import collections
import os
import re
import sys
from pathlib import Path

__all__ = ["note_call", "summarize", "main"]

_VARIABLE = "DYNG_NX_SUITE_COUNTS"
_is_worker = False  # under pytest-xdist the controller writes the outcomes, workers the calls


def _folder():
    folder = os.environ.get(_VARIABLE)
    return Path(folder) if folder else None


def _append(kind, fields):
    folder = _folder()
    if folder is None:
        return
    with open(folder / f"{kind}-{os.getpid()}.tsv", "a", encoding="utf-8") as out:
        out.write("\t".join(fields) + "\n")


def _current_test():
    current = os.environ.get("PYTEST_CURRENT_TEST", "")
    return current.rsplit(" (", 1)[0] if current.endswith(")") else current


def note_call(function):
    """Records that `function` ran on dyng (in the pytest test running now, if any)."""
    if _folder() is not None:
        _append("calls", (_current_test(), function))


def note_refusal(function, reason):
    """Records that can_run refused `function`, and why (NetworkX then ran it)."""
    if _folder() is not None:
        _append("refusals", (_current_test(), function, " ".join(str(reason).split())))


def pytest_configure(config):
    global _is_worker
    _is_worker = hasattr(config, "workerinput")


def pytest_runtest_logreport(report):
    if _is_worker:
        return
    # wasxfail holds the reason (possibly empty): keep a mark that survives an empty one.
    xfail = (
        "xfail: " + " ".join(str(report.wasxfail).split()) if hasattr(report, "wasxfail") else ""
    )
    _append("outcomes", (report.nodeid, report.when, report.outcome, xfail))


def _read(folder, kind):
    rows = []
    for path in sorted(folder.glob(f"{kind}-*.tsv")):
        rows += [line.rstrip("\n").split("\t") for line in path.read_text().splitlines()]
    return rows


def _outcome(reports):
    """One test's outcome from its (when, outcome, xfail) reports."""
    if any(outcome == "failed" and not xfail for _, outcome, xfail in reports):
        return "failed"
    calls = [(outcome, xfail) for when, outcome, xfail in reports if when == "call"]
    if calls and calls[0] == ("passed", ""):
        return "passed"
    if any(xfail for _, _, xfail in reports):
        return "xpassed" if calls and calls[0][0] == "passed" else "xfailed"
    return "skipped"


def summarize(folder):
    """(text, number of tests that ran through dyng and failed)."""
    folder = Path(folder)
    reports = collections.defaultdict(list)
    for test, when, outcome, xfail in _read(folder, "outcomes"):
        reports[test].append((when, outcome, xfail))
    outcomes = {test: _outcome(r) for test, r in reports.items()}
    xfail_reasons = {test: next((x for _, _, x in r if x), "") for test, r in reports.items()}
    calls = _read(folder, "calls")
    through = {test for test, _ in calls if test in outcomes}
    by_outcome = collections.Counter(outcomes[test] for test in through)
    everywhere = collections.Counter(outcomes.values())
    per_function = collections.Counter(function for _, function in calls)
    lines = [
        f"NetworkX tests run: {len(outcomes)} ({_counts(everywhere)})",
        f"ran through dyng: {len(through)} ({_counts(by_outcome)})",
        "dyng calls by function: "
        + ", ".join(f"{name} {count}" for name, count in sorted(per_function.items())),
    ]
    refusals = collections.Counter(
        (function, _gist(reason))
        for test, function, reason in _read(folder, "refusals")
        if test in outcomes and test not in through
    )
    if refusals:
        lines.append(
            "calls of dyng's functions NetworkX ran itself, in tests that never reached "
            "dyng (function: can_run's reason, calls):"
        )
        lines += [
            f"  {function}: {reason} ({count})"
            for (function, reason), count in refusals.most_common()
        ]
    xfailed = collections.Counter(
        xfail_reasons[test][len("xfail: ") :] or "(no reason given)"
        for test in through
        if outcomes[test] == "xfailed"
    )
    if xfailed:
        lines.append("xfailed through dyng (NetworkX's own marks; reason, tests):")
        lines += [f"  {reason} ({count})" for reason, count in xfailed.most_common()]
    failed = sorted(test for test in through if outcomes[test] == "failed")
    lines += [f"FAILED through dyng: {test}" for test in failed]
    others = sorted(
        test for test, outcome in outcomes.items() if outcome == "failed" and test not in through
    )
    lines += [f"failed without dyng: {test}" for test in others]
    return "\n".join(lines), len(failed)


def _gist(reason):
    """A reason without what differs from call to call (the edge and its weight)."""
    head = reason.split("; ")[0]
    if head.startswith("edge ("):
        return "an edge weight " + head.rsplit(", ", 1)[-1]
    return re.sub(r"\d+", "N", head)


def _counts(counter):
    order = ("passed", "failed", "xfailed", "xpassed", "skipped")
    return ", ".join(f"{name} {counter[name]}" for name in order if counter[name]) or "none"


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not Path(args[0]).is_dir():
        print(
            f"usage: python -m dyng.nx._suite_counts <folder written with {_VARIABLE}=<folder>>",
            file=sys.stderr,
        )
        return 2
    text, failed = summarize(args[0])
    print(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
