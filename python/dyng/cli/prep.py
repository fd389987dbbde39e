"""``dyng prep``: mospPrep's input preparation, with its positional arguments.

``mtx2csr`` (Matrix Market -> CSR triplet with K seeded random weights), ``widen`` (more random
weight columns), ``cache`` (the binary CSR cache), ``changes`` (a seeded change batch), ``init``
(the start trees) and ``expected`` (the trees after a batch). Each ends with
``<cmd> done in <ms> ms (rc=N)`` on stdout, also when it failed.
"""

from __future__ import annotations

import os
import struct
import time

from dyng.cli import _errors, _flags, _outputs, _trees
from dyng.cli._errors import CliError, UsageError
from dyng.cli.generate import HELPS

MAX_WEIGHTS = 32
# libstdc++'s std::filesystem file clock counts from 2174-01-01, 6437664000 s after 1970.
_FILE_CLOCK_OFFSET_NS = 6437664000 * 10**9
_SIGNATURE = b"MOSPCSR2"

_EXAMPLES = {
    "mtx2csr": "dyng prep mtx2csr graph.mtx graph 3 1 100 12345",
    "widen": "dyng prep widen graph graph4 4 1 100 7",
    "cache": "dyng prep cache graph graph.bin",
    "changes": "dyng prep changes graph batch1 --changes 100 --ins 50 --seed 3",
    "init": "dyng prep init graph start",
    "expected": "dyng prep expected graph batch1 expected",
}
# mospPrep's flag names for the keywords of generators.legacy.mosp_changes.
_CHANGE_FLAGS = (
    ("--changes", "num_changes", "N"),
    ("--ins", "insertion_percentage", "PCT"),
    ("--mode", "mode", None),
    ("--local", "local_hops", "HOPS"),
    ("--safe", "safe_deletions", None),
    ("--seed", "seed", "S"),
    ("--source", "source", "s"),
    ("--wmin", "weight_min", "a"),
    ("--wmax", "weight_max", "b"),
)
_MODES = ("uniform", "targeted", "reweight", "increase")
_POSITIONALS = {
    "in.mtx": "the Matrix Market file to read",
    "outPrefix": "the CSR prefix to write (<prefix>RowPtr.txt, ColInd.txt, Values.txt)",
    "inPrefix": "the CSR prefix to read",
    "K": "weights per edge, 1 to 32",
    "wmin": "the smallest random weight",
    "wmax": "the largest random weight",
    "seed": "the seed of the random weights (any integer, taken modulo 2**32)",
    "csrPrefix": "the CSR prefix of the graph",
    "binaryPath": "the cache file to write",
    "outDir": "the folder to write obj<k>/ into",
    "changesDir": "the batch folder holding insert.txt and delete.txt",
}


def register(commands):
    group = _flags.command(
        commands,
        "prep",
        help="mospPrep's preparation steps",
        description="mospPrep's steps, with its positional arguments.",
        example=_EXAMPLES["mtx2csr"],
    )
    steps = group.add_subparsers(dest="step", metavar="COMMAND", required=True)

    def step(name, summary, run, positionals):
        parser = _flags.command(
            steps,
            name,
            help=summary,
            description=summary[0].upper() + summary[1:] + ".",
            example=_EXAMPLES[name],
        )
        for positional in positionals:
            parser.add_argument(positional, help=_POSITIONALS[positional])
        parser.set_defaults(run=lambda args: _finish(name, run, args))
        return parser

    step(
        "mtx2csr",
        "Matrix Market to a CSR triplet with K seeded random weights",
        _mtx2csr,
        ("in.mtx", "outPrefix", "K", "wmin", "wmax", "seed"),
    )
    step(
        "widen",
        "add seeded random weight columns up to K",
        _widen,
        ("inPrefix", "outPrefix", "K", "wmin", "wmax", "seed"),
    )
    step("cache", "write the binary CSR cache of a triplet", _cache, ("csrPrefix", "binaryPath"))
    changes = step("changes", "draw a seeded change batch (insert.txt, delete.txt)", _changes, ())
    _add_change_flags(changes)
    changes.add_argument("csrPrefix", help=_POSITIONALS["csrPrefix"])
    changes.add_argument("outDir", help="the batch folder to write")
    for name, summary, run, positionals in (
        ("init", "the start trees, obj<k>/*Original.txt", _init, ("csrPrefix", "outDir")),
        (
            "expected",
            "the trees after a batch, obj<k>/*Updated.txt",
            _expected,
            ("csrPrefix", "changesDir", "outDir"),
        ),
    ):
        parser = step(name, summary, run, ())
        parser.add_argument(
            "--source", type=int, default=0, metavar="s", help="the source vertex (default 0)"
        )
        _add_k(parser)
        _flags.add_resources(parser)
        for positional in positionals:
            parser.add_argument(positional, help=_POSITIONALS[positional])


