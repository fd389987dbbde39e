"""``dyng pagerank compute|update``: PageRank (NetworkX's definition) in files under ``--out DIR``,
named as the other commands name theirs (``Original`` after a compute, ``Updated`` after an
update, so both fit in one folder):

* ``ranks<stage>.txt``: ``v rank`` per vertex, the rank as the shortest decimal that reads back
  to the same float64;
* ``convergence<stage>.txt``: ``iterations N`` and ``residual R`` (the L1 change of the last
  full iteration, or an update's bound on the change one more would make).

``update`` computes the ranks of ``--graph``, then applies each batch in turn (several
``--batch FILE`` in the order given, or one MOSP or generated batch) and writes the ranks after
each: ``ranksUpdated.txt`` for one batch, ``ranksUpdated<k>.txt`` (k = 1, 2, ...) for several.
A report line per step on stdout (``--quiet``: none).
"""

from __future__ import annotations

import os

from dyng.cli import _batches, _flags, _outputs, _progress, _trees
from dyng.cli._errors import CliError

_HELPS = {
    "alpha": "damping factor in [0, 1): the probability of following an out-edge",
    "tol": "converged when one iteration moves the ranks by < n * tol in L1",
    "max_iter": "iterations before giving up",
    "weighted": "transition probabilities from the first weight column",
}
_EXAMPLES = {
    "compute": "dyng pagerank compute --graph g.txt --tol 1e-8 --out results",
    "update": "dyng pagerank update --graph g.txt --batch b1.txt --batch b2.txt --out results",
}
_OUT = "ranks<stage>.txt and convergence<stage>.txt; stage Original or Updated"


def register(commands):
    from dyng import pagerank

    group = _flags.command(
        commands,
        "pagerank",
        help="PageRank (NetworkX's definition), kept current",
        description="PageRank with networkx.pagerank's definition and convergence test, kept "
        "current under change batches.",
        example=_EXAMPLES["compute"],
    )
    verbs = group.add_subparsers(dest="verb", metavar="VERB", required=True)
    for verb, summary in (
        ("compute", "rank every vertex"),
        ("update", "apply batches and bring the ranks up to date after each"),
    ):
        parser = _flags.command(
            verbs,
            verb,
            help=summary,
            description=summary.capitalize() + ".",
            example=_EXAMPLES[verb],
        )
        _flags.add_graph(parser, properties="default")
        names = _flags.add_fields(parser, _flags.option_fields(pagerank.Options), helps=_HELPS)
        _trees.add_output_flags(parser, holds=_OUT)
        _flags.add_resources(parser)
        if verb == "update":
            _batches.add_any_batch(parser, several=True)
            parser.add_argument(
                "--compare-recompute",
                action="store_true",
                help="also compute from scratch after each batch and fail "
                "unless the update lies within 2 * n * tol / (1 - alpha)",
            )
        parser.set_defaults(run=_compute if verb == "compute" else _update, fields=names)


def _prepare(args):
    from dyng import pagerank

    _flags.check_backend(args, pagerank.ALGORITHM)
    resources = _flags.resources_of(args)
    return _flags.read_graph(args, resources=resources), _flags.given(args, args.fields)


def _ranks_text(ranks):
    return "".join(f"{v} {r!r}\n" for v, r in enumerate(ranks.tolist()))


def _write(args, result, stage):
    with _progress.step(f"writing ranks{stage}.txt"):
        _outputs.write_text(
            os.path.join(args.out, f"ranks{stage}.txt"),
            _ranks_text(result.ranks.to_numpy()),
            "write_ranks",
        )
    _outputs.write_text(
        os.path.join(args.out, f"convergence{stage}.txt"),
        f"iterations {result.iterations}\nresidual {result.residual!r}\n",
        "write_convergence",
    )


def _described(result, stats):
    converged = "converged" if stats.converged else "NOT converged (raise --max-iter)"
    return f"{result.iterations} iteration(s), residual {result.residual:.3g}, {converged}"


def _compute(args):
    from dyng import pagerank

    graph, fields = _prepare(args)
    with _progress.step("computing PageRank"):
        result, seconds = _trees.timed(pagerank.compute, graph, **fields)
    _write(args, result, "Original")
    _trees.report(
        args,
        f"compute {_trees.ms(seconds)} ms ({graph.num_vertices} vertices; "
        f"{_described(result, result.stats)})",
    )


def _update(args):
    from dyng import pagerank

    graph, fields = _prepare(args)
    with _progress.step("computing PageRank"):
        result = pagerank.compute(graph, **fields)
    batches = list(_batches.any_batch_sources(args))
    for k, read in enumerate(batches, start=1):
        batch = read(graph)
        what = f"batch {k}/{len(batches)}" if len(batches) > 1 else "the batch"
        with _progress.step(f"updating the ranks after {what}"):
            stats, seconds = _trees.timed(pagerank.update, graph, batch, result)
        _write(args, result, "Updated" if len(batches) == 1 else f"Updated{k}")
        _trees.report(
            args,
            f"update {_trees.ms(seconds)} ms, {what} ({stats.path}, "
            f"{stats.method}: {stats.vertices_touched} rank computations, "
            f"{_described(result, stats)}; {_trees.batch_summary(stats.batch)})",
        )
        if args.compare_recompute:
            _compare(args, graph, result, fields)


def _compare(args, graph, result, fields):
    import numpy as np

    from dyng import pagerank

    with _progress.step("computing again from scratch"):
        fresh, seconds = _trees.timed(pagerank.compute, graph, **fields)
    options = pagerank.Options(**fields)
    limit = 2 * graph.num_vertices * options.tol / (1 - options.alpha)
    distance = float(np.abs(fresh.ranks.to_numpy() - result.ranks.to_numpy()).sum())
    if not distance <= limit:
        # A library defect, never the user's input: no output is better than a wrong one.
        raise CliError(
            f"the updated ranks lie {distance:.3g} from a fresh compute's in L1, "
            f"beyond 2 * n * tol / (1 - alpha) = {limit:.3g}, so no output was "
            "written; please report it to dyng with the graph and the batches"
        )
    _trees.report(
        args, f"recompute {_trees.ms(seconds)} ms (L1 distance {distance:.3g}, within {limit:.3g})"
    )
