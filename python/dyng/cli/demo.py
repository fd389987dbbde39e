"""``dyng demo``: dyng's job in about a minute on generated data (:mod:`dyng.demo`)."""

from __future__ import annotations

from dyng.cli import _flags


def register(commands):
    from dyng.demo import _options

    parser = _flags.command(
        commands, "demo", help="keep results current on generated graphs, checked and timed",
        description="Generate a road network, a follower network and a payment graph (seeded), "
                    "compute sssp, dynamic_bfs, components, pagerank and cycle_count on them, "
                    "stream batches of changes, update every result per batch and check it "
                    "against a fresh compute, then print a table of update vs recompute times "
                    "and write DIR/demo.json and DIR/demo.png. Exit status 1 when a check "
                    "failed. Runs on the GPU when dyng can use one.",
        example="dyng demo --size small --batches 10 --out demo-out")
    _options.add_arguments(parser)
    parser.set_defaults(run=_run)


def _run(args):
    from dyng.demo import _main

    return _main.run(args)
