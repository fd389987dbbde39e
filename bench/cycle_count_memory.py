"""Time and peak memory of counting every cycle (``cycle_count.compute`` without max_length),
this dyng beside peers such as dyng 0.2.0 (issue 40: memory in proportion to the graph, not to
the number of cycles).

    .venv/bin/python -m bench.cycle_count_memory --peer 0.2.0=/work/venv020/bin/python
    .venv/bin/python -m bench.cycle_count_memory --complete 10,11 --sparse 40:120 --threads 2

Cases: the complete digraph K_n for each n of ``--complete`` (C(n, l) (l - 1)! cycles of length
l), and a random digraph for each ``N:M`` of ``--sparse`` (M distinct edges drawn uniformly,
seed 5), on ``Resources.sequential()`` and ``Resources.openmp(num_threads=--threads)``. Each
count runs in a fresh process (``bench.peer.run_worker``), the dyngs taking turns per case for
``--rounds`` rounds, and reports its wall time (best of the rounds), its process's peak RSS
(``ru_maxrss``: interpreter, NumPy and the graph included; the highest of the rounds) and its RSS
before the count; the counts of every dyng must agree. With
``--memory-cap-mib`` a count runs under an address-space limit that many MiB above the process's
size before it, and a count that needs more shows as ``out of memory``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from bench import peer

WORKER = r"""
import json, resource, sys, time
import numpy as np
import dyng

kind, n, m, backend, threads, cap_mib = sys.argv[1], *map(int, sys.argv[2:4]), sys.argv[4], \
    *map(int, sys.argv[5:7])
if kind == "complete":
    u, v = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    src, dst = u[u != v], v[u != v]
else:
    rng = np.random.default_rng(5)
    keys = np.unique(rng.integers(0, n, 2 * m) * n + rng.integers(0, n, 2 * m))
    keys = keys[keys // n != keys % n]
    keys = np.sort(rng.permutation(keys)[:m])
    src, dst = keys // n, keys % n
res = (dyng.Resources.sequential() if backend == "sequential"
       else dyng.Resources.openmp(num_threads=threads))
g = dyng.Graph.from_edges(src.astype(np.int32), dst.astype(np.int32), num_vertices=n,
                          properties="cycle_enum_compatible", resources=res)

def status(field):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))

rss_before = status("VmRSS") / 1024
if cap_mib > 0:
    limit = (status("VmSize") << 10) + (cap_mib << 20)
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
doc = {"dyng": dyng.__version__, "edges": int(len(src)), "rss_before_mib": rss_before}
t = time.perf_counter()
try:
    r = dyng.cycle_count.compute(g, resources=res)
    doc["seconds"] = time.perf_counter() - t
    doc["counts"] = [int(c) for c in np.asarray(r.counts.to_numpy())]
except MemoryError:  # dyng.OutOfMemoryError derives from it
    doc["seconds"] = time.perf_counter() - t
    doc["error"] = "out of memory"
doc["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(doc))
"""


@contextlib.contextmanager
def _extra_path(path: str | None):
    """PYTHONPATH with `path` in front for the children started inside (a peer's build)."""
    before = os.environ.get("PYTHONPATH")
    if path:
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (path, before) if p)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before


def _parse_peer(text: str) -> tuple[str, str, str | None]:
    label, _, rest = text.partition("=")
    python, _, path = rest.partition("@")
    if not label or not python:
        raise argparse.ArgumentTypeError(f"--peer {text!r}: expected LABEL=PYTHON[@PATH]")
    return label, python, path or None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.cycle_count_memory", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--complete",
        default="10,11,12,13",
        help="sizes n of the complete digraphs (default 10,11,12,13)",
    )
    parser.add_argument(
        "--sparse", default="60:150", help="N:M random digraphs, comma-separated (default 60:150)"
    )
    parser.add_argument("--threads", type=int, default=2, help="OpenMP threads (default 2)")
    parser.add_argument("--backends", default="sequential,openmp")
    parser.add_argument(
        "--peer",
        action="append",
        type=_parse_peer,
        default=[],
        help="LABEL=PYTHON[@PATH]: another dyng, run by PYTHON with PATH in "
        "front of PYTHONPATH (repeatable)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="runs per count, the dyngs taking turns; best time kept (default 1)",
    )
    parser.add_argument(
        "--memory-cap-mib",
        type=int,
        default=0,
        help="address-space headroom of each count, MiB (default: none)",
    )
    args = parser.parse_args(argv)
    cases = [("complete", int(n), 0) for n in args.complete.split(",") if n]
    for item in (s for s in args.sparse.split(",") if s):
        n, m = item.split(":")
        cases.append(("sparse", int(n), int(m)))
    dyngs = [("this", sys.executable, None)] + args.peer
    rows, wrong = [], []
    for kind, n, m in cases:
        name = f"K_{n}" if kind == "complete" else f"random {n}/{m}"
        for backend in args.backends.split(","):
            docs = {}
            for r in range(args.rounds):
                for label, python, path in dyngs:
                    print(
                        f"{name} {backend}: {label}, round {r + 1}/{args.rounds}",
                        file=sys.stderr,
                        flush=True,
                    )
                    with _extra_path(path):
                        doc = peer.run_worker(
                            python,
                            WORKER,
                            (kind, n, m, backend, args.threads, args.memory_cap_mib),
                            "cycle_count_memory",
                        )
                    if label in docs:
                        doc["seconds"] = min(doc["seconds"], docs[label]["seconds"])
                        doc["peak_mib"] = max(doc["peak_mib"], docs[label]["peak_mib"])
                    docs[label] = doc
            answers = {str(d.get("counts")) for d in docs.values() if "counts" in d}
            if len(answers) > 1:
                wrong.append(f"{name} {backend}")
            cycles = next((sum(d["counts"]) for d in docs.values() if "counts" in d), None)
            rows.append((name, docs["this"]["edges"], cycles, backend, docs))
    labels = [label for label, _, _ in dyngs]
    print(
        "| graph | edges | cycles | backend | "
        + " | ".join(f"{x} s | {x} peak MiB" for x in labels)
        + " |"
    )
    print("|---|---:|---:|---|" + "---:|---:|" * len(labels))
    for name, edges, cycles, backend, docs in rows:
        cells = []
        for label in labels:
            d = docs[label]
            seconds = f"{d['seconds']:.2f}" + (" (out of memory)" if "error" in d else "")
            cells += [seconds, f"{d['peak_mib']:.0f} ({d['rss_before_mib']:.0f} before)"]
        print(
            f"| {name} | {edges} | {'-' if cycles is None else f'{cycles:,}'} | {backend} | "
            + " | ".join(cells)
            + " |"
        )
    if wrong:
        print("different counts: " + ", ".join(wrong), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
