"""The sssp benchmark: dyng compute against SciPy's Dijkstra, dyng update against recompute.

Per graph it measures, with peers interleaved and the median of ``repeats`` rounds reported:

* compute: dyng sequential, dyng OpenMP and ``scipy.sparse.csgraph.dijkstra(csr, indices=0)``
  on the same graph; graph and CSR construction happen before timing.
* update, per change mode and size and per backend: ``sssp.update`` on a fresh clone with a
  fresh result against recompute (on another clone, a timed ``Graph.apply`` of the same batch
  followed by ``sssp.compute``: what a user without ``update`` would run). Both peers include
  applying the batch. Every round checks update == recompute (distances and parents).

The first round of each measurement is a warm-up and also the one checked against SciPy and a
NumPy reconstruction of the canonical parents.

First against steady (issue 44: no first-call tax), per backend, in ``first_<b>_ms`` and
``steady_<b>_ms``:

* compute: the first call on the freshly built graph (the warm-up round) against the median.
* update: the first update of a fresh result after its compute (the median above) against the
  steady ones: after that first batch, ``repeats`` further batches of the same size and mode
  (one draw of ``repeats`` times the size from the changed graph, split in parts) updating the
  same result, each timed and checked against a fresh compute of the updated graph (untimed).
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import statistics
import time
import zlib

import numpy as np

from bench import changes, generators, verify
from bench.timing import Peer, Samples, quiet_ms, run_interleaved

SOURCE = 0
DEFAULT_GRAPHS = ("rmat18", "rmat20", "uniform18", "grid512", "grid1000", "road1000")
QUICK_GRAPHS = ("rmat18", "uniform16", "grid512", "road512")
DEFAULT_CHANGES = (1000, 10000)
BACKENDS = ("seq", "omp")
ALL_BACKENDS = ("seq", "omp", "cuda")
LABELS = {"seq": "sequential", "omp": "OpenMP", "cuda": "CUDA"}
# Device-to-device copy bandwidth measured on the lent H200 (about 4.3 TB/s counting bytes read
# and written); the CUDA compute rows report which fraction of it the search reaches.
H200_COPY_BYTES_PER_S = 4.3e12


def compulsory_bytes(n: int, m: int) -> int:
    """Bytes an sssp compute cannot avoid moving with int32 ids and offsets: every out-edge
    (column + weight) once for the search and every in-edge once for the parents, both
    directions' row offsets, distances written twice (initialised, final) and parents once."""
    return 2 * m * (4 + 4) + 2 * 2 * n * 4 + n * (8 * 2 + 4)


@dataclasses.dataclass(frozen=True)
class Settings:
    graphs: tuple[str, ...] = DEFAULT_GRAPHS
    repeats: int = 5
    seed: int = 1
    threads: int = 2
    change_counts: tuple[int, ...] = DEFAULT_CHANGES
    modes: tuple[str, ...] = changes.MODES
    backends: tuple[str, ...] = BACKENDS
    # SciPy's Dijkstra is the compute peer and the oracle; on R-MAT 22 it takes seconds a run,
    # so GPU runs may leave it out (the backends are then checked against each other).
    scipy: bool = True


def change_rng(seed: int, graph: str, mode: str, count: int) -> np.random.Generator:
    """Batch stream per (graph, mode, size); crc32 is stable across runs, unlike hash()."""
    return np.random.default_rng([seed, zlib.crc32(f"{graph}/{mode}/{count}".encode())])


def run(dyng, settings: Settings, progress) -> tuple[list[dict], list[dict]]:
    """Runs every measurement; returns (graph descriptions, result rows)."""
    makers = {
        "seq": lambda: dyng.Resources.sequential(),
        "omp": lambda: dyng.Resources.openmp(num_threads=settings.threads),
        "cuda": lambda: dyng.Resources.cuda(),
    }
    resources = {b: makers[b]() for b in settings.backends}
    graphs, rows = [], []
    for name in settings.graphs:
        log = _prefixed(progress, name)
        edges, info = _generate(name, settings.seed, log)
        graphs.append(info)
        log("building SciPy CSR and dyng graphs (untimed)")
        start = time.perf_counter()
        csr = verify.scipy_csr(edges) if settings.scipy else None
        base = {b: _dyng_graph(dyng, edges, resources[b]) for b in settings.backends}
        info["build_seconds"] = round(time.perf_counter() - start, 3)
        rows.append(_measure_compute(dyng, edges, csr, base, resources, settings, log))
        del csr
        for mode in settings.modes:
            for count in settings.change_counts:
                rows.append(
                    _measure_update(dyng, edges, base, resources, settings, mode, count, log)
                )
        del base, edges
    return graphs, rows


