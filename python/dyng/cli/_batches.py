"""Where an update verb's change batch comes from, and the one place that reads it.

* the MOSP tools' batch files: ``--changes DIR`` (``DIR/insert.txt``, ``DIR/delete.txt``) or
  ``--insert FILE --delete FILE`` (``add_batch_source``, ``read_batch``; ``sssp`` and
  ``mosp`` take only these);
* any one of those, a text batch (``--batch FILE``: ``- u v`` / ``+ u v`` lines, see
  ``dyng.cli._textbatch``) or a seeded batch drawn as CycleEnumeration's generator draws it
  (``--num-deletions``, ``--num-insertions``, ``--seed``, ``--locality-window``), with
  ``--write-batch FILE`` writing the batch used (``add_any_batch``, ``read_any_batch``;
  ``cycle_count``, ``components`` and ``pagerank``, whose ``--batch`` may be repeated:
  ``any_batch_sources``).
"""

from __future__ import annotations

import os

from dyng.cli import _flags, _progress, _textbatch
from dyng.cli._errors import UsageError

_GENERATOR_HELPS = {
    "num_deletions": "generate a batch: delete this many existing edges",
    "num_insertions": "generate a batch: insert this many new edges",
    "seed": "the generator's seed",
    "locality_window": "draw the generated edges among nearby vertex ids",
}


def add_batch_source(parser):
    """``--changes DIR`` or ``--insert FILE --delete FILE``: the MOSP tools' batch files."""
    parser.add_argument(
        "--changes", metavar="DIR", help="the batch folder holding insert.txt and delete.txt"
    )
    parser.add_argument("--insert", metavar="FILE", help="insertions, 'u v w1..wK' per line")
    parser.add_argument("--delete", metavar="FILE", help="deletions, 'u v' per line")


def batch_paths(args):
    """``(insert, delete)`` paths of the batch flags, or None when none was given."""
    if args.changes is not None:
        if args.insert is not None or args.delete is not None:
            raise UsageError("give either --changes or --insert/--delete")
        return (os.path.join(args.changes, "insert.txt"), os.path.join(args.changes, "delete.txt"))
    if (args.insert is None) != (args.delete is None):
        raise UsageError("--insert and --delete go together")
    if args.insert is None:
        return None
    return args.insert, args.delete


def read_batch(args, graph):
    """The change batch of the batch-file flags, read as the MOSP tools did."""
    from dyng import io

    paths = batch_paths(args)
    if paths is None:
        raise UsageError("a batch is required: --changes DIR or --insert FILE --delete FILE")
    with _progress.step(f"reading the batch {paths[0]}"):
        return io.read_legacy_batch(
            *paths,
            num_weights=graph.num_weights,
            num_vertices=graph.num_vertices,
            mosp_lenient=True,
            vertex_dtype=graph.vertex_dtype,
        )


def add_any_batch(parser, *, several=False):
    """``--batch``, the batch-file flags, the generator's flags and ``--write-batch``;
    ``several``: ``--batch`` may be repeated (``any_batch_sources`` reads them in turn)."""
    from dyng.generators import legacy

    parser.add_argument(
        "--batch",
        metavar="FILE",
        action="append" if several else "store",
        help="a text batch: '- u v' and '+ u v' lines"
        + ("; repeat the flag for several, applied in the order given" if several else ""),
    )
    add_batch_source(parser)
    generator = _flags.add_fields(
        parser, _flags.parameter_fields(legacy.cycle_enum_batch), helps=_GENERATOR_HELPS
    )
    parser.add_argument(
        "--write-batch", metavar="FILE", help="also write the batch used, in the text batch format"
    )
    parser.set_defaults(generator=generator)


def read_any_batch(args, graph):
    """The update's batch: a text batch, a MOSP batch, a generated one, or none (an empty
    batch); written to ``--write-batch`` when given."""
    import dyng
    from dyng.generators import legacy

    generated = _flags.given(args, args.generator)
    text = args.batch[0] if isinstance(args.batch, list) else args.batch
    sources = [text is not None, batch_paths(args) is not None, bool(generated)]
    if sum(sources) > 1:
        raise UsageError("give one batch: --batch, --changes/--insert/--delete or generator flags")
    if text is not None:
        batch = _textbatch.read(text, graph)
    elif sources[1]:
        batch = read_batch(args, graph)
    elif generated:
        batch = legacy.cycle_enum_batch(graph, **generated)
    else:
        batch = dyng.EdgeBatch()
    if args.write_batch is not None:
        _textbatch.write(args.write_batch, batch)
    return batch


def any_batch_sources(args):
    """Readers of the update's batches, in order, each called with the graph as the batches
    before it left it: one per ``--batch FILE`` where the flag was repeated, else the one that
    ``read_any_batch`` reads."""
    paths = args.batch if isinstance(args.batch, list) else []
    if len(paths) < 2:
        return [lambda graph: read_any_batch(args, graph)]
    if batch_paths(args) is not None or _flags.given(args, args.generator) or args.write_batch:
        raise UsageError(
            "several --batch files take no other batch flags (--changes, --insert, "
            "--delete, the generator's flags, --write-batch)"
        )
    return [lambda graph, path=path: _textbatch.read(path, graph) for path in paths]
