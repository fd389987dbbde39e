"""The update half of ``python -m bench components`` (bench/components.py says what is measured):
the batch sequence, the dyng peers that walk it (update, apply+recompute, recompute), NetworKit's
dynamic components on the same batches, and the checks of every round."""

from __future__ import annotations

import dataclasses

import numpy as np

from bench import changes, generators, sssp, verify
from bench.timing import Peer, back_to_back_ms, run_interleaved


def scipy_labels(csr, kind):
    """SciPy's component labels (its own numbering) of a directed CSR."""
    import scipy.sparse.csgraph

    return scipy.sparse.csgraph.connected_components(csr, directed=True, connection=kind)[1]


def networkit_labels(algorithm) -> np.ndarray:
    """A NetworKit component algorithm's partition as canonical labels."""
    return verify.canonical_labels(np.asarray(algorithm.getPartition().getVector()))


def labels_of(result) -> np.ndarray:
    """A dyng components result's labels as a NumPy array."""
    return result.labels.to_numpy()


def summary(samples) -> dict:
    """A peer's samples in the JSON: the median, the warm-up (first) round, all rounds."""
    return {"ms": samples.median_ms, "first_ms": samples.warmup_ms[0], "samples_ms": samples.ms}


@dataclasses.dataclass(frozen=True)
class Drawn:
    """The batch sequence, each batch's changes to the underlying undirected graph (NetworKit's
    dynamic peer) and the edge list after the first batch (SciPy's check of the first update)."""

    batches: list[changes.ChangeBatch]
    undirected: list[tuple[np.ndarray, np.ndarray]]
    after_first: generators.EdgeGraph


def draw_batches(edges, settings, progress) -> Drawn:
    """Each batch drawn from the graph the previous ones left."""
    rng = sssp.change_rng(settings.seed, edges.name, "uniform", settings.changes)
    current, batches, undirected, after_first = edges, [], [], None
    for i in range(settings.repeats + 1):
        progress(
            f"drawing batch {i + 1}/{settings.repeats + 1} ({settings.changes} changes)",
            throttle=True,
        )
        batch = changes.make_changes(current, settings.changes, "uniform", rng)
        batches.append(batch)
        undirected.append(_undirected_changes(current, batch))
        if i < settings.repeats:
            current = changes.apply_to_edges(current, batch)
        if i == 0:
            after_first = current
    return Drawn(batches, undirected, after_first)


def _undirected_changes(before: generators.EdgeGraph, batch: changes.ChangeBatch):
    """(added pairs, removed pairs) of the underlying undirected graph, each an (u, v) pair of
    arrays with u < v. A deleted edge removes its pair only if the reverse edge is gone after the
    batch too; an inserted edge adds its pair only if the reverse edge was absent before."""
    n, keys = before.num_vertices, before.edge_keys()
    deleted = batch.delete_src.astype(np.int64) * n + batch.delete_dst
    inserted = batch.insert_src.astype(np.int64) * n + batch.insert_dst

    def reverse(src, dst):
        return dst.astype(np.int64) * n + src

    def present_before(key):
        pos = np.minimum(np.searchsorted(keys, key), keys.size - 1)
        return keys[pos] == key

    rev = reverse(batch.delete_src, batch.delete_dst)
    gone = ~((present_before(rev) & ~np.isin(rev, deleted)) | np.isin(rev, inserted))
    added = ~present_before(reverse(batch.insert_src, batch.insert_dst))
    return (
        _pairs(batch.insert_src[added], batch.insert_dst[added], n),
        _pairs(batch.delete_src[gone], batch.delete_dst[gone], n),
    )


def _pairs(src, dst, n):
    """Unordered pairs (u < v), each once."""
    low, high = np.minimum(src, dst).astype(np.int64), np.maximum(src, dst).astype(np.int64)
    unique = np.unique(low * n + high)
    return unique // n, unique % n


def edge_batch(dyng, batch: changes.ChangeBatch):
    return dyng.EdgeBatch(
        insert=(batch.insert_src, batch.insert_dst), delete=(batch.delete_src, batch.delete_dst)
    )


