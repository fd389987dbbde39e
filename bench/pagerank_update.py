"""The update half of ``python -m bench pagerank`` (bench/pagerank.py says what is measured): the
three dyng peers of each backend that walk one batch sequence (update, cold recompute, warm full
iteration) and the checks of every round."""

from __future__ import annotations

import dataclasses

import numpy as np

from bench import components_update, sssp, verify
from bench.components_update import Walk, edge_batch, summary
from bench.timing import Peer, run_interleaved


def oracle_step(ctx, edges, ranks: np.ndarray) -> np.ndarray:
    """One full iteration of `ranks` on `edges` ((src, dst) arrays or an EdgeGraph)."""
    from dyng.testing.oracles import pagerank_step

    src, dst = (edges.src, edges.dst) if hasattr(edges, "src") else edges
    return pagerank_step(ranks.size, src, dst, ranks, ctx.settings.alpha)


def ranks_of(result) -> np.ndarray:
    return result.ranks.to_numpy()


def check_converged(ctx, what: str, ranks: np.ndarray, edges) -> float:
    """Raises unless one more full iteration moves `ranks` by less than n * tol; the move."""
    n = ranks.size
    moved = float(np.abs(oracle_step(ctx, edges, ranks) - ranks).sum())
    if not moved < n * ctx.settings.tol:
        raise verify.VerificationError(
            f"{what}: one more full iteration moves the ranks by {moved:.3g} in L1, not below "
            f"n * tol = {n * ctx.settings.tol:.3g}"
        )
    return moved


def check_close(ctx, what: str, ranks: np.ndarray, reference: np.ndarray) -> float:
    """Raises unless `ranks` lie within the bound of `reference`; the distance / the bound."""
    distance = float(np.abs(ranks - reference).sum())
    if not distance <= ctx.bound(ranks.size):
        raise verify.VerificationError(
            f"{what}: L1 distance {distance:.3g}, above 2 * n * tol / (1 - alpha) = "
            f"{ctx.bound(ranks.size):.3g}"
        )
    return distance / ctx.bound(ranks.size)


def _warm_full_options(dyng, options):
    """`options` whose update runs no repair: its fallback, full iterations from the previous
    ranks to the convergence test (the warm-started full iteration). The repair budget is a
    tuning knob of the native options, not a field of pagerank.Options."""

    class WarmFull(type(options)):
        def _to_native(self, native):
            native_options = super()._to_native(native)
            native_options.repair_budget = 0.0
            return native_options

    return WarmFull(**dataclasses.asdict(options))


def _dyng_peers(ctx, backend: str, walk: Walk, edge_batches):
    """The results that update and the warm full iteration carry along, and the three peers of
    one backend, each on its own clone of the starting graph."""
    dyng = ctx.dyng
    res = ctx.resources[backend]
    updated, warmed, recomputed = (ctx.base[backend].clone() for _ in range(3))
    result = ctx.compute(updated, backend)
    warm = ctx.compute(warmed, backend)
    warm._options = _warm_full_options(dyng, warm._options)
    peers = [
        Peer(
            f"dyng {backend} update",
            lambda: edge_batches[walk.index],
            lambda batch: dyng.pagerank.update(updated, batch, result, resources=res),
        ),
        Peer(
            f"dyng {backend} recompute",
            lambda: recomputed.apply(edge_batches[walk.index]),
            lambda _: ctx.compute(recomputed, backend),
        ),
        Peer(
            f"dyng {backend} warm full",
            lambda: edge_batches[walk.index],
            lambda batch: dyng.pagerank.update(warmed, batch, warm, resources=res),
        ),
    ]
    return {"update": result, "warm full": warm, "graph": updated}, peers


_STATS_FIELDS = (
    "path",
    "method",
    "iterations",
    "vertices_touched",
    "frontier_size",
    "frontier_visits",
    "affected",
    "residual",
)


def _stats(stats) -> dict:
    return {name: sssp._plain(getattr(stats, name, None)) for name in _STATS_FIELDS}


