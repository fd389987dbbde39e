"""The flag groups that several commands share, and the one way they become library calls.

* graph input: ``--graph/--input``, ``--format`` and the readers' keywords (``add_graph``,
  ``read_graph``);
* resources: ``--backend``, ``--threads``, ``--device`` (``add_resources``,
  ``resources_of``);
* keyword fields: an algorithm's ``Options`` dataclass (``option_fields``) or a function's
  keyword parameters (``parameter_fields``) become kebab-case flags (``add_fields``),
  bools as ``--x/--no-x``, and come back as the keywords the user gave (``given``).

Nothing here loads the native module; that happens when a command runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import os

from dyng.cli import _progress
from dyng.cli._errors import CliError, UsageError

FORMATS = ("auto", "csr", "mtx", "edges")
PRESETS = ("default", "mosp_compatible", "cycle_enum_compatible")
BACKENDS = ("sequential", "openmp", "cuda")
ID_TYPES = ("int32", "int64")


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the example invocations of a command's epilog on their own lines."""


def command(subparsers, name, *, help, description, example, **keywords):
    """Adds one (sub)command whose ``--help`` ends with an example invocation."""
    return subparsers.add_parser(
        name,
        help=help,
        description=description,
        epilog=f"example:\n  {example}",
        formatter_class=Formatter,
        **keywords,
    )


# --- graph input -------------------------------------------------------------------------------


def add_graph(parser, *, properties=None, types=True, flag=True, mtx_by_extension=True):
    """The graph-input flags; ``properties`` is the default preset (None: no --properties).

    ``mtx_by_extension=False``: ``--format auto`` reads a ``*.mtx`` file as an edge list, as
    0.2's cycle-count commands did (CycleEnumeration's loader: the banner skipped, the ids
    compacted, so vertices without edges are dropped and seeded batches number the rest).
    """
    if flag:
        parser.add_argument(
            "--graph",
            "--input",
            dest="graph",
            required=True,
            metavar="PATH",
            help="the graph: a CSR prefix, a Matrix Market file or an edge list",
        )
    auto = (
        "csr when <PATH>RowPtr.txt exists, mtx for *.mtx, else edges"
        if mtx_by_extension
        else "csr when <PATH>RowPtr.txt exists, else edges (a *.mtx file too: its ids "
        "compacted, as CycleEnumeration read it)"
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="auto",
        help=f"input format; auto picks {auto} (default auto)",
    )
    parser.set_defaults(mtx_by_extension=mtx_by_extension)
    _add_reading_flags(parser)
    if types:
        parser.add_argument(
            "--vertex-type",
            choices=ID_TYPES,
            default="int32",
            help="vertex id type (default int32)",
        )
        parser.add_argument(
            "--edge-type",
            choices=ID_TYPES,
            help="edge offset type (default: int32 unless it must be int64)",
        )
    if properties is not None:
        parser.add_argument(
            "--properties",
            choices=PRESETS,
            default=properties,
            help=f"the graph's property preset (default {properties})",
        )


def _add_reading_flags(parser):
    """The flags that say how a graph file is read: weights, ids, loops and repeated edges."""
    parser.add_argument(
        "--num-weights",
        type=int,
        default=0,
        metavar="K",
        help="weight columns per edge (edge list), random weights per edge "
        "(Matrix Market), or 0 to take them from the file (default 0)",
    )
    parser.add_argument(
        "--random-weights",
        metavar="MIN,MAX,SEED",
        help="Matrix Market only: draw seeded random weights in [MIN, MAX]",
    )
    parser.add_argument(
        "--ids",
        choices=("compact", "as_is"),
        default="compact",
        help="edge list ids: renumber them 0..n-1 (compact) or keep them",
    )
    parser.add_argument(
        "--index-base",
        type=int,
        default=0,
        metavar="B",
        help="the smallest id of an edge list read with --ids as_is (default 0)",
    )
    parser.add_argument(
        "--symmetrize", action="store_true", help="edge list: add the reverse of every edge"
    )
    parser.add_argument(
        "--keep-self-loops",
        action="store_true",
        help="keep edges from a vertex to itself (dropped by default)",
    )
    parser.add_argument(
        "--duplicates",
        choices=("merge", "keep"),
        default="merge",
        help="repeated edges of an edge list: keep one, the last weight read (merge), or all",
    )