class Walk:
    """The batch of the round in progress; run_interleaved's check moves it on after a round."""

    def __init__(self, batches):
        self.batches, self.index = batches, 0

    @property
    def batch(self) -> changes.ChangeBatch:
        return self.batches[self.index]


def _dyng_peers(ctx, kind: str, backend: str, walk: Walk, edge_batches):
    """The result that update repairs, and the three dyng peers of one backend, each on its own
    clone of the starting graph."""
    dyng, res = ctx.dyng, ctx.resources[backend]
    updated = ctx.base[backend].clone()
    result = dyng.components.compute(updated, kind=kind, resources=res)
    applied, recomputed = ctx.base[backend].clone(), ctx.base[backend].clone()

    def apply_and_compute(_):
        done = applied.apply(edge_batches[walk.index])
        if (done.inserted_edges, done.deleted_edges) != (
            walk.batch.insert_src.size,
            walk.batch.delete_src.size,
        ):
            raise verify.VerificationError(
                f"Graph.apply(): inserted {done.inserted_edges} and deleted "
                f"{done.deleted_edges} edges, expected {walk.batch.insert_src.size} new edges "
                f"and {walk.batch.delete_src.size} existing ones"
            )
        return dyng.components.compute(applied, kind=kind, resources=res)

    return result, [
        Peer(
            f"dyng {backend} update",
            lambda: edge_batches[walk.index],
            lambda batch: dyng.components.update(updated, batch, result, resources=res),
        ),
        Peer(f"dyng {backend} apply+recompute", lambda: None, apply_and_compute),
        Peer(
            f"dyng {backend} recompute",
            lambda: recomputed.apply(edge_batches[walk.index]),
            lambda _: dyng.components.compute(recomputed, kind=kind, resources=res),
        ),
    ]


def _networkit_dynamic_peer(ctx, walk: Walk, undirected) -> Peer:
    """NetworKit's dynamic connected components on the underlying undirected graph, fed the same
    batches as their changes to that graph. (Its DynWeaklyConnectedComponents on the directed
    graph loses track of its spanning forest once an inserted edge has a reverse twin, and then
    gives wrong labels: bench/README.md.)"""
    nk, edges = ctx.nk, ctx.edges
    pairs = _pairs(edges.src, edges.dst, edges.num_vertices)
    graph = nk.GraphFromCoo(
        (pairs[0].astype(np.uint64), pairs[1].astype(np.uint64)),
        n=edges.num_vertices,
        directed=False,
    )
    dynamic = nk.components.DynConnectedComponents(graph)
    dynamic.run()
    kind = nk.dynamics.GraphEventType

    def events():
        (add_u, add_v), (rem_u, rem_v) = undirected[walk.index]
        adds = list(zip(add_u.tolist(), add_v.tolist()))
        removes = list(zip(rem_u.tolist(), rem_v.tolist()))
        return (
            adds,
            [nk.dynamics.GraphEvent(kind.EDGE_ADDITION, u, v, 1.0) for u, v in adds],
            removes,
            [nk.dynamics.GraphEvent(kind.EDGE_REMOVAL, u, v, 1.0) for u, v in removes],
        )

    def run(state):
        adds, add_events, removes, remove_events = state
        # An addition only merges labels, so all of them go in one call. A removal searches the
        # graph for another path, so the graph must hold exactly the removals before it: one at
        # a time (an updateBatch after all the edits gives wrong labels).
        for u, v in adds:
            graph.addEdge(u, v)
        dynamic.updateBatch(add_events)
        for (u, v), event in zip(removes, remove_events):
            graph.removeEdge(u, v)
            dynamic.update(event)
        return dynamic

    return Peer("networkit dynamic", events, run)


