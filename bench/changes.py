"""Edge-change batches for the update benchmark: half insertions, half deletions.

* ``uniform``: insertions between uniformly random vertex pairs, deletions of uniformly random
  existing edges.
* ``local``: a region is grown by BFS (out-edges) from a random vertex with out-edges until it
  holds at least ``count`` vertices and enough out-edges to delete from. Insertions start at a
  region vertex and end nearby: on a grid within a +-``GRID_WINDOW`` square around it, otherwise
  at a 2-hop out-neighbour (two random out-edges in a row). Deletions are uniformly random
  existing edges leaving the region.

Insertions are always new edges (never an existing edge, a self-loop or a repeat within the
batch), so every insertion and every deletion changes the graph. Weights are uniform in 1..100.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from bench.generators import WEIGHT_MAX, WEIGHT_MIN, EdgeGraph

MODES = ("uniform", "local")
GRID_WINDOW = 3
# Candidate rounds before giving up on finding enough new edges (each round draws 2x the rest).
_MAX_ROUNDS = 64


@dataclasses.dataclass(frozen=True)
class ChangeBatch:
    """Insertions (src, dst, weights) and deletions (src, dst) as int32 arrays."""

    insert_src: np.ndarray
    insert_dst: np.ndarray
    insert_weights: np.ndarray
    delete_src: np.ndarray
    delete_dst: np.ndarray
    info: dict

    @property
    def size(self) -> int:
        return int(self.insert_src.size + self.delete_src.size)


def make_changes(graph: EdgeGraph, count: int, mode: str, rng: np.random.Generator) -> ChangeBatch:
    """``count // 2`` deletions and ``count - count // 2`` insertions drawn from ``rng``.

    Examples
    --------
    >>> from bench.generators import grid
    >>> batch = make_changes(grid(8, 8), 10, "local", np.random.default_rng(0))
    >>> batch.insert_src.size, batch.delete_src.size
    (5, 5)
    """
    if mode not in MODES:
        raise ValueError(f"make_changes(): unknown mode {mode!r}; use one of {MODES}")
    num_delete = count // 2
    num_insert = count - num_delete
    if num_delete > graph.num_edges:
        raise ValueError(
            f"make_changes(): {num_delete} deletions requested but {graph.name} has "
            f"only {graph.num_edges} edges; pass fewer changes"
        )
    row_ptr = graph.row_ptr()
    keys = graph.edge_keys()
    if mode == "uniform":
        delete_idx = rng.choice(graph.num_edges, size=num_delete, replace=False)
        ins_src, ins_dst = _new_edges(
            graph, keys, num_insert, rng, lambda k: _uniform_pairs(graph.num_vertices, k, rng)
        )
        info = {"mode": mode}
    else:
        region = _bfs_region(graph, row_ptr, count, num_delete, rng)
        region_edges = _edges_of(row_ptr, region)
        delete_idx = rng.choice(region_edges, size=num_delete, replace=False)
        sources = region[row_ptr[region + 1] > row_ptr[region]]

        def candidates(k):
            start = rng.choice(sources, size=k)
            if graph.grid_shape is not None:
                return start, _grid_nearby(graph.grid_shape, start, rng)
            return start, _two_hop(graph, row_ptr, start, rng)

        ins_src, ins_dst = _new_edges(graph, keys, num_insert, rng, candidates)
        info = {
            "mode": mode,
            "centre": int(region[0]),
            "region_vertices": int(region.size),
            "region_edges": int(region_edges.size),
        }
    delete_idx = np.sort(delete_idx)
    weights = rng.integers(WEIGHT_MIN, WEIGHT_MAX + 1, size=num_insert, dtype=np.int32)
    return ChangeBatch(
        ins_src.astype(np.int32),
        ins_dst.astype(np.int32),
        weights,
        graph.src[delete_idx].copy(),
        graph.dst[delete_idx].copy(),
        info,
    )


def apply_to_edges(graph: EdgeGraph, batch: ChangeBatch) -> EdgeGraph:
    """The edge list after ``batch`` (deletions, then insertions), sorted like the generators'."""
    n = graph.num_vertices
    keys = graph.edge_keys()
    gone = np.isin(keys, batch.delete_src.astype(np.int64) * n + batch.delete_dst)
    src = np.concatenate([graph.src[~gone], batch.insert_src])
    dst = np.concatenate([graph.dst[~gone], batch.insert_dst])
    weights = np.concatenate([graph.weights[~gone], batch.insert_weights])
    order = np.argsort(src.astype(np.int64) * n + dst, kind="stable")
    return dataclasses.replace(graph, src=src[order], dst=dst[order], weights=weights[order])


