"""``dyng demo``: dyng's job in about a minute on generated data (``dyng.demo``)."""

from __future__ import annotations

from dyng.cli import _flags


def register(commands):
    from dyng.demo import _options

    parser = _flags.command(
        commands,
        "demo",
        help="keep results current on generated graphs, checked and timed",
        description=(
            "Generate a road network, a follower network and a payment graph from a seed,\n"
            "compute sssp, dynamic_bfs, components (weak, strong), pagerank and cycle_count on\n"
            "them, stream batches of changes, update every result per batch with dyng.update\n"
            "and check it against a fresh compute, then print a table of update vs recompute\n"
            "times and write DIR/demo.json and DIR/demo.png. Runs on the GPU when dyng can use\n"
            "one; about half a minute on 2 CPU cores at the default size. Exit status 1 when a\n"
            "check failed (nothing is written then)."
        ),
        example="dyng demo --size small --batches 10 --out demo-out",
    )
    _options.add_arguments(parser)
    parser.set_defaults(run=_run)


def _run(args):
    from dyng.demo import _main

    return _main.run(args)