def measure_updates(ctx, kind: str, drawn: Drawn) -> list[dict]:
    """The update rows of `kind`: every peer walks the batch sequence, checked each round."""
    batches, after_first = drawn.batches, drawn.after_first
    dyng, backends = ctx.dyng, ctx.settings.backends
    walk = Walk(batches)
    edge_batches = [edge_batch(dyng, batch) for batch in batches]
    results, peers = {}, []
    for b in backends:
        results[b], more = _dyng_peers(ctx, kind, b, walk, edge_batches)
        peers += more
    if kind == "weak" and ctx.nk_dynamic:
        ctx.log("update weak: starting NetworKit's dynamic components (untimed)")
        peers.append(_networkit_dynamic_peer(ctx, walk, drawn.undirected))
    stats = {b: [] for b in backends}

    def check(round_index, out):
        want = out[f"dyng {backends[0]} recompute"]
        if round_index == 0:
            verify.assert_equal(
                f"components.compute({kind!r}) after the first batch vs SciPy",
                labels_of(want),
                verify.canonical_labels(scipy_labels(verify.scipy_csr(after_first), kind)),
            )
        for b in backends:
            what = f"components.update({kind!r}) ({b}, batch {round_index + 1})"
            for peer in ("recompute", "apply+recompute"):
                _assert_same_result(f"{what} vs {peer}", results[b], out[f"dyng {b} {peer}"])
            _assert_same_result(f"{what} vs {backends[0]} recompute", results[b], want)
            stats[b].append(_stats(out[f"dyng {b} update"]))
        if "networkit dynamic" in out:
            verify.assert_equal(
                f"NetworKit dynamic {kind} components (batch {round_index + 1}) vs dyng",
                networkit_labels(out["networkit dynamic"]),
                labels_of(want),
            )
        walk.index += 1

    ctx.log(
        f"update {kind}: {len(batches)} batches of {ctx.settings.changes} changes, "
        f"{', '.join(p.name for p in peers)}, interleaved"
    )
    samples = run_interleaved(
        peers,
        ctx.settings.repeats,
        check=check,
        progress=lambda m: ctx.log(f"update {kind} {m}", throttle=True),
    )
    peers_summary = {name: summary(s) for name, s in samples.items()}
    for b in backends:
        peers_summary[f"dyng {b} update, back to back"] = _back_to_back(
            ctx, kind, b, edge_batches, results[b]
        )
    return [
        {
            "section": "update",
            "kind": kind,
            "changes": ctx.settings.changes,
            "peers": peers_summary,
            "stats": stats,
        }
    ]


def _back_to_back(ctx, kind, backend, edge_batches, walked) -> dict:
    """The same batches on a clone of the starting graph, each update straight after the one
    before (the first straight after the compute), as a stream of batches runs; the interleaved
    rounds put the other peers, CPU ones included, before each update. Ends equal to the
    interleaved update's result (`walked`), bit for bit."""
    dyng, res = ctx.dyng, ctx.resources[backend]
    ctx.log(f"update {kind}: {backend}, the {len(edge_batches)} batches back to back")
    graph = ctx.base[backend].clone()
    results = []
    times = back_to_back_ms(
        lambda batch: dyng.components.update(graph, batch, results[0], resources=res),
        edge_batches,
        start=lambda: results.append(dyng.components.compute(graph, kind=kind, resources=res)),
    )
    result = results[0]
    _assert_same_result(
        f"components.update({kind!r}) ({backend}, back to back) vs interleaved", result, walked
    )
    return {"ms": float(np.median(times[1:])), "first_ms": times[0], "samples_ms": times[1:]}


def _assert_same_result(what, result, reference) -> None:
    verify.assert_equal(f"{what}: labels", labels_of(result), labels_of(reference))
    verify.assert_equal(f"{what}: sizes", result.sizes.to_numpy(), reference.sizes.to_numpy())
    if result.count != reference.count:
        raise verify.VerificationError(f"{what}: count {result.count}, expected {reference.count}")


_STATS_FIELDS = (
    "path",
    "fallback_used",
    "merged",
    "split",
    "relabelled",
    "searches",
    "search_size",
)


def _stats(stats) -> dict:
    return {name: sssp._plain(getattr(stats, name, None)) for name in _STATS_FIELDS}