def is_mtx_name(path):
    """Whether `path` ends in ``.mtx``, in any case (as 0.2 matched it)."""
    return str(path).lower().endswith(".mtx")


def format_of(path, requested, *, mtx_by_extension=True):
    """The format ``auto`` stands for at `path` (see ``add_graph``)."""
    if requested != "auto":
        return requested
    if os.path.exists(f"{path}RowPtr.txt"):
        return "csr"
    return "mtx" if mtx_by_extension and is_mtx_name(path) else "edges"


def random_weights_of(args, fmt):
    """``(min, max, seed)`` of --random-weights, or None."""
    text = args.random_weights
    if text is None:
        return None
    if fmt != "mtx":
        raise UsageError("--random-weights applies to Matrix Market input only")
    parts = text.split(",")
    try:
        values = tuple(int(part) for part in parts)
    except ValueError:
        values = ()
    if len(values) != 3:
        raise UsageError(f"--random-weights: expected MIN,MAX,SEED, got {text!r}")
    return values


def read_graph(args, *, resources=None):
    """Reads the graph the graph-input flags describe (a progress line if it takes a while)."""
    from dyng import io

    path = args.graph
    fmt = format_of(path, args.format, mtx_by_extension=getattr(args, "mtx_by_extension", True))
    random = random_weights_of(args, fmt)
    graph_keywords = {"resources": resources}
    if getattr(args, "properties", None) is not None:
        graph_keywords["properties"] = args.properties
    vertex = getattr(args, "vertex_type", "int32")
    edge = getattr(args, "edge_type", None)
    with _progress.step(f"reading {path}"):
        if fmt == "csr":
            return io.read_csr_triplet(
                path,
                num_weights=args.num_weights,
                vertex_dtype=vertex,
                edge_dtype=edge or "int32",
                **graph_keywords,
            )
        if fmt == "mtx":
            weights = "random" if random is not None else None
            return io.read_matrix_market(
                path,
                weights=weights,
                num_weights=max(args.num_weights, 1),
                # 0.2 always sorts a Matrix Market file and merges its repeats (--duplicates
                # applies to edge lists), so seeded random weights follow the sorted order.
                random_weights=random,
                drop_self_loops=not args.keep_self_loops,
                sort_and_dedupe=True,
                vertex_dtype=vertex,
                edge_dtype=edge,
                **graph_keywords,
            )
        return io.read_edge_list(
            path,
            num_weights=args.num_weights,
            ids=args.ids,
            index_base=args.index_base,
            symmetrize=args.symmetrize,
            drop_self_loops=not args.keep_self_loops,
            duplicates=args.duplicates,
            vertex_dtype=vertex,
            edge_dtype=edge,
            **graph_keywords,
        )


def require_weights(graph, args, algorithm):
    """Fails with the way to give weights when `graph` has none."""
    if not graph.weighted or graph.num_weights == 0:
        raise CliError(
            f"{args.graph}: the graph has no weights; {algorithm} needs integer edge weights: "
            f"give a Matrix Market graph seeded random weights with --random-weights "
            f"MIN,MAX,SEED (and --num-weights K for K objectives), or read an edge list with "
            f"weight columns (--num-weights K)"
        )


def check_source(source, graph):
    """Fails unless `source` is a vertex of `graph`."""
    n = graph.num_vertices
    if not 0 <= source < n:
        raise CliError(
            f"--source {source} is out of range: the graph has {n} vertices (0 to {n - 1})"
        )


# --- resources ---------------------------------------------------------------------------------


