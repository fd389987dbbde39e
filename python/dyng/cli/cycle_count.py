"""``dyng cycle_count compute|update``: the directed simple-cycle histogram as CycleEnum's CSV,
on stdout or in ``--output FILE``."""

from __future__ import annotations

import sys

from dyng.cli import _batches, _flags, _progress, _trees
from dyng.cli._errors import UsageError

_CHOICES = {
    "method": ("johnson",),
    "mode": ("simple",),
    "cuda_engine": ("automatic", "fused", "operators"),
    "scheduler": ("work_queue", "naive"),
    "work_items": ("automatic", "roots", "edges", "two_hop"),
}
_HELPS = {
    "max_length": "the longest cycle counted; -1 counts every length",
    "method": "the enumeration method",
    "mode": "which cycles count",
    "cuda_engine": "the CUDA engine to ask for",
    "scheduler": "how the CUDA backend hands out work",
    "work_items": "the unit of work the CUDA backend balances",
}
_EXAMPLES = {
    "compute": "dyng cycle_count compute --graph g.txt --max-length 6 --output cycles.csv",
    "update": "dyng cycle_count update --graph g.txt --max-length 6 --num-deletions 10 "
    "--num-insertions 10 --seed 1 --compare-recompute",
}


def register(commands):
    from dyng import cycle_count

    group = _flags.command(
        commands,
        "cycle_count",
        help="count directed simple cycles by length",
        description="Count directed simple cycles by length, and keep the counts current under "
        "change batches.",
        example=_EXAMPLES["compute"],
    )
    verbs = group.add_subparsers(dest="verb", metavar="VERB", required=True)
    for verb, summary in (
        ("compute", "count the cycles of the graph"),
        ("update", "apply a batch and update the counts"),
    ):
        parser = _flags.command(
            verbs,
            verb,
            help=summary,
            description=summary.capitalize() + ".",
            example=_EXAMPLES[verb],
        )
        _flags.add_graph(
            parser, properties="cycle_enum_compatible", types=False, mtx_by_extension=False
        )
        names = _flags.add_fields(
            parser, _flags.option_fields(cycle_count.Options), choices=_CHOICES, helps=_HELPS
        )
        parser.add_argument(
            "--output", metavar="FILE", help="write the histogram here instead of stdout"
        )
        _flags.add_resources(parser)
        if verb == "update":
            _batches.add_any_batch(parser)
            parser.add_argument(
                "--compare-recompute",
                action="store_true",
                help="also count from scratch and say whether both agree",
            )
        parser.set_defaults(run=_compute if verb == "compute" else _update, fields=names)


def _emit(args, counts):
    from dyng import io

    if args.output is not None:
        io.write_histogram_csv(args.output, counts)
    else:
        sys.stdout.write(io.histogram_csv(counts))


def _prepare(args):
    resources = _flags.resources_of(args)
    return _flags.read_graph(args, resources=resources), _flags.given(args, args.fields)


def _compute(args):
    from dyng import cycle_count

    graph, fields = _prepare(args)
    with _progress.step("counting cycles"):
        result = cycle_count.compute(graph, **fields)
    _emit(args, result.counts.to_numpy())


def _update(args):
    from dyng import cycle_count

    if args.max_length is None:
        raise UsageError(
            "cycle_count update requires --max-length (the update enumerates the "
            "simple paths through the changed edges up to that length)"
        )
    graph, fields = _prepare(args)
    batch = _batches.read_any_batch(args, graph)
    with _progress.step("counting cycles"):
        result = cycle_count.compute(graph, **fields)
    with _progress.step("updating the counts"):
        _, seconds = _trees.timed(cycle_count.update, graph, batch, result)
    counts = result.counts.to_numpy()
    print(f"update_seconds={seconds:g}", file=sys.stderr)
    if args.compare_recompute:
        with _progress.step("counting again from scratch"):
            fresh, again = _trees.timed(cycle_count.compute, graph, **fields)
        print(f"recompute_seconds={again:g}", file=sys.stderr)
        same = fresh.counts.to_numpy().tolist() == counts.tolist()
        print(f"match={'yes' if same else 'no'}", file=sys.stderr)
    _emit(args, counts)