def _add_k(parser):
    # Checked as mospPrep checks it; the weights per edge come from the Values file.
    parser.add_argument("-k", metavar="K", help="objectives, 1 to 32 (read from the file)")


def _add_change_flags(parser):
    from dyng.generators import legacy

    defaults = dict(_flags.parameter_fields(legacy.mosp_changes))
    defaults["num_changes"] = 0
    for flag, name, metavar in _CHANGE_FLAGS:
        default = defaults[name]
        if isinstance(default, bool):
            parser.add_argument(flag, dest=name, action="store_true", help=HELPS[name])
        elif name == "mode":
            parser.add_argument(
                flag,
                dest=name,
                choices=_MODES,
                default=default,
                help=f"{HELPS[name]} (default {default})",
            )
        else:
            parser.add_argument(
                flag,
                dest=name,
                type=type(default),
                default=default,
                metavar=metavar,
                help=f"{HELPS[name]} (default {default})",
            )
    _add_k(parser)


def _finish(name, run, args):
    """Runs one step and prints its closing line; usage errors stop before it runs."""
    checked = _checked(args)
    start = time.perf_counter()
    status = _errors.run_guarded(run, checked)
    print(f"{name} done in {_trees.ms(time.perf_counter() - start)} ms (rc={status})")
    return status


def _checked(args):
    """The numeric positionals checked, as mospPrep checks them (usage errors)."""
    if getattr(args, "k", None) is not None:
        args.k = _integer(args.k, "-k", 1, MAX_WEIGHTS)
    if hasattr(args, "K"):
        args.K = _integer(args.K, "K", 1, MAX_WEIGHTS)
        args.wmin = _integer(args.wmin, "wmin", 1, 2**31 - 1)
        args.wmax = _integer(args.wmax, "wmax", args.wmin, 2**31 - 1)
        try:
            # std::mt19937 keeps the seed modulo 2**32, so mospPrep took any integer.
            args.seed = int(args.seed) % 2**32
        except ValueError:
            raise UsageError(f"seed: expected an integer, got {args.seed!r}") from None
    return args


def _integer(text, name, low, high):
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise UsageError(f"{name} must be an integer in [{low}, {high}], got {text!r}")
    return value


def _graph(prefix, resources=None):
    from dyng import io

    return io.read_csr_triplet(prefix, properties="mosp_compatible", resources=resources)


def _mtx2csr(args):
    from dyng import io

    path = getattr(args, "in.mtx")
    symmetric = _is_symmetric(path)
    graph = io.read_matrix_market(
        path,
        weights="random",
        num_weights=args.K,
        random_weights=(args.wmin, args.wmax, args.seed),
        properties="mosp_compatible",
    )
    io.write_csr_triplet(args.outPrefix, graph)
    print(
        f"mtx2csr: n={graph.num_vertices} directed edges={graph.num_edges} "
        f"symmetric={int(symmetric)}"
    )