def _prefixed(progress, prefix: str):
    return lambda message, **kw: progress(f"{prefix}: {message}", **kw)


def _generate(name: str, seed: int, log) -> tuple[generators.EdgeGraph, dict]:
    log(f"generating with seed {seed} (vectorised NumPy; R-MAT 20 takes a few seconds)")
    start = time.perf_counter()
    edges = generators.by_name(name, seed)
    seconds = time.perf_counter() - start
    log(f"generated n={edges.num_vertices:,} m={edges.num_edges:,} in {seconds:.1f} s")
    info = {
        "name": name,
        "n": edges.num_vertices,
        "m": edges.num_edges,
        "params": edges.params,
        "generate_seconds": round(seconds, 3),
    }
    return edges, info


def _dyng_graph(dyng, edges: generators.EdgeGraph, res):
    graph = dyng.Graph.from_edges(
        edges.src, edges.dst, edges.weights, num_vertices=edges.num_vertices, resources=res
    )
    if graph.num_edges != edges.num_edges:
        raise verify.VerificationError(
            f"Graph.from_edges(): {graph.num_edges} edges stored for {edges.name}, expected "
            f"{edges.num_edges} (the list has no duplicates or self-loops)"
        )
    return graph


def _arrays(result) -> tuple[np.ndarray, np.ndarray]:
    return result.distances.to_numpy(), result.parents.to_numpy()


def _check_against_oracle(what: str, edges, result, reference_distances) -> None:
    distances, parents = _arrays(result)
    verify.assert_equal(f"{what} distances vs SciPy", distances, reference_distances)
    verify.assert_equal(
        f"{what} parents vs canonical parents",
        parents,
        verify.canonical_parents(edges, reference_distances, SOURCE),
    )


def _measure_compute(dyng, edges, csr, base, resources, settings: Settings, log) -> dict:
    backends = settings.backends
    peers = [
        Peer(
            f"dyng_{b}",
            lambda: None,
            lambda _, b=b: dyng.sssp.compute(base[b], SOURCE, resources=resources[b]),
        )
        for b in backends
    ]
    if settings.scipy:
        peers.append(Peer("scipy", lambda: None, lambda _: verify.scipy_distances(csr, SOURCE)))

    def check(round_index, out):
        first = backends[0]
        first_dist, first_parents = _arrays(out[f"dyng_{first}"])
        if settings.scipy:
            scipy_dist = verify.as_dyng_distances(out["scipy"])
            if round_index == 0:
                _check_against_oracle(
                    f"sssp.compute ({LABELS[first]})", edges, out[f"dyng_{first}"], scipy_dist
                )
            verify.assert_equal(
                f"sssp.compute ({LABELS[first]}) distances vs SciPy", first_dist, scipy_dist
            )
        for b in backends[1:]:
            dist, parents = _arrays(out[f"dyng_{b}"])
            verify.assert_equal(
                f"sssp.compute ({LABELS[b]}) distances vs {LABELS[first]}", dist, first_dist
            )
            verify.assert_equal(
                f"sssp.compute ({LABELS[b]}) parents vs {LABELS[first]}", parents, first_parents
            )

    log(
        f"compute: {' / '.join(backends)} (OpenMP {settings.threads} threads)"
        f"{' / SciPy' if settings.scipy else ''}, interleaved"
    )
    samples = run_interleaved(
        peers, settings.repeats, check=check, progress=lambda m: log(f"compute {m}", throttle=True)
    )
    scipy_ms = samples["scipy"].median_ms if settings.scipy else None
    row = _row(edges, "compute", "scipy.dijkstra" if settings.scipy else "none")
    for b in backends:
        ms = samples[f"dyng_{b}"].median_ms
        row.update(
            {
                f"dyng_{b}_ms": ms,
                f"first_{b}_ms": samples[f"dyng_{b}"].warmup_ms[0],
                f"steady_{b}_ms": ms,
                f"ref_{b}_ms": scipy_ms,
                f"ratio_{b}": ms / scipy_ms if scipy_ms else None,
            }
        )
        if b == "cuda":
            # Traversed edges per second (stored edges / time), the GPU literature's unit, and
            # the share of the H200's copy bandwidth the compulsory traffic implies.
            row["cuda_gteps"] = edges.num_edges / (ms * 1e-3) / 1e9
            row["cuda_bandwidth_fraction"] = (
                compulsory_bytes(edges.num_vertices, edges.num_edges)
                / (ms * 1e-3)
                / H200_COPY_BYTES_PER_S
            )
    row["samples"] = {name: dataclasses.asdict(s) for name, s in samples.items()}
    log(
        "compute: "
        + ", ".join(f"{b} {row[f'dyng_{b}_ms']:.2f} ms" for b in backends)
        + (f", SciPy {scipy_ms:.1f} ms" if scipy_ms else "")
    )
    return row


