"""``dyng convert INPUT OUTPUT``: a graph from one file format to another (CSR triplet, Matrix
Market, edge list)."""

from __future__ import annotations

from dyng.cli import _flags, _progress
from dyng.cli._errors import UsageError


def register(commands):
    parser = _flags.command(
        commands,
        "convert",
        help="rewrite a graph in another file format",
        description="Read a graph in one format and write it in another. OUTPUT is a CSR "
        "prefix for --to csr; --to auto writes Matrix Market for *.mtx, else an "
        "edge list.",
        example="dyng convert graph.mtx graph --to csr --random-weights 1,100,7 --num-weights 2",
    )
    _flags.add_graph(parser, flag=False)
    parser.add_argument(
        "--to", choices=_flags.FORMATS, default="auto", help="output format (default auto)"
    )
    parser.add_argument(
        "--weight-column",
        type=int,
        default=0,
        metavar="K",
        help="the weight column a Matrix Market output keeps (default 0)",
    )
    parser.add_argument("graph", metavar="INPUT", help="the graph to read")
    parser.add_argument("output", metavar="OUTPUT", help="where to write it")
    parser.set_defaults(run=_run)


def _run(args):
    from dyng import io

    source = _flags.format_of(args.graph, args.format)
    target = (
        args.to if args.to != "auto" else ("mtx" if _flags.is_mtx_name(args.output) else "edges")
    )
    graph = _flags.read_graph(args)
    with _progress.step(f"writing {args.output}"):
        if target == "csr":
            if not graph.weighted:
                raise UsageError(
                    "csr output needs weights: give --num-weights (edges) or --random-weights (mtx)"
                )
            io.write_csr_triplet(args.output, graph)
        elif target == "mtx":
            io.write_matrix_market(args.output, graph, weight_column=args.weight_column)
        else:
            io.write_edge_list(args.output, graph)
    print(f"convert: {source} -> {target}: n={graph.num_vertices} edges={graph.num_edges}")
