"""Deterministic benchmark graphs: R-MAT and 4-neighbour grids, as sorted directed edge lists.

Both generators return an `EdgeGraph` whose edges are sorted by (src, dst), free of self-loops
and duplicates, with one int32 weight per directed edge drawn uniformly from 1..100.

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
"""

from __future__ import annotations

import dataclasses

import numpy as np

RMAT_ABC = (0.57, 0.19, 0.19)
WEIGHT_MIN = 1
WEIGHT_MAX = 100
# Row chunk for the R-MAT draws: 2**19 edges x scale 20 doubles = 80 MiB at a time.
_RMAT_CHUNK = 1 << 19


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


def grid(rows: int, cols: int, seed: int = 1) -> EdgeGraph:
    """4-neighbour ``rows x cols`` grid, vertex ``r * cols + c``, every edge in both directions.

    Examples
    --------
    >>> g = grid(2, 3)
    >>> g.num_vertices, g.num_edges
    (6, 14)
    """
    if rows < 1 or cols < 1:
        raise ValueError(f"grid(): shape {rows}x{cols} is empty; pass rows, cols >= 1")
    n = rows * cols
    ids = np.arange(n, dtype=np.int64).reshape(rows, cols)
    right = (ids[:, :-1].ravel(), ids[:, 1:].ravel())
    down = (ids[:-1, :].ravel(), ids[1:, :].ravel())
    src = np.concatenate([right[0], right[1], down[0], down[1]])
    dst = np.concatenate([right[1], right[0], down[1], down[0]])
    order = np.argsort(src * n + dst, kind="stable")
    params = {
        "kind": "grid",
        "rows": rows,
        "cols": cols,
        "seed": seed,
        "weights": [WEIGHT_MIN, WEIGHT_MAX],
    }
    name = f"grid{rows}" if rows == cols else f"grid{rows}x{cols}"
    return EdgeGraph(
        name,
        n,
        src[order].astype(np.int32),
        dst[order].astype(np.int32),
        _weights(np.random.default_rng(seed), src.size),
        params,
        (rows, cols),
    )


def parse_name(name: str) -> tuple[str, tuple[int, ...]]:
    """``rmat<s>`` -> ("rmat", (s,)); ``grid<side>``, ``grid<rows>x<cols>`` -> ("grid", shape)."""
    if name.startswith("rmat") and name[4:].isdigit():
        return "rmat", (int(name[4:]),)
    if name.startswith("grid"):
        shape = name[4:].split("x")
        if 1 <= len(shape) <= 2 and all(part.isdigit() for part in shape):
            return "grid", (int(shape[0]), int(shape[-1]))
    raise ValueError(
        f"parse_name(): unknown graph {name!r}; use rmat<scale> (e.g. rmat18) or "
        "grid<side> / grid<rows>x<cols> (e.g. grid512)"
    )


def by_name(name: str, seed: int) -> EdgeGraph:
    """The graph a benchmark name stands for; R-MAT uses edge factor 16.

    Examples
    --------
    >>> by_name("grid4", seed=1).num_edges
    48
    """
    kind, args = parse_name(name)
    return rmat(args[0], 16, seed) if kind == "rmat" else grid(*args, seed)
