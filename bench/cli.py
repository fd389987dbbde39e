"""Command line: ``python -m bench sssp|load|apply|mosp|cycle_count|io|nx|components|pagerank
[options] [--plot DIR]``; exits 0 whatever the bars say. ``python -m bench plot RESULTS.json``
charts a saved run."""

from __future__ import annotations

import argparse
import os
import sys
import time

from bench import (
    apply,
    components,
    cycle_count,
    generators,
    io,
    load,
    mosp,
    nx,
    pagerank,
    plot,
    report,
    sssp,
)
from bench.timing import Progress
from bench.verify import VerificationError


def _csv(kind):
    def parse(text: str):
        try:
            return tuple(kind(part) for part in text.split(",") if part.strip())
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"{text!r}: {error}") from None

    return parse


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("sssp", help="dyng sssp compute vs SciPy, update vs recompute")
    p.add_argument(
        "--graphs",
        type=_csv(str),
        default=None,
        help="comma list of rmat<scale> / uniform<scale> / grid<side> / grid<rows>x<cols> / "
        "road<side> / road<rows>x<cols> "
        f"(default {','.join(sssp.DEFAULT_GRAPHS)}; "
        f"--quick: {','.join(sssp.QUICK_GRAPHS)})",
    )
    p.add_argument(
        "--repeats",
        type=int,
        default=None,
        help="timed rounds per measurement after one warm-up (default 7, --quick 3)",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="one small graph per class and 3 repeats, for a fast look",
    )
    p.add_argument(
        "--json",
        default=None,
        metavar="PATH",
        help="where to write the JSON (default bench/results/sssp-<timestamp>.json)",
    )
    p.add_argument("--seed", type=int, default=1, help="graph and change seed (default 1)")
    p.add_argument("--threads", type=int, default=2, help="OpenMP threads (default 2)")
    p.add_argument(
        "--changes",
        type=_csv(int),
        default=sssp.DEFAULT_CHANGES,
        help="comma list of batch sizes (default 1000,10000)",
    )
    p.add_argument(
        "--backends",
        type=_csv(str),
        default=sssp.BACKENDS,
        help="comma list of seq, omp, cuda (default seq,omp)",
    )
    p.add_argument(
        "--modes", type=_csv(str), default=None, help="comma list of change modes (default: all)"
    )
    p.add_argument(
        "--no-scipy",
        action="store_true",
        help="leave SciPy out (backends are then checked against each other)",
    )
    q = sub.add_parser("load", help="Resources() against sequential beside busy neighbours")
    q.add_argument(
        "--graphs",
        type=_csv(str),
        default=load.DEFAULT_GRAPHS,
        help=f"comma list of graphs (default {','.join(load.DEFAULT_GRAPHS)})",
    )
    q.add_argument(
        "--conditions",
        type=_csv(str),
        default=load.CONDITIONS,
        help=f"comma list of {', '.join(load.CONDITIONS)} (default: all)",
    )
    q.add_argument(
        "--repeats",
        type=int,
        default=7,
        help="timed rounds per measurement after one warm-up (default 7)",
    )
    q.add_argument("--seed", type=int, default=1, help="graph seed (default 1)")
    q.add_argument(
        "--json",
        default=None,
        metavar="PATH",
        help="where to write the JSON (default bench/results/load-<timestamp>.json)",
    )
    a = sub.add_parser("apply", help="Graph.apply of a 10M-edge batch, against a reference dyng")
    a.add_argument(
        "--reference-python",
        default=None,
        metavar="PYTHON",
        help="an interpreter whose dyng is the peer (e.g. a venv with dyng==0.2.0)",
    )
    a.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="alternating rounds of this dyng and the reference (default 2)",
    )
    a.add_argument("--repeats", type=int, default=3, help="timed runs per round (default 3)")
    a.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="graph and batch size factor (default 1: 1M vertices, 10M insertions)",
    )
    a.add_argument(
        "--json",
        default=None,
        metavar="PATH",
        help="where to write the JSON (default bench/results/apply-<timestamp>.json)",
    )
    o = sub.add_parser("mosp", help="mosp compute and update on R-MAT, against a reference dyng")
    o.add_argument(
        "--reference-python",
        default=None,
        metavar="PYTHON",
        help="an interpreter whose dyng is the peer (e.g. a venv with dyng==0.2.0)",
    )
    o.add_argument("--scale", type=int, default=20, help="R-MAT scale (default 20)")
    o.add_argument(
        "--backends",
        default="sequential,openmp",
        help="comma-separated backends among sequential, openmp, cuda (default sequential,openmp)",
    )
    o.add_argument(
        "--changes", default="1000,100000", help="comma-separated batch sizes (default 1000,100000)"
    )
    o.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="alternating rounds of this dyng and the reference (default 1)",
    )
    o.add_argument("--repeats", type=int, default=3, help="timed runs per round (default 3)")
    o.add_argument(
        "--json",
        default=None,
        metavar="PATH",
        help="where to write the JSON (default bench/results/mosp-<timestamp>.json)",
    )
    c = sub.add_parser(
        "cycle_count",
        help="cycle_count compute and update, against a reference dyng, NetworkX and igraph",
    )
    c.add_argument(
        "--reference-python",
        default=None,
        metavar="PYTHON",
        help="an interpreter whose dyng is the peer (e.g. a venv with dyng==0.2.0)",
    )
    c.add_argument(
        "--backends",
        default="sequential,openmp",
        help="comma-separated backends among sequential,openmp,cuda (default sequential,openmp)",
    )
    c.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="alternating rounds of this dyng and the reference (default 1)",
    )
    c.add_argument("--repeats", type=int, default=3, help="timed runs per round (default 3)")
    c.add_argument("--no-peers", action="store_true", help="leave NetworkX and igraph out")
    c.add_argument("--quick", action="store_true", help="small graphs (the bench's own tests)")
    c.add_argument(
        "--json",
        default=None,
        metavar="PATH",
        help="where to write the JSON (default bench/results/cycle_count-<timestamp>.json)",
    )
    io.add_parser(sub)
    for command in sub.choices.values():
        plot.add_option(command)
    # After the loop: the nx, components and pagerank benches have no chart of their own.
    nx.add_parser(sub)
    components.add_parser(sub)
    pagerank.add_parser(sub)
    plot.add_parser(sub)
    return top


