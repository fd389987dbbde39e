"""``dyng mosp compute|update``: multi-objective shortest paths in the original tools' layout
(``<out>/obj<k>/`` per objective, ``<out>/combinedGraph/`` for the MOSP tree and path costs)."""

from __future__ import annotations

import os

from dyng.cli import _batches, _flags, _progress, _trees

_CHOICES = {"cuda_engine": ("automatic", "fused", "operators")}
_HELPS = {
    "preferences": "one priority per objective, lower first, e.g. 4,1,4 (default: all 1)",
    "delta": "bucket width of the per-objective searches; 0 picks one from the weights",
    "cuda_engine": "the CUDA engine to ask for",
    "compute_path_costs": "write combinedGraph/mospCosts.txt",
    "validate_inputs": "check the weights and the start trees before running",
    "num_objectives": "use the first N weight columns; 0 uses them all",
}
_EXAMPLES = {
    "compute": "dyng mosp compute --graph g.txt --num-weights 3 --preferences 4,1,4 --out results",
    "update": "dyng mosp update --graph g.txt --num-weights 3 --preferences 4,1,4 "
    "--changes batch1 --out results",
}


def register(commands):
    from dyng import mosp

    group = _flags.command(
        commands,
        "mosp",
        help="shortest paths over several objectives, kept current",
        description="Multi-objective shortest paths, kept current under change batches.",
        example=_EXAMPLES["compute"],
    )
    verbs = group.add_subparsers(dest="verb", metavar="VERB", required=True)
    for verb, summary in (
        ("compute", "compute the per-objective trees and the MOSP tree"),
        ("update", "apply a batch and repair every tree"),
    ):
        parser = _flags.command(
            verbs,
            verb,
            help=summary,
            description=summary.capitalize() + ".",
            example=_EXAMPLES[verb],
        )
        _flags.add_graph(parser, properties="mosp_compatible")
        _trees.add_tree_flags(parser)
        skip = ("validate_inputs",) if verb == "compute" else ()
        names = _flags.add_fields(
            parser, _flags.option_fields(mosp.Options, skip=skip), choices=_CHOICES, helps=_HELPS
        )
        _trees.add_output_flags(parser)
        _flags.add_resources(parser)
        if verb == "update":
            _trees.add_update_flags(parser)
        parser.set_defaults(run=_compute if verb == "compute" else _update, fields=names)


def _path_costs(graph, result):
    """The costs along the MOSP tree in every weight column of the graph, as mospCosts.txt
    holds them (0.2 writes all K columns also when --num-objectives uses fewer)."""
    if result.num_objectives == graph.num_weights:
        costs = result.path_costs
        return costs.to_numpy() if hasattr(costs, "to_numpy") else costs
    from dyng.testing import mosp_check

    return mosp_check.mosp_path_costs(graph, result.combined_parents.to_numpy(), result.source)


def _write_combined(args, graph, result):
    from dyng import io

    folder = os.path.join(args.out, "combinedGraph")
    combined = result.combined_distances.to_numpy()
    io.write_distances(os.path.join(folder, "distancesCsr.txt"), combined)
    io.write_parents(os.path.join(folder, "SSSPTreeCsr.txt"), result.combined_parents.to_numpy())
    if result.options.compute_path_costs:
        io.write_path_costs(os.path.join(folder, "mospCosts.txt"), _path_costs(graph, result))
    return _trees.reachable(combined)


def _write_objectives(args, result, stage):
    for k in range(result.num_objectives):
        _trees.write_tree(
            args.out, k, stage, result.distances(k).to_numpy(), result.parents(k).to_numpy()
        )


def _compute(args):
    from dyng import mosp

    graph, _ = _trees.prepare(args, "mosp")
    with _progress.step("computing"):
        result, seconds = _trees.timed(
            mosp.compute, graph, args.source, **_flags.given(args, args.fields)
        )
    _write_objectives(args, result, "Original")
    reachable = _write_combined(args, graph, result)
    _trees.report(args, f"compute {_trees.ms(seconds)} ms ({result.num_objectives} objective(s))")
    _trees.report(
        args,
        f"combined: L={result.preference_scale}, reachable {reachable} of {graph.num_vertices}",
    )


def _update(args):
    from dyng import mosp

    _batches.batch_paths(args)
    graph, _ = _trees.prepare(args, "mosp")
    batch = _batches.read_batch(args, graph)
    fields = _flags.given(args, args.fields)
    with _progress.step("building the start trees"):
        if args.init is not None:
            count = fields.get("num_objectives") or graph.num_weights
            distances, parents = _trees.read_init(
                args.init, range(count), graph.num_vertices, graph.vertex_dtype
            )
            result = mosp.Result.from_arrays(
                graph, args.source, distances, parents, canonicalize=args.canonicalize, **fields
            )
        else:
            result = mosp.compute(graph, args.source, **fields)
    with _progress.step("updating"):
        stats, seconds = _trees.timed(mosp.update, graph, batch, result)
    _write_objectives(args, result, "Updated")
    reachable = _write_combined(args, graph, result)
    for k, objective in enumerate(stats.objectives):
        _trees.report(args, _trees.stats_line(k, objective))
    _trees.report(
        args,
        f"combined: L={result.preference_scale}, reachable {reachable} of "
        f"{graph.num_vertices}, {stats.combined_edges} edges, affected "
        f"{stats.affected}",
    )
    _trees.report(
        args,
        f"update {_trees.ms(seconds)} ms ({result.num_objectives} "
        f"objective(s); {_trees.batch_summary(stats.batch)})",
    )
    _trees.write_graph(args, graph)