def _is_symmetric(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            banner = file.readline().lower().split()
    except OSError as exc:
        raise CliError(
            f"{path}: cannot open the Matrix Market file ({exc.strerror}); check the path"
        ) from exc
    return len(banner) >= 5 and banner[4] in ("symmetric", "skew-symmetric", "hermitian")


def uniform_draws(seed, count, low, high):
    """`count` values of ``std::uniform_int_distribution(low, high)`` over ``std::mt19937(seed)``,
    in order: the native draw that the Matrix Market reader's random weights use too."""
    from dyng import _backend

    return _backend.native().io_seeded_uniform(count, low, high, seed).astype("int64")


def _widen(args):
    import numpy as np

    import dyng
    from dyng import io

    graph = _graph(args.inPrefix)
    have = graph.num_weights
    if args.K < have:
        raise CliError(
            f"{args.inPrefix}: the graph already has {have} weight columns, more "
            f"than K={args.K}; ask for at least {have}"
        )
    csr = graph.to_csr()
    m = len(csr.col_ind)
    extra = uniform_draws(args.seed, m * (args.K - have), args.wmin, args.wmax)
    weights = np.hstack(
        [np.asarray(csr.weights, dtype=np.int64), extra.reshape(m, args.K - have)]
    ).astype(np.int32)
    wide = dyng.Graph.from_csr(csr.row_ptr, csr.col_ind, weights, properties="mosp_compatible")
    io.write_csr_triplet(args.outPrefix, wide)


def _cache(args):
    import numpy as np

    graph = _graph(args.csrPrefix)
    identity = b""
    for suffix in ("RowPtr.txt", "ColInd.txt", "Values.txt"):
        path = os.path.realpath(f"{args.csrPrefix}{suffix}")
        info = os.stat(path)
        identity += (
            f"{path}\n{info.st_size}\n{info.st_mtime_ns - _FILE_CLOCK_OFFSET_NS}\n"
        ).encode()
    csr = graph.to_csr()
    k, m = graph.num_weights, len(csr.col_ind)
    parts = [
        _SIGNATURE,
        struct.pack("<I", len(identity)),
        identity,
        struct.pack("<iiq", graph.num_vertices, k, m),
        np.asarray(csr.row_ptr, dtype="<i4").tobytes(),
        np.asarray(csr.col_ind, dtype="<i4").tobytes(),
        np.asarray(csr.weights, dtype="<i4").reshape(m, k).tobytes(),
    ]
    _outputs.write_bytes(args.binaryPath, b"".join(parts), "write_cache")


def _changes(args):
    from dyng import io
    from dyng.generators import legacy

    graph = _graph(args.csrPrefix)
    keywords = {name: getattr(args, name) for _, name, _ in _CHANGE_FLAGS}
    batch, report = legacy.mosp_changes(graph, **keywords)
    io.write_legacy_batch(
        os.path.join(args.outDir, "insert.txt"), os.path.join(args.outDir, "delete.txt"), batch
    )
    print(f"changes: {report.summary}")


def _trees_of(args, graph, stage):
    from dyng import sssp

    for k in range(graph.num_weights):
        result, seconds = _trees.timed(sssp.compute, graph, args.source, objective=k)
        print(f"dijkstra obj{k}: {_trees.ms(seconds)} ms")
        _trees.write_tree(
            args.outDir, k, stage, result.distances.to_numpy(), result.parents.to_numpy()
        )


def _init(args):
    graph = _graph(args.csrPrefix, _flags.resources_of(args))
    _flags.check_source(args.source, graph)
    _trees_of(args, graph, "Original")


def _expected(args):
    from dyng import io

    graph = _graph(args.csrPrefix, _flags.resources_of(args))
    _flags.check_source(args.source, graph)
    batch = io.read_legacy_batch(
        os.path.join(args.changesDir, "insert.txt"),
        os.path.join(args.changesDir, "delete.txt"),
        num_weights=graph.num_weights,
        num_vertices=graph.num_vertices,
        mosp_lenient=True,
        vertex_dtype=graph.vertex_dtype,
    )
    graph.apply(batch)
    _trees_of(args, graph, "Updated")