def main(argv: list[str] | None = None, dyng_module=None) -> int:
    args = parser().parse_args(argv)
    if args.command == "plot":
        return plot.main(args)
    if getattr(args, "plot", None) is not None:  # nx, components, pagerank have no --plot
        # Before the run, not after it: a missing matplotlib should not cost a long run.
        try:
            plot.require_matplotlib()
        except ImportError as error:
            print(f"bench {args.command}: error: {error}", file=sys.stderr)
            return 2
    if args.command == "load":
        return _main_load(args, argv, dyng_module)
    if args.command == "apply":
        return _main_apply(args, argv)
    if args.command == "mosp":
        return _main_mosp(args, argv)
    if args.command == "cycle_count":
        return _main_cycle_count(args, argv)
    if args.command == "io":
        return io.main(args, argv, _run_peer_benchmark)
    if args.command == "nx":
        return nx.main(args, argv, _run_peer_benchmark)
    if args.command == "components":
        return components.main(args, argv, _run_peer_benchmark)
    if args.command == "pagerank":
        return pagerank.main(args, argv, _run_peer_benchmark)
    settings = sssp.Settings(
        graphs=args.graphs or (sssp.QUICK_GRAPHS if args.quick else sssp.DEFAULT_GRAPHS),
        repeats=args.repeats if args.repeats is not None else (3 if args.quick else 7),
        seed=args.seed,
        threads=args.threads,
        change_counts=args.changes,
        backends=args.backends,
        scipy=not args.no_scipy,
        modes=args.modes or sssp.changes.MODES,
    )
    unknown = [b for b in settings.backends if b not in sssp.ALL_BACKENDS]
    unknown += [m for m in settings.modes if m not in sssp.changes.MODES]
    if unknown or not settings.backends:
        print(
            f"bench sssp: error: unknown backend or mode {unknown}; backends are "
            f"{','.join(sssp.ALL_BACKENDS)}, modes {','.join(sssp.changes.MODES)}",
            file=sys.stderr,
        )
        return 2
    if settings.repeats < 1 or settings.threads < 1 or min(settings.change_counts, default=0) < 2:
        print(
            "bench sssp: error: --repeats and --threads must be >= 1 and every --changes "
            "value >= 2",
            file=sys.stderr,
        )
        return 2
    try:
        for name in settings.graphs:
            generators.parse_name(name)
    except ValueError as error:
        print(f"bench sssp: error: {error}", file=sys.stderr)
        return 2
    progress = Progress()
    dyng = dyng_module if dyng_module is not None else _import_dyng()
    if dyng is None:
        return 1
    started = time.localtime()
    document = {
        "benchmark": "sssp",
        "started": time.strftime("%Y-%m-%d %H:%M:%S %z", started),
        "argv": sys.argv if argv is None else ["python -m bench", *argv],
        "settings": {
            "graphs": list(settings.graphs),
            "repeats": settings.repeats,
            "warmup": 1,
            "seed": settings.seed,
            "threads": settings.threads,
            "changes": list(settings.change_counts),
            "modes": list(settings.modes),
            "source": sssp.SOURCE,
            "backends": list(settings.backends),
            "scipy": settings.scipy,
        },
        "machine": report.machine(dyng),
    }
    document["machine"]["loadavg_start"] = os.getloadavg()
    progress(
        f"dyng {document['machine']['dyng_version']}, graphs {','.join(settings.graphs)}, "
        f"{settings.repeats} repeats + 1 warm-up"
    )
    try:
        document["graphs"], document["rows"] = sssp.run(dyng, settings, progress)
    except VerificationError as error:
        print(f"bench sssp: error: wrong answer, benchmark stopped: {error}", file=sys.stderr)
        return 1
    document["machine"]["loadavg_end"] = os.getloadavg()
    document["bars"] = report.bars(document["rows"])
    path = report.write_json(document, args.json or report.default_json_path(started))
    print(report.text(document))
    print(f"\nJSON: {path}")
    return _write_plots(args, document, path)


