"""``dyng components compute|update``: connected components (weak or strong) in two files under
``--out DIR``, named as the tree commands name theirs (``Original`` after a compute, ``Updated``
after an update, so both fit in one folder):

* ``labels<stage>.txt``: ``v label`` per vertex, label = the smallest vertex id of v's component
  (the layout of the distance and parent files, readable by ``dyng.io.read_parents``);
* ``sizes<stage>.txt``: ``label size`` per component, by label (its line count is the count).

A report line per step on stdout (``--quiet``: none) gives the count, the largest component and,
for an update, what it did.
"""

from __future__ import annotations

import os

from dyng.cli import _batches, _flags, _outputs, _progress, _trees
from dyng.cli._errors import CliError

_CHOICES = {"kind": ("weak", "strong")}
_HELPS = {"kind": "weak: edge directions ignored; strong: u and v reach each other"}
_EXAMPLES = {
    "compute": "dyng components compute --graph g.txt --kind strong --out results",
    "update": "dyng components update --graph g.txt --batch b.txt --out results",
}
_OUT = "labels<stage>.txt and sizes<stage>.txt; stage Original or Updated"


def register(commands):
    from dyng import components

    group = _flags.command(
        commands,
        "components",
        help="connected components (weak or strong), kept current",
        description="Connected components, weak or strong, kept current under change batches.",
        example=_EXAMPLES["compute"],
    )
    verbs = group.add_subparsers(dest="verb", metavar="VERB", required=True)
    for verb, summary in (
        ("compute", "label every vertex with its component"),
        ("update", "apply a batch and repair the labels"),
    ):
        parser = _flags.command(
            verbs,
            verb,
            help=summary,
            description=summary.capitalize() + ": the smallest vertex id of the component.",
            example=_EXAMPLES[verb],
        )
        _flags.add_graph(parser, properties="default")
        names = _flags.add_fields(
            parser, _flags.option_fields(components.Options), choices=_CHOICES, helps=_HELPS
        )
        _trees.add_output_flags(parser, holds=_OUT)
        _flags.add_resources(parser)
        if verb == "update":
            _batches.add_any_batch(parser)
            parser.add_argument(
                "--write-graph",
                metavar="FILE",
                help="also write the changed graph as a Matrix Market file "
                "(the next run's --graph FILE)",
            )
            parser.add_argument(
                "--compare-recompute",
                action="store_true",
                help="also compute from scratch and fail unless both agree",
            )
        parser.set_defaults(run=_compute if verb == "compute" else _update, fields=names)


def _prepare(args):
    from dyng import components

    _flags.check_backend(args, components.ALGORITHM)
    resources = _flags.resources_of(args)
    return _flags.read_graph(args, resources=resources), _flags.given(args, args.fields)


def _sizes_text(result):
    """``label size`` per component, by label."""
    import numpy as np

    sizes = result.sizes.to_numpy()
    labels = np.flatnonzero(sizes)
    return "".join(f"{c} {s}\n" for c, s in zip(labels.tolist(), sizes[labels].tolist()))


def _write(args, result, stage):
    labels = result.labels.to_numpy()
    _outputs.write_vertex_values(
        os.path.join(args.out, f"labels{stage}.txt"), labels, "write_labels"
    )
    _outputs.write_text(
        os.path.join(args.out, f"sizes{stage}.txt"), _sizes_text(result), "write_sizes"
    )


def _described(result, num_vertices):
    text = f"{result.kind}: {result.count} component(s) of {num_vertices} vertices"
    sizes = result.sizes.to_numpy()
    if not sizes.size:
        return text
    largest = int(sizes.argmax())  # the smallest label among the largest components
    return f"{text}, largest {int(sizes[largest])} (label {largest})"


def _compute(args):
    from dyng import components

    graph, fields = _prepare(args)
    with _progress.step("computing the components"):
        result, seconds = _trees.timed(components.compute, graph, **fields)
    _write(args, result, "Original")
    described = _described(result, graph.num_vertices)
    _trees.report(args, f"compute {_trees.ms(seconds)} ms ({described})")


def _stats_line(stats):
    return (
        f"{stats.path} ({stats.method}): merged {stats.merged}, split {stats.split}, "
        f"relabelled {stats.relabelled}, searches {stats.searches} visiting "
        f"{stats.search_size}, affected {stats.affected}"
    )


def _update(args):
    from dyng import components

    graph, fields = _prepare(args)
    batch = _batches.read_any_batch(args, graph)
    with _progress.step("computing the components"):
        result = components.compute(graph, **fields)
    with _progress.step("updating the components"):
        stats, seconds = _trees.timed(components.update, graph, batch, result)
    _write(args, result, "Updated")
    _trees.report(args, _stats_line(stats))
    described = _described(result, graph.num_vertices)
    _trees.report(
        args, f"update {_trees.ms(seconds)} ms ({described}; {_trees.batch_summary(stats.batch)})"
    )
    if args.compare_recompute:
        _compare(args, graph, result, fields)
    _write_graph(args, graph)


def _write_graph(args, graph):
    # Matrix Market, not sssp's CSR triplet: it holds an unweighted graph (a triplet always has
    # a Values file) and its header keeps the vertex count, isolated vertices included.
    if args.write_graph is not None:
        from dyng import io

        with _progress.step(f"writing {args.write_graph}"):
            io.write_matrix_market(args.write_graph, graph)


def _compare(args, graph, result, fields):
    import numpy as np

    from dyng import components

    with _progress.step("computing again from scratch"):
        fresh, seconds = _trees.timed(components.compute, graph, **fields)
    same = np.array_equal(fresh.labels.to_numpy(), result.labels.to_numpy()) and np.array_equal(
        fresh.sizes.to_numpy(), result.sizes.to_numpy()
    )
    if not same:
        # A library defect, never the user's input: no output is better than a wrong one.
        raise CliError(
            "the updated components differ from a fresh compute's, so no output "
            "was written; please report it to dyng with the graph and the batch"
        )
    _trees.report(args, f"recompute {_trees.ms(seconds)} ms (same labels: yes)")