def _measure_update(
    dyng, edges, base, resources, settings: Settings, mode: str, count: int, log
) -> dict:
    label = f"update {mode} {count}"
    log(f"{label}: drawing the batch")
    batch = changes.make_changes(
        edges, count, mode, change_rng(settings.seed, edges.name, mode, count)
    )
    edge_batch = _edge_batch(dyng, batch)
    log(f"{label}: SciPy reference on the changed graph (untimed)")
    changed = changes.apply_to_edges(edges, batch)
    reference = (
        verify.as_dyng_distances(verify.scipy_distances(verify.scipy_csr(changed), SOURCE))
        if settings.scipy
        else None
    )
    case = _Case(batch, edge_batch, changed, reference)
    row = _row(edges, label, "recompute")
    row.update({"mode": mode, "changes": count, "batch": batch.info, "samples": {}, "stats": {}})
    later = _steady_batches(dyng, changed, settings, mode, count, log)
    for b in settings.backends:
        samples, stats, apply_ms, expected = _update_vs_recompute(
            dyng, base[b], case, resources[b], settings.repeats, _prefixed(log, f"{label} {b}")
        )
        steady, steady_path = _steady_updates(
            dyng, base[b], edge_batch, later, expected, resources[b]
        )
        update_ms, recompute_ms = samples["update"].median_ms, samples["recompute"].median_ms
        samples["steady"] = steady
        row.update(
            {
                f"dyng_{b}_ms": update_ms,
                f"first_{b}_ms": update_ms,
                f"steady_{b}_ms": steady.median_ms if steady.ms else None,
                f"ref_{b}_ms": recompute_ms,
                f"ratio_{b}": update_ms / recompute_ms,
                f"path_{b}": _paths(stats),
                f"steady_path_{b}": steady_path,
                f"apply_{b}_ms": apply_ms,
            }
        )
        row["samples"].update({f"{b}_{k}": dataclasses.asdict(s) for k, s in samples.items()})
        row["stats"][b] = stats
        log(
            f"{label} {b}: update {update_ms:.2f} ms (steady {row[f'steady_{b}_ms'] or 0:.2f} ms), "
            f"recompute {recompute_ms:.2f} ms, "
            f"path {row[f'path_{b}']} (steady: {steady_path}; Graph.apply alone {apply_ms:.2f} ms)"
        )
    return row


def _edge_batch(dyng, batch: changes.ChangeBatch):
    return dyng.EdgeBatch(
        insert=(batch.insert_src, batch.insert_dst, batch.insert_weights),
        delete=(batch.delete_src, batch.delete_dst),
    )


def _steady_batches(dyng, changed, settings: Settings, mode: str, count: int, log) -> list:
    """The ``repeats`` batches that follow the first: one draw from the changed graph, split."""
    rng = change_rng(settings.seed + 1, changed.name, mode, count)
    try:
        drawn = changes.make_changes(changed, count * settings.repeats, mode, rng)
    except ValueError as error:
        log(f"update {mode} {count}: no steady updates ({error})")
        return []
    return [_edge_batch(dyng, part) for part in changes.split(drawn, settings.repeats, rng)]