def split(batch: ChangeBatch, parts: int, rng: np.random.Generator) -> list[ChangeBatch]:
    """``batch`` as ``parts`` batches applied one after another (the steady updates): each gets
    an equal share of its insertions (in draw order) and of its deletions (shuffled first, since
    they come sorted by edge and a slice would hold low vertex ids only). The batch's insertions
    are distinct new edges and its deletions distinct existing ones, so every part changes the
    graph that the parts before it left.

    Examples
    --------
    >>> from bench.generators import grid
    >>> rng = np.random.default_rng(0)
    >>> parts = split(make_changes(grid(8, 8), 12, "uniform", rng), 3, rng)
    >>> [p.size for p in parts]
    [4, 4, 4]
    """
    order = rng.permutation(batch.delete_src.size)
    ins = np.array_split(np.arange(batch.insert_src.size), parts)
    dels = np.array_split(order, parts)
    return [
        ChangeBatch(
            batch.insert_src[i],
            batch.insert_dst[i],
            batch.insert_weights[i],
            batch.delete_src[d],
            batch.delete_dst[d],
            {**batch.info, "part": k, "parts": parts},
        )
        for k, (i, d) in enumerate(zip(ins, dels))
    ]


def _uniform_pairs(n: int, k: int, rng: np.random.Generator):
    src = rng.integers(0, n, size=k)
    return src, rng.integers(0, n, size=k)


def _new_edges(
    graph: EdgeGraph, keys: np.ndarray, wanted: int, rng: np.random.Generator, candidates
) -> tuple[np.ndarray, np.ndarray]:
    """Draws candidate pairs until ``wanted`` distinct absent non-loop edges are found."""
    n = graph.num_vertices
    chosen = np.empty(0, dtype=np.int64)
    for _ in range(_MAX_ROUNDS):
        missing = wanted - chosen.size
        if missing <= 0:
            break
        src, dst = candidates(2 * missing)
        cand = src.astype(np.int64) * n + dst
        cand = cand[(src != dst) & (dst >= 0)]
        pos = np.minimum(np.searchsorted(keys, cand), keys.size - 1)
        cand = cand[keys[pos] != cand] if keys.size else cand
        # Keep first occurrences in draw order so the batch does not depend on sorting details.
        _, first = np.unique(np.concatenate([chosen, cand]), return_index=True)
        merged = np.concatenate([chosen, cand])[np.sort(first)]
        chosen = merged[:wanted]
    if chosen.size < wanted:
        raise ValueError(
            f"make_changes(): found only {chosen.size} of {wanted} new edges for "
            f"{graph.name}; the graph is too dense or the region too small"
        )
    return chosen // n, chosen % n


def _edges_of(row_ptr: np.ndarray, vertices: np.ndarray) -> np.ndarray:
    """Indices of all out-edges of ``vertices`` (in the sorted edge list)."""
    begin = row_ptr[vertices]
    length = row_ptr[vertices + 1] - begin
    offsets = np.repeat(begin - np.cumsum(length) + length, length)
    return offsets + np.arange(length.sum())


def _bfs_region(
    graph: EdgeGraph,
    row_ptr: np.ndarray,
    min_vertices: int,
    min_edges: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Vertices in BFS order from a random vertex with out-edges, truncated once big enough."""
    degree = np.diff(row_ptr)
    centre = rng.choice(np.flatnonzero(degree > 0))
    seen = np.zeros(graph.num_vertices, dtype=bool)
    seen[centre] = True
    order = [np.array([centre])]
    frontier = order[0]
    num_vertices, num_edges = 1, int(degree[centre])
    while frontier.size and (num_vertices < min_vertices or num_edges < min_edges):
        nbrs = graph.dst[_edges_of(row_ptr, frontier)]
        _, first = np.unique(nbrs, return_index=True)
        nbrs = nbrs[np.sort(first)]
        frontier = nbrs[~seen[nbrs]]
        seen[frontier] = True
        order.append(frontier)
        num_vertices += frontier.size
        num_edges += int(degree[frontier].sum())
    if num_edges < min_edges:
        raise ValueError(
            f"make_changes(): the region reachable from vertex {centre} of "
            f"{graph.name} has {num_edges} out-edges, fewer than the {min_edges} "
            "deletions requested; pass fewer changes"
        )
    region = np.concatenate(order)
    # Cut to min_vertices, but keep going along the BFS order until there is enough to delete.
    edges_so_far = np.cumsum(degree[region])
    cut = max(min_vertices, int(np.searchsorted(edges_so_far, min_edges)) + 1)
    return region[:cut].astype(np.int64)


def _grid_nearby(shape: tuple[int, int], start: np.ndarray, rng: np.random.Generator):
    rows, cols = shape
    r = start // cols + rng.integers(-GRID_WINDOW, GRID_WINDOW + 1, size=start.size)
    c = start % cols + rng.integers(-GRID_WINDOW, GRID_WINDOW + 1, size=start.size)
    inside = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
    return np.where(inside, r * cols + c, -1)


def _two_hop(graph: EdgeGraph, row_ptr: np.ndarray, start: np.ndarray, rng: np.random.Generator):
    def step(v):
        degree = row_ptr[v + 1] - row_ptr[v]
        pick = row_ptr[v] + (rng.random(v.size) * degree).astype(np.int64)
        return np.where(degree > 0, graph.dst[np.minimum(pick, graph.num_edges - 1)], -1)

    mid = step(start)
    end = step(np.maximum(mid, 0))
    return np.where(mid >= 0, end, -1)
