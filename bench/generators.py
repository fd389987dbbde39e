"""Deterministic benchmark graphs, as sorted directed edge lists, one per graph class of issue 44:
R-MAT (skewed degrees), uniform (every out-degree equal), 4-neighbour grids and road-like grids
(high diameter).

Every generator returns an `EdgeGraph` whose edges are sorted by (src, dst), free of self-loops
and duplicates, with one int32 weight per directed edge: uniform in 1..100, except on road-like
grids (below).

Random streams (so that another benchmark, e.g. a GPU one at R-MAT scale 22, gets the very same
graph from the same seed):

* Generator: ``numpy.random.default_rng(seed)`` (PCG64 seeded through ``SeedSequence(seed)``).
* R-MAT edges: edge ``i`` (``0 <= i < edge_factor * 2**scale``) consumes the float64 draws
  ``i*scale .. i*scale + scale - 1`` of the stream, i.e. ``rng.random((draws, scale))`` in
  row-major order (we draw it in row chunks, which yields the same stream). Draw ``j`` of an
  edge picks the quadrant for bit ``scale-1-j`` (most significant bit first): ``u < a`` ->
  (0, 0); ``u < a+b`` -> (0, 1); ``u < a+b+c`` -> (1, 0); else (1, 1), as (src bit, dst bit).
  No vertex permutation and no noise. Self-loops are then dropped and duplicates merged.
* Weights: after the edges, the same generator draws ``rng.integers(1, 101, size=m,
  dtype=int32)`` in one call, assigned to the final edges in (src, dst) order. Grids use a fresh
  ``default_rng(seed)`` for their weights since their edges need no random draws.
* Uniform edges (``uniform<scale>``: ``2**scale`` vertices, out-degree ``degree``, 16 by
  default): in row blocks of ``_UNIFORM_ROWS`` vertices, ``rng.integers(0, n - 1, size=(rows,
  degree))``, a draw ``t >= v`` of row ``v`` becoming ``t + 1`` (no self-loop); each row is
  sorted and a repeated target is redrawn (the block's repeats in row order, one draw each) until
  the block has none. The weights then come as for R-MAT.
* Road-like grids (``road<side>``, ``road<rows>x<cols>``): the streets of the 4-neighbour grid
  (each pair of neighbours once, rows' streets first, then columns'); ``rng.random(streets) <
  ROAD_CLOSED`` closes a street (both directions gone), then each open street gets one travel
  time ``rng.integers(ROAD_TIME_MIN, ROAD_TIME_MAX + 1)``, the same both ways. The fraction
  closed is dyng.generators.street_grid's (one block in eight), so the class is the public
  generator's street grid; the times, 10..1000, span two decades (an avenue against a side
  street) where 1..100 spans one: the spread that makes road networks hard for bucketed
  searches. (The bench draws its own streets because the scripts also run on dyng 0.2.0, which
  has no dyng.generators.street_grid.)
"""

from __future__ import annotations

import dataclasses

import numpy as np

RMAT_ABC = (0.57, 0.19, 0.19)
WEIGHT_MIN = 1
WEIGHT_MAX = 100
# Row chunk for the R-MAT draws: 2**19 edges x scale 20 doubles = 80 MiB at a time.
_RMAT_CHUNK = 1 << 19
UNIFORM_DEGREE = 16
# Row block of the uniform draws: 2**20 rows x 16 int64 draws = 128 MiB at a time.
_UNIFORM_ROWS = 1 << 20
ROAD_CLOSED = 0.125
ROAD_TIME_MIN, ROAD_TIME_MAX = 10, 1000