def add_resources(parser):
    parser.add_argument(
        "--backend", choices=BACKENDS, help="where to run (default: CUDA if usable, else OpenMP)"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=0,
        metavar="T",
        help="OpenMP threads (default 0: the OpenMP default)",
    )
    parser.add_argument(
        "--device", type=int, default=0, metavar="D", help="CUDA device ordinal (default 0)"
    )


def check_backend(args, algorithm):
    """Fails when ``--backend`` names a backend `algorithm` (a registry entry) does not run on
    yet, saying which it runs on, before any resources are made."""
    if args.backend is not None and args.backend not in algorithm.backends:
        have = ", ".join(algorithm.backends)
        raise CliError(
            f"--backend {args.backend}: {algorithm.name} runs on the {have} backends "
            f"in this release; pass --backend {algorithm.backends[-1]} or leave "
            f"--backend out"
        )


def resources_of(args):
    """The Resources the resource flags ask for, or None for the process default."""
    import dyng

    if args.threads < 0:
        raise UsageError(f"--threads must be >= 0, got {args.threads}")
    if args.backend is None and args.threads == 0 and args.device == 0:
        return None
    if args.backend == "sequential":
        return dyng.Resources.sequential()
    if args.backend == "cuda":
        return dyng.Resources.cuda(device=args.device, host_threads=args.threads)
    # 0.2 accepts any --device where no CUDA backend runs; the host backends ignore it.
    device = {"device": args.device} if args.device >= 0 else {}
    return dyng.Resources(args.backend, num_threads=args.threads, **device)


# --- keyword fields ----------------------------------------------------------------------------


def option_fields(options_type, *, skip=()):
    """``[(name, default)]`` of an Options dataclass, in declaration order."""
    found = []
    for field in dataclasses.fields(options_type):
        if field.name in skip:
            continue
        if field.default_factory is not dataclasses.MISSING:
            found.append((field.name, field.default_factory()))
        else:
            found.append((field.name, field.default))
    return found


def parameter_fields(function, *, skip=()):
    """``[(name, default)]`` of a function's keyword-only parameters, in order."""
    return [
        (p.name, p.default)
        for p in inspect.signature(function).parameters.values()
        if p.kind is p.KEYWORD_ONLY and p.name not in skip
    ]


def _int_list(text):
    # Every item must be a number: an empty one ("4,,1", a trailing comma) is a usage error, as
    # in 0.2, never an item silently dropped.
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated integers (e.g. 4,1,4), got {text!r}"
        ) from None


def add_fields(parser, fields, *, choices=None, helps=None):
    """Adds ``--kebab-name`` for every ``(name, default)``; returns the names.

    The flag's kind follows the default: bool -> ``--x/--no-x``, list -> ``N1,..,NK``,
    float -> ``X``, str -> one of ``choices[name]``, int or None -> ``N``. Every flag defaults
    to None, meaning "not given": the library's own default then applies.
    """
    choices = choices or {}
    helps = helps or {}
    for name, default in fields:
        flag = "--" + name.replace("_", "-")
        text = helps.get(name, "")
        shown = f"(default {default})" if default is not None else "(default: none)"
        text = f"{text} {shown}".strip()
        if isinstance(default, bool):
            parser.add_argument(
                flag, action=argparse.BooleanOptionalAction, default=None, help=text
            )
        elif isinstance(default, list):
            parser.add_argument(
                flag,
                type=_int_list,
                metavar="N1,..,NK",
                help=helps.get(name, "comma-separated integers"),
            )
        elif isinstance(default, float):
            parser.add_argument(flag, type=float, metavar="X", help=text)
        elif isinstance(default, str):
            parser.add_argument(flag, choices=choices.get(name), help=text)
        else:
            parser.add_argument(flag, type=int, metavar="N", help=text)
    return [name for name, _ in fields]


def given(args, names):
    """``{name: value}`` of the fields the user gave."""
    return {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}