@dataclasses.dataclass
class _Checks:
    """What the checks found over all rounds: the worst distance / bound and the largest move of
    one more full iteration / (n * tol)."""

    worst_fraction_of_bound: float = 0.0
    worst_fraction_of_tol: float = 0.0


def _check_round(ctx, round_index, out, carried, checks: _Checks) -> None:
    backends = ctx.settings.backends
    fresh = ctx.compute(carried[backends[0]]["graph"], backends[0]).ranks.to_numpy()
    src, dst, _ = carried[backends[0]]["graph"].edges()
    n = fresh.size
    first = None
    for b in backends:
        verify.assert_equal(
            f"pagerank.compute() ({b}, batch {round_index + 1}) vs {backends[0]}",
            out[f"dyng {b} recompute"].ranks.to_numpy(),
            fresh,
        )
        for peer in ("update", "warm full"):
            what = f"pagerank.update() ({b}, {peer}, batch {round_index + 1})"
            ranks = carried[b][peer].ranks.to_numpy()
            checks.worst_fraction_of_bound = max(
                checks.worst_fraction_of_bound, check_close(ctx, what, ranks, fresh)
            )
            moved = check_converged(ctx, what, ranks, (src, dst))
            checks.worst_fraction_of_tol = max(
                checks.worst_fraction_of_tol, moved / (n * ctx.settings.tol)
            )
        ranks = carried[b]["update"].ranks.to_numpy()
        if first is None:
            first = ranks
        else:
            verify.assert_equal(
                f"pagerank.update() ({b}, batch {round_index + 1}) vs {backends[0]}", ranks, first
            )


def measure_updates(ctx) -> list[dict]:
    """The update row: every peer walks the batch sequence, checked each round."""
    drawn = components_update.draw_batches(ctx.edges, ctx.settings, ctx.log)
    walk = Walk(drawn.batches)
    edge_batches = [edge_batch(ctx.dyng, batch) for batch in drawn.batches]
    carried, peers = {}, []
    for b in ctx.settings.backends:
        carried[b], more = _dyng_peers(ctx, b, walk, edge_batches)
        peers += more
    stats = {b: [] for b in ctx.settings.backends}
    checks = _Checks()

    def check(round_index, out):
        _check_round(ctx, round_index, out, carried, checks)
        for b in ctx.settings.backends:
            stats[b].append(_stats(out[f"dyng {b} update"]))
        walk.index += 1

    ctx.log(
        f"update: {len(drawn.batches)} batches of {ctx.settings.changes} changes, "
        f"{', '.join(p.name for p in peers)}, interleaved"
    )
    samples = run_interleaved(
        peers,
        ctx.settings.repeats,
        check=check,
        progress=lambda m: ctx.log(f"update {m}", throttle=True),
    )
    return [
        {
            "section": "update",
            "changes": ctx.settings.changes,
            "peers": {name: summary(s) for name, s in samples.items()},
            "stats": stats,
            "worst_fraction_of_bound": checks.worst_fraction_of_bound,
            "worst_fraction_of_tol": checks.worst_fraction_of_tol,
        }
    ]


def row_lines(row: dict) -> list[str]:
    """The update row of the report."""
    lines = [
        f"update, {row['changes']} changes a batch: first batch after compute, then the "
        "median of the steady ones",
        f"  {'peer':<32} {'first ms':>10} {'steady ms':>10}",
    ]
    lines += [
        f"  {name:<32} {p['first_ms']:>10.2f} {p['ms']:>10.2f}" for name, p in row["peers"].items()
    ]
    for backend, rounds in row["stats"].items():
        lines.append(
            f"  {backend} updates: "
            + ", ".join(
                f"{r['path']} ({r['iterations']} iterations, {r['vertices_touched']:,} vertices "
                f"touched, {r['frontier_size']:,} seeds)"
                for r in rounds[:3]
            )
            + (", ..." if len(rounds) > 3 else "")
        )
    lines.append(
        f"  checks: worst L1 distance to a fresh compute "
        f"{row['worst_fraction_of_bound']:.3g} of the bound; one more full iteration "
        f"moves the ranks by at most {row['worst_fraction_of_tol']:.3g} of n * tol"
    )
    return lines