@dataclasses.dataclass(frozen=True)
class EdgeGraph:
    """A weighted directed edge list sorted by (src, dst); ids are int32, weights int32."""

    name: str
    num_vertices: int
    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray
    params: dict
    # (rows, cols) for grids: the change generator uses it to find nearby vertices.
    grid_shape: tuple[int, int] | None = None

    @property
    def num_edges(self) -> int:
        return int(self.src.size)

    def row_ptr(self) -> np.ndarray:
        """CSR row offsets (int64, n + 1 entries) of the sorted edge list."""
        counts = np.bincount(self.src, minlength=self.num_vertices)
        ptr = np.zeros(self.num_vertices + 1, dtype=np.int64)
        np.cumsum(counts, out=ptr[1:])
        return ptr

    def edge_keys(self) -> np.ndarray:
        """``src * n + dst`` as int64; ascending because the edges are sorted."""
        return self.src.astype(np.int64) * self.num_vertices + self.dst


def _weights(rng: np.random.Generator, m: int) -> np.ndarray:
    return rng.integers(WEIGHT_MIN, WEIGHT_MAX + 1, size=m, dtype=np.int32)


def _check_probabilities(a: float, b: float, c: float) -> None:
    if min(a, b, c) < 0 or a + b + c > 1:
        raise ValueError(
            f"rmat(): quadrant probabilities a={a}, b={b}, c={c} are not a "
            "distribution; pass non-negative a, b, c with a + b + c <= 1"
        )


def rmat_endpoints(
    scale: int, num_draws: int, rng: np.random.Generator, abc: tuple[float, float, float] = RMAT_ABC
) -> tuple[np.ndarray, np.ndarray]:
    """Raw R-MAT endpoints (int64, with self-loops and duplicates) for ``num_draws`` edges."""
    a, b, c = abc
    _check_probabilities(a, b, c)
    if not 1 <= scale <= 30:
        raise ValueError(f"rmat(): scale {scale} is out of range; pass 1 <= scale <= 30")
    src = np.empty(num_draws, dtype=np.int64)
    dst = np.empty(num_draws, dtype=np.int64)
    # Bit weights, most significant first, so a row of quadrant bits dots to a vertex id.
    bit_values = (1 << np.arange(scale - 1, -1, -1, dtype=np.int64)).astype(np.float64)
    for begin in range(0, num_draws, _RMAT_CHUNK):
        end = min(begin + _RMAT_CHUNK, num_draws)
        u = rng.random((end - begin, scale))
        src_bit = u >= a + b
        dst_bit = (u >= a) & ~src_bit | (u >= a + b + c)
        # float64 matmul is exact here (ids < 2**31) and far faster than a per-level loop.
        src[begin:end] = src_bit.astype(np.float64) @ bit_values
        dst[begin:end] = dst_bit.astype(np.float64) @ bit_values
    return src, dst


def rmat(
    scale: int, edge_factor: int = 16, seed: int = 1, abc: tuple[float, float, float] = RMAT_ABC
) -> EdgeGraph:
    """R-MAT graph with ``2**scale`` vertices from ``edge_factor * 2**scale`` edge draws.

    Examples
    --------
    >>> g = rmat(8, 4, seed=1)
    >>> g.num_vertices, bool((g.src != g.dst).all())
    (256, True)
    """
    n = 1 << scale
    rng = np.random.default_rng(seed)
    src, dst = rmat_endpoints(scale, edge_factor * n, rng, abc)
    keys = (src << scale) | dst
    del src, dst
    keys = keys[(keys >> scale) != (keys & (n - 1))]
    # sort + neighbour compare: np.unique is an order of magnitude slower at this size.
    keys.sort()
    keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    out_src = (keys >> scale).astype(np.int32)
    out_dst = (keys & (n - 1)).astype(np.int32)
    a, b, c = abc
    params = {
        "kind": "rmat",
        "scale": scale,
        "edge_factor": edge_factor,
        "seed": seed,
        "a": a,
        "b": b,
        "c": c,
        "d": round(1.0 - a - b - c, 12),
        "draws": edge_factor * n,
        "weights": [WEIGHT_MIN, WEIGHT_MAX],
    }
    return EdgeGraph(f"rmat{scale}", n, out_src, out_dst, _weights(rng, keys.size), params)