def _steady_updates(dyng, base, first, later: list, expected, res):
    """Updates of one result after its first (``first``, checked against ``expected``): each of
    ``later`` timed, then checked against a fresh compute of the updated graph. Returns their
    Samples and the paths they took."""
    graph = base.clone()
    result = dyng.sssp.compute(graph, SOURCE, resources=res)
    dyng.sssp.update(graph, first, result, resources=res)
    _assert_same("first sssp.update of the steady chain", _arrays(result), expected)
    samples, paths = Samples("steady"), []
    for k, batch in enumerate(later):
        ms, st = quiet_ms(functools.partial(dyng.sssp.update, graph, batch, result, resources=res))
        samples.ms.append(ms)
        paths.append({"path": _plain(getattr(st, "path", None))})
        fresh = dyng.sssp.compute(graph, SOURCE, resources=res)
        _assert_same(f"steady sssp.update {k + 1} vs recompute", _arrays(result), _arrays(fresh))
    return samples, _paths(paths) if paths else None


def _assert_same(what: str, got, want) -> None:
    verify.assert_equal(f"{what} distances", got[0], want[0])
    verify.assert_equal(f"{what} parents", got[1], want[1])


@dataclasses.dataclass(frozen=True)
class _Case:
    """One batch: as NumPy arrays, as a dyng.EdgeBatch, and the changed graph with its distances."""

    batch: changes.ChangeBatch
    edge_batch: object
    changed: generators.EdgeGraph
    reference: np.ndarray


def _update_vs_recompute(dyng, base, case: _Case, res, repeats: int, log):
    """Times update (A) against apply + compute (B) on fresh clones; checks A == B each round."""
    batch, edge_batch = case.batch, case.edge_batch

    def fresh_state():
        graph = base.clone()
        return graph, dyng.sssp.compute(graph, SOURCE, resources=res)

    def update(state):
        graph, result = state
        return graph, result, dyng.sssp.update(graph, edge_batch, result, resources=res)

    apply_ms = []

    def changed_clone():
        return base.clone()

    def recompute(graph):
        # The peer a user without dyng.update would run: apply the batch, then compute afresh.
        # Both peers therefore pay for Graph.apply; its share is recorded on its own.
        start = time.perf_counter()
        summary = graph.apply(edge_batch)
        apply_ms.append((time.perf_counter() - start) * 1e3)
        if (summary.inserted_edges, summary.deleted_edges) != (
            batch.insert_src.size,
            batch.delete_src.size,
        ):
            raise verify.VerificationError(
                f"Graph.apply(): inserted {summary.inserted_edges} and deleted "
                f"{summary.deleted_edges} edges, expected {batch.insert_src.size} new edges and "
                f"{batch.delete_src.size} existing ones"
            )
        return graph, dyng.sssp.compute(graph, SOURCE, resources=res), None

    stats, expected = [], []

    def check(round_index, out):
        _, updated, st = out["update"]
        _, recomputed, _ = out["recompute"]
        if round_index == 0:
            expected.append(_arrays(recomputed))
        if round_index == 0 and case.reference is not None:
            _check_against_oracle(
                "recompute after the batch", case.changed, recomputed, case.reference
            )
        upd_dist, upd_parents = _arrays(updated)
        rec_dist, rec_parents = _arrays(recomputed)
        verify.assert_equal("sssp.update distances vs recompute", upd_dist, rec_dist)
        verify.assert_equal("sssp.update parents vs recompute", upd_parents, rec_parents)
        stats.append(
            {
                field: _plain(getattr(st, field, None))
                for field in ("path", "fallback_used", "affected", "invalidated")
            }
        )

    peers = [Peer("update", fresh_state, update), Peer("recompute", changed_clone, recompute)]
    samples = run_interleaved(peers, repeats, check=check, progress=lambda m: log(m, throttle=True))
    return samples, stats, statistics.median(apply_ms[1:] or apply_ms), expected[0]


def _plain(value):
    """Stats values as JSON-friendly scalars (an enum becomes its name)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(getattr(value, "name", value))


def _paths(stats: list[dict]) -> str:
    """The update path that ran, e.g. "incremental" or "incremental 5/recompute 1" if mixed."""
    counts = collections.Counter(str(s["path"]) for s in stats)
    if len(counts) == 1:
        return next(iter(counts))
    return "/".join(f"{path} {n}" for path, n in counts.most_common())


def _row(edges, operation: str, reference: str) -> dict:
    return {
        "graph": edges.name,
        "n": edges.num_vertices,
        "m": edges.num_edges,
        "operation": operation,
        "reference": reference,
    }
