"""``dyng generate mosp_changes|cycle_enum_batch``: the original tools' seeded batch generators
(``dyng.generators.legacy``), each generator keyword a flag."""

from __future__ import annotations

import os
import sys

from dyng.cli import _flags, _textbatch

HELPS = {
    "num_changes": "changes to draw",
    "insertion_percentage": "the share of insertions, in percent",
    "mode": "how changes are drawn",
    "weight_min": "the smallest weight drawn",
    "weight_max": "the largest weight drawn",
    "seed": "the generator's seed",
    "local_hops": "draw changes within this many hops of a random centre; 0: anywhere",
    "safe_deletions": "drop deletions that would disconnect a vertex from the source",
    "source": "the source vertex that safe deletions keep everything reachable from",
    "num_deletions": "existing edges to delete",
    "num_insertions": "new edges to insert",
    "locality_window": "draw the edges among nearby vertex ids",
}
_MODES = {"mode": ("uniform", "targeted", "reweight", "increase")}


def register(commands):
    from dyng.generators import legacy

    group = _flags.command(
        commands,
        "generate",
        help="draw seeded change batches",
        description="The original tools' seeded change generators.",
        example="dyng generate cycle_enum_batch --graph g.txt --num-insertions 5 --seed 2",
    )
    kinds = group.add_subparsers(dest="generator", metavar="GENERATOR", required=True)
    parser = _flags.command(
        kinds,
        "mosp_changes",
        help="a MOSP change batch (insert.txt, delete.txt)",
        description="Draw a change batch as mospPrep does "
        "and write DIR/insert.txt and DIR/delete.txt.",
        example="dyng generate mosp_changes --graph g.txt --num-weights 3 "
        "--num-changes 100 --seed 3 --out batch1",
    )
    _flags.add_graph(parser, properties="mosp_compatible")
    names = _flags.add_fields(
        parser, _flags.parameter_fields(legacy.mosp_changes), choices=_MODES, helps=HELPS
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="the batch folder to write")
    parser.add_argument("--quiet", action="store_true", help="print no report line")
    parser.set_defaults(run=_mosp_changes, fields=names)

    parser = _flags.command(
        kinds,
        "cycle_enum_batch",
        help="a cycle-count text batch",
        description="Draw a batch as CycleEnumeration's generator does: "
        "'- u v' deletion lines, then '+ u v' insertion lines.",
        example="dyng generate cycle_enum_batch --graph g.txt "
        "--num-deletions 5 --num-insertions 5 --seed 2 --out b.txt",
    )
    _flags.add_graph(
        parser, properties="cycle_enum_compatible", types=False, mtx_by_extension=False
    )
    names = _flags.add_fields(parser, _flags.parameter_fields(legacy.cycle_enum_batch), helps=HELPS)
    parser.add_argument("--out", metavar="FILE", help="write the batch here (default stdout)")
    parser.set_defaults(run=_cycle_enum_batch, fields=names)


def _mosp_changes(args):
    from dyng import io
    from dyng.generators import legacy

    graph = _flags.read_graph(args)
    fields = _flags.given(args, args.fields)
    # The library asks for num_changes; the command line, as 0.2's, draws none without it.
    fields.setdefault("num_changes", 0)
    batch, report = legacy.mosp_changes(graph, **fields)
    io.write_legacy_batch(
        os.path.join(args.out, "insert.txt"), os.path.join(args.out, "delete.txt"), batch
    )
    if not args.quiet:
        print(f"changes: {report.summary}")


def _cycle_enum_batch(args):
    from dyng.generators import legacy

    graph = _flags.read_graph(args)
    batch = legacy.cycle_enum_batch(graph, **_flags.given(args, args.fields))
    if args.out is None:
        sys.stdout.write(_textbatch.text(batch))
    else:
        _textbatch.write(args.out, batch)