def _check_shape(function: str, rows: int, cols: int) -> None:
    if rows < 1 or cols < 1:
        raise ValueError(f"{function}(): shape {rows}x{cols} is empty; pass rows, cols >= 1")


def _grid_streets(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Both ends (int64) of each pair of grid neighbours, once: rows' streets, then columns'."""
    ids = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    return (
        np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()]),
        np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()]),
    )


def _both_ways_sorted(a: np.ndarray, b: np.ndarray, n: int, *columns: np.ndarray):
    """(src, dst, *columns) of the edges a->b and b->a, sorted by (src, dst); ids int32."""
    src, dst = np.concatenate([a, b]), np.concatenate([b, a])
    order = np.argsort(src * n + dst, kind="stable")
    doubled = [np.concatenate([c, c])[order] for c in columns]
    return (src[order].astype(np.int32), dst[order].astype(np.int32), *doubled)


def _shape_name(kind: str, rows: int, cols: int) -> str:
    return f"{kind}{rows}" if rows == cols else f"{kind}{rows}x{cols}"


def grid(rows: int, cols: int, seed: int = 1) -> EdgeGraph:
    """4-neighbour ``rows x cols`` grid, vertex ``r * cols + c``, every edge in both directions.

    Examples
    --------
    >>> g = grid(2, 3)
    >>> g.num_vertices, g.num_edges
    (6, 14)
    """
    _check_shape("grid", rows, cols)
    n = rows * cols
    src, dst = _both_ways_sorted(*_grid_streets(rows, cols), n)
    params = {
        "kind": "grid",
        "rows": rows,
        "cols": cols,
        "seed": seed,
        "weights": [WEIGHT_MIN, WEIGHT_MAX],
    }
    return EdgeGraph(
        _shape_name("grid", rows, cols),
        n,
        src,
        dst,
        _weights(np.random.default_rng(seed), src.size),
        params,
        (rows, cols),
    )


def road(rows: int, cols: int, seed: int = 1) -> EdgeGraph:
    """Road-like ``rows x cols`` grid: about one street in eight closed, each open street two-way
    with one travel time in ``ROAD_TIME_MIN..ROAD_TIME_MAX`` (see the module's stream notes).

    Examples
    --------
    >>> g = road(16, 16, seed=1)
    >>> g.num_edges < grid(16, 16).num_edges, int(g.weights.max()) > WEIGHT_MAX
    (True, True)
    """
    _check_shape("road", rows, cols)
    n = rows * cols
    a, b = _grid_streets(rows, cols)
    rng = np.random.default_rng(seed)
    kept = rng.random(a.size) >= ROAD_CLOSED
    a, b = a[kept], b[kept]
    times = rng.integers(ROAD_TIME_MIN, ROAD_TIME_MAX + 1, size=a.size, dtype=np.int32)
    src, dst, weights = _both_ways_sorted(a, b, n, times)
    params = {
        "kind": "road",
        "rows": rows,
        "cols": cols,
        "seed": seed,
        "closed": ROAD_CLOSED,
        "streets": int(a.size),
        "weights": [ROAD_TIME_MIN, ROAD_TIME_MAX],
    }
    return EdgeGraph(_shape_name("road", rows, cols), n, src, dst, weights, params, (rows, cols))


def uniform(scale: int, degree: int = UNIFORM_DEGREE, seed: int = 1) -> EdgeGraph:
    """``2**scale`` vertices, each with ``degree`` out-edges to distinct other vertices drawn
    uniformly (see the module's stream notes); ``m = degree * 2**scale`` exactly.

    Examples
    --------
    >>> g = uniform(6, 4, seed=1)
    >>> g.num_edges, int(g.row_ptr()[1]), bool((g.src != g.dst).all())
    (256, 4, True)
    """
    if not 1 <= scale <= 30:
        raise ValueError(f"uniform(): scale {scale} is out of range; pass 1 <= scale <= 30")
    n = 1 << scale
    if not 1 <= degree < n:
        raise ValueError(
            f"uniform(): out-degree {degree} does not fit {n} vertices without self-loops or "
            f"parallel edges; pass 1 <= degree <= {n - 1}"
        )
    rng = np.random.default_rng(seed)
    dst = np.empty(n * degree, dtype=np.int32)
    for begin in range(0, n, _UNIFORM_ROWS):
        end = min(begin + _UNIFORM_ROWS, n)
        dst[begin * degree : end * degree] = _distinct_targets(begin, end, degree, n, rng).ravel()
    src = np.repeat(np.arange(n, dtype=np.int32), degree)
    params = {
        "kind": "uniform",
        "scale": scale,
        "degree": degree,
        "seed": seed,
        "weights": [WEIGHT_MIN, WEIGHT_MAX],
    }
    return EdgeGraph(f"uniform{scale}", n, src, dst, _weights(rng, dst.size), params)


def _distinct_targets(begin: int, end: int, degree: int, n: int, rng) -> np.ndarray:
    """Sorted rows of ``degree`` distinct targets for vertices ``begin .. end - 1``, none the
    row's own vertex: repeats are redrawn until a block has none."""
    rows = np.arange(begin, end, dtype=np.int64)[:, None]
    targets = rng.integers(0, n - 1, size=(end - begin, degree))
    targets += targets >= rows
    while True:
        targets.sort(axis=1)
        repeated = np.zeros(targets.shape, dtype=bool)
        repeated[:, 1:] = targets[:, 1:] == targets[:, :-1]
        which = np.nonzero(repeated)
        if which[0].size == 0:
            return targets
        fresh = rng.integers(0, n - 1, size=which[0].size)
        targets[which] = fresh + (fresh >= rows[which[0], 0])


def parse_name(name: str) -> tuple[str, tuple[int, ...]]:
    """``rmat<s>`` -> ("rmat", (s,)); ``uniform<s>`` -> ("uniform", (s,)); ``grid<side>``,
    ``grid<rows>x<cols>`` -> ("grid", shape); ``road...`` likewise."""
    for kind in ("rmat", "uniform"):
        if name.startswith(kind) and name[len(kind) :].isdigit():
            return kind, _sizes(name, int(name[len(kind) :]))
    for kind in ("grid", "road"):
        if name.startswith(kind):
            shape = name[len(kind) :].split("x")
            if 1 <= len(shape) <= 2 and all(part.isdigit() for part in shape):
                return kind, _sizes(name, int(shape[0]), int(shape[-1]))
    raise ValueError(
        f"parse_name(): unknown graph {name!r}; use rmat<scale> (e.g. rmat18), "
        "uniform<scale> (e.g. uniform18), grid<side> / grid<rows>x<cols> (e.g. grid512) or "
        "road<side> / road<rows>x<cols> (e.g. road512)"
    )


def _sizes(name: str, *sizes: int) -> tuple[int, ...]:
    """The sizes of a graph name, refused here when zero so that a run fails before it starts."""
    if min(sizes) < 1:
        raise ValueError(f"parse_name(): graph {name!r} is empty; pass sizes >= 1 (e.g. grid512)")
    return sizes


def by_name(name: str, seed: int) -> EdgeGraph:
    """The graph a benchmark name stands for; R-MAT uses edge factor 16, uniform out-degree 16.

    Examples
    --------
    >>> by_name("grid4", seed=1).num_edges
    48
    >>> by_name("uniform5", seed=1).num_edges
    512
    """
    kind, args = parse_name(name)
    makers = {"rmat": lambda s: rmat(s, 16, seed), "uniform": lambda s: uniform(s, seed=seed)}
    if kind in makers:
        return makers[kind](args[0])
    return (grid if kind == "grid" else road)(*args, seed)
