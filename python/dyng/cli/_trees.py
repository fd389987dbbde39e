"""What ``sssp`` and ``mosp`` share: the original tools' output layout, the ``--init`` trees and
the flags of an update (their batches come from ``dyng.cli._batches``).

Layout under ``--out DIR``: ``obj<k>/distancesOriginal.txt`` and ``obj<k>/SSSPTreeOriginal.txt``
after a compute, ``obj<k>/distancesUpdated.txt`` and ``obj<k>/SSSPTreeUpdated.txt`` after an
update; mosp adds ``combinedGraph/distancesCsr.txt``, ``SSSPTreeCsr.txt`` and ``mospCosts.txt``.
"""

from __future__ import annotations

import os
import time

from dyng.cli import _batches, _flags, _progress
from dyng.cli._errors import CliError

INFINITE_DISTANCE = 2**61 - 1


def add_tree_flags(parser):
    """``--source`` (before the algorithm's fields)."""
    parser.add_argument(
        "--source", type=int, default=0, metavar="S", help="the source vertex (default 0)"
    )


def add_output_flags(parser, holds="obj<k>/ per objective"):
    """``--out DIR`` (whose contents `holds` describes) and ``--quiet``."""
    parser.add_argument("--out", required=True, metavar="DIR", help=f"the output folder ({holds})")
    parser.add_argument(
        "--quiet", action="store_true", help="print no report lines and no progress line"
    )


def add_update_flags(parser):
    """The batch and start-tree flags of ``sssp update`` and ``mosp update``."""
    _batches.add_batch_source(parser)
    parser.add_argument(
        "--init",
        metavar="DIR",
        help="start from the trees in DIR/obj<k>/ (distancesOriginal.txt, "
        "SSSPTreeOriginal.txt) instead of computing them",
    )
    parser.add_argument(
        "--canonicalize",
        action="store_true",
        help="with --init: replace each parent by the canonical one",
    )
    parser.add_argument(
        "--write-graph",
        metavar="PREFIX",
        help="also write the changed graph as a CSR triplet at PREFIX",
    )


def objectives_of(graph, requested):
    """The objective columns to run: the requested one, or all of them."""
    if requested is None:
        return list(range(graph.num_weights))
    if not 0 <= requested < graph.num_weights:
        raise CliError(
            f"--objective {requested} is out of range: the graph has "
            f"{graph.num_weights} weight column(s)"
        )
    return [requested]


def read_init(directory, objectives, num_vertices, vertex_dtype):
    """``([distances], [parents])`` of the trees in ``<directory>/obj<k>/``."""
    from dyng import io

    distances, parents = [], []
    for k in objectives:
        folder = os.path.join(directory, f"obj{k}")
        distances.append(
            io.read_distances(os.path.join(folder, "distancesOriginal.txt"), num_vertices)
        )
        parents.append(
            io.read_parents(
                os.path.join(folder, "SSSPTreeOriginal.txt"),
                num_vertices,
                vertex_dtype=vertex_dtype,
            )
        )
    return distances, parents


def write_tree(out, k, stage, distances, parents):
    """Writes ``obj<k>/distances<stage>.txt`` and ``obj<k>/SSSPTree<stage>.txt``."""
    from dyng import io

    folder = os.path.join(out, f"obj{k}")
    io.write_distances(os.path.join(folder, f"distances{stage}.txt"), distances)
    io.write_parents(os.path.join(folder, f"SSSPTree{stage}.txt"), parents)


def reachable(distances):
    """How many distances are finite."""
    import numpy as np

    return int(np.count_nonzero(np.asarray(distances) < INFINITE_DISTANCE))


def ms(seconds):
    """Milliseconds as the report lines print them."""
    return f"{seconds * 1e3:g}"


def stats_line(k, stats):
    return (
        f"obj{k}: invalidated {stats.invalidated}, affected {stats.affected}, "
        f"iterations {stats.iterations}, engine {stats.engine_used}"
    )


def batch_summary(summary):
    return (
        f"batch: inserted {summary.inserted_edges}, updated {summary.updated_edges}, "
        f"deleted {summary.deleted_edges}, ignored deletions {summary.ignored_deletions}"
    )


def timed(function, *arguments, **keywords):
    """``(value, seconds)`` of one call."""
    start = time.perf_counter()
    value = function(*arguments, **keywords)
    return value, time.perf_counter() - start


def write_graph(args, graph):
    if args.write_graph is not None:
        from dyng import io

        with _progress.step(f"writing {args.write_graph}"):
            io.write_csr_triplet(args.write_graph, graph)


def report(args, line):
    if not args.quiet:
        print(line)


def prepare(args, algorithm):
    """Reads the graph and checks the shared flags; returns ``(graph, resources)``."""
    resources = _flags.resources_of(args)
    graph = _flags.read_graph(args, resources=resources)
    _flags.require_weights(graph, args, algorithm)
    _flags.check_source(args.source, graph)
    return graph, resources