def _main_load(args, argv, dyng_module) -> int:
    unknown = [c for c in args.conditions if c not in load.CONDITIONS]
    if unknown or args.repeats < 1:
        print(
            f"bench load: error: conditions must be among {','.join(load.CONDITIONS)} (got "
            f"{unknown}) and --repeats >= 1",
            file=sys.stderr,
        )
        return 2
    try:
        for name in args.graphs:
            generators.parse_name(name)
    except ValueError as error:
        print(f"bench load: error: {error}", file=sys.stderr)
        return 2
    dyng = dyng_module if dyng_module is not None else _import_dyng()
    if dyng is None:
        return 1
    settings = load.Settings(
        graphs=args.graphs, conditions=args.conditions, repeats=args.repeats, seed=args.seed
    )
    progress = Progress()
    started = time.localtime()
    document = {
        "benchmark": "load",
        "started": time.strftime("%Y-%m-%d %H:%M:%S %z", started),
        "argv": sys.argv if argv is None else ["python -m bench", *argv],
        "settings": {
            "graphs": list(settings.graphs),
            "conditions": list(settings.conditions),
            "repeats": settings.repeats,
            "warmup": 1,
            "seed": settings.seed,
        },
        "machine": report.machine(dyng),
    }
    document["machine"]["loadavg_start"] = os.getloadavg()
    try:
        document["graphs"], document["rows"] = load.run(dyng, settings, progress)
    except VerificationError as error:
        print(f"bench load: error: wrong answer, benchmark stopped: {error}", file=sys.stderr)
        return 1
    document["machine"]["loadavg_end"] = os.getloadavg()
    document["bars"] = load.bars(document["rows"], settings.graphs)
    path = report.write_json(document, args.json or report.default_json_path(started, "load"))
    print(load.text(document))
    print(f"\nJSON: {path}")
    return _write_plots(args, document, path)


def _main_apply(args, argv) -> int:
    if args.rounds < 1 or args.repeats < 1 or not args.scale > 0:
        print(
            "bench apply: error: --rounds and --repeats must be >= 1 and --scale > 0",
            file=sys.stderr,
        )
        return 2
    settings = {
        "rounds": args.rounds,
        "repeats": args.repeats,
        "scale": args.scale,
        "reference_python": args.reference_python,
    }
    return _run_peer_benchmark(
        "apply",
        args,
        argv,
        settings,
        lambda progress: {
            "rows": apply.run(
                args.reference_python, args.rounds, args.repeats, args.scale, progress
            )
        },
        lambda document: apply.bars(document["rows"]),
        apply.text,
    )


