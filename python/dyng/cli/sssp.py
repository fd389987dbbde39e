"""``dyng sssp compute|update``: one shortest-path tree per weight column, in the original tools'
layout (``<out>/obj<k>/``)."""

from __future__ import annotations

from dyng.cli import _batches, _flags, _progress, _trees

_CHOICES = {"cuda_engine": ("automatic", "fused", "operators")}
_HELPS = {
    "delta": "delta-stepping bucket width; 0 picks one from the weights",
    "objective": "run only this weight column",
    "cuda_engine": "the CUDA engine to ask for",
    "validate_inputs": "check the weights and the start trees before running",
}
_EXAMPLES = {
    "compute": "dyng sssp compute --graph g.txt --num-weights 2 --source 0 --out results",
    "update": "dyng sssp update --graph g.txt --num-weights 2 --changes batch1 --out results",
}


def _fields(verb):
    from dyng import sssp

    skip = ("validate_inputs",) if verb == "compute" else ()
    fields = _flags.option_fields(sssp.Options, skip=skip)
    # --objective not given means every weight column, each in its own obj<k>/ folder.
    return [(name, None if name == "objective" else default) for name, default in fields]


def register(commands):
    group = _flags.command(
        commands,
        "sssp",
        help="shortest paths from one source, kept current",
        description="Single-source shortest paths, kept current under change batches.",
        example=_EXAMPLES["compute"],
    )
    verbs = group.add_subparsers(dest="verb", metavar="VERB", required=True)
    for verb, summary in (
        ("compute", "compute the shortest-path trees"),
        ("update", "apply a batch and repair the trees"),
    ):
        parser = _flags.command(
            verbs,
            verb,
            help=summary,
            description=summary.capitalize() + " (one per weight column, or --objective's).",
            example=_EXAMPLES[verb],
        )
        _flags.add_graph(parser, properties="mosp_compatible")
        _trees.add_tree_flags(parser)
        names = _flags.add_fields(parser, _fields(verb), choices=_CHOICES, helps=_HELPS)
        _trees.add_output_flags(parser)
        _flags.add_resources(parser)
        if verb == "update":
            _trees.add_update_flags(parser)
        parser.set_defaults(run=_compute if verb == "compute" else _update, fields=names)


def _options(args):
    fields = _flags.given(args, args.fields)
    fields.pop("objective", None)
    return fields


def _compute(args):
    from dyng import sssp

    graph, _ = _trees.prepare(args, "sssp")
    fields = _options(args)
    for k in _trees.objectives_of(graph, args.objective):
        with _progress.step(f"computing obj{k}"):
            result, seconds = _trees.timed(sssp.compute, graph, args.source, objective=k, **fields)
        distances = result.distances.to_numpy()
        _trees.write_tree(args.out, k, "Original", distances, result.parents.to_numpy())
        _trees.report(
            args,
            f"obj{k}: compute {_trees.ms(seconds)} ms (reachable "
            f"{_trees.reachable(distances)} of {graph.num_vertices})",
        )


def _update(args):
    import dyng
    from dyng import sssp

    _batches.batch_paths(args)
    graph, _ = _trees.prepare(args, "sssp")
    objectives = _trees.objectives_of(graph, args.objective)
    batch = _batches.read_batch(args, graph)
    fields = _options(args)
    with _progress.step("building the start trees"):
        if args.init is not None:
            distances, parents = _trees.read_init(
                args.init, objectives, graph.num_vertices, graph.vertex_dtype
            )
            results = [
                sssp.Result.from_arrays(
                    graph, args.source, d, p, canonicalize=args.canonicalize, objective=k, **fields
                )
                for k, d, p in zip(objectives, distances, parents)
            ]
        else:
            results = [sssp.compute(graph, args.source, objective=k, **fields) for k in objectives]
    with _progress.step("updating"):
        stats, seconds = _trees.timed(dyng.update, graph, batch, *results)
    for k, result, stat in zip(objectives, results, stats):
        _trees.write_tree(
            args.out, k, "Updated", result.distances.to_numpy(), result.parents.to_numpy()
        )
        _trees.report(args, _trees.stats_line(k, stat))
    _trees.report(
        args,
        f"update {_trees.ms(seconds)} ms ({len(results)} tree(s); "
        f"{_trees.batch_summary(stats[0].batch)})",
    )
    _trees.write_graph(args, graph)