def _main_mosp(args, argv) -> int:
    backends = [b for b in args.backends.split(",") if b]
    try:
        counts = [int(c) for c in args.changes.split(",") if c]
    except ValueError:
        counts = []
    if (
        args.rounds < 1
        or args.repeats < 1
        or not 4 <= args.scale <= 26
        or not counts
        or any(c < 2 for c in counts)
        or not backends
        or any(b not in ("sequential", "openmp", "cuda") for b in backends)
    ):
        print(
            "bench mosp: error: --rounds and --repeats must be >= 1, --scale in [4, 26], "
            "--changes integers >= 2 and --backends among sequential,openmp,cuda",
            file=sys.stderr,
        )
        return 2
    settings = {
        "rounds": args.rounds,
        "repeats": args.repeats,
        "scale": args.scale,
        "backends": backends,
        "changes": counts,
        "reference_python": args.reference_python,
    }
    return _run_peer_benchmark(
        "mosp",
        args,
        argv,
        settings,
        lambda progress: mosp.run(
            args.reference_python, args.rounds, args.repeats, args.scale, backends, counts, progress
        ),
        mosp.bars,
        mosp.text,
    )


def _main_cycle_count(args, argv) -> int:
    backends = [b for b in args.backends.split(",") if b]
    if (
        args.rounds < 1
        or args.repeats < 1
        or not backends
        or any(b not in ("sequential", "openmp", "cuda") for b in backends)
    ):
        print(
            "bench cycle_count: error: --rounds and --repeats must be >= 1 and --backends "
            "among sequential,openmp,cuda",
            file=sys.stderr,
        )
        return 2
    size = "quick" if args.quick else "full"
    settings = {
        "rounds": args.rounds,
        "repeats": args.repeats,
        "backends": backends,
        "peers": not args.no_peers,
        "size": size,
        "reference_python": args.reference_python,
    }
    return _run_peer_benchmark(
        "cycle_count",
        args,
        argv,
        settings,
        lambda progress: cycle_count.run(
            args.reference_python,
            args.rounds,
            args.repeats,
            backends,
            not args.no_peers,
            size,
            progress,
        ),
        cycle_count.bars,
        cycle_count.text,
    )


def _run_peer_benchmark(name, args, argv, settings, run, bars, text) -> int:
    """The document of a benchmark against a peer interpreter (bench/peer.py): run(progress)
    gives its results, bars(document) and text(document) judge and print them."""
    progress = Progress()
    started = time.localtime()
    document = {
        "benchmark": name,
        "started": time.strftime("%Y-%m-%d %H:%M:%S %z", started),
        "argv": sys.argv if argv is None else ["python -m bench", *argv],
        "settings": settings,
        "loadavg_start": os.getloadavg(),
    }
    try:
        document.update(run(progress))
    except RuntimeError as error:
        print(f"bench {name}: error: {error}", file=sys.stderr)
        return 1
    document["loadavg_end"] = os.getloadavg()
    document["bars"] = bars(document)
    path = report.write_json(document, args.json or report.default_json_path(started, name))
    print(text(document))
    print(f"\nJSON: {path}")
    return _write_plots(args, document, path)


def _write_plots(args, document, json_path) -> int:
    """The charts of --plot; 1 if drawing fails (the JSON is saved: `bench plot` redraws it)."""
    if getattr(args, "plot", None) is None:
        return 0
    try:
        paths = plot.write(document, args.plot)
    except Exception as error:  # noqa: BLE001 - the results are saved; say how to redraw them
        print(
            f"bench {document['benchmark']}: error: the charts failed ({type(error).__name__}: "
            f"{error}); redraw them with `python -m bench plot {json_path} --out {args.plot}`",
            file=sys.stderr,
        )
        return 1
    for chart in paths:
        print(f"plot: {chart}")
    return 0


def _import_dyng():
    try:
        import dyng
    except ImportError as error:
        print(
            f"bench sssp: error: cannot import dyng ({error}); install it with "
            "`.venv/bin/pip install --no-build-isolation .` from the repository root",
            file=sys.stderr,
        )
        return None
    return dyng
