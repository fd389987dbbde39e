// GPU triangle counting on sorted, simple, undirected device rows (the host version and its
// reasoning: ../triangles.hpp).
//
// count_all: one warp per vertex u; its lanes take u's neighbours v > u and each merges the rows
// of u and v above v, so every triangle u < v < w is found once. update: one thread per changed
// edge e_i = (u, v), walking the shorter row; a triangle is counted at the first changed edge it
// holds. The graph before the batch is seen through its changes: `hidden` (the insertions, as
// sorted pairs x < y) and `shown` (the deletions, sorted, and again per vertex: `shown_rows`
// holds each deletion in both orientations sorted by (x, y)). Both kernels add their count and
// their row slots read into two device counters.
#pragma once

#include <cstdint>

#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/graph/adjacency_view.hpp"

namespace dyng::triangle_delta::detail::cuda {

template <class vid_t>
struct pair_t {
  vid_t x, y;
};

template <class vid_t>
__device__ inline bool pair_less(const pair_t<vid_t>& a, vid_t x, vid_t y) {
  return a.x < x || (a.x == x && a.y < y);
}

/// Is (x, y) among pairs[0, count)? (sorted by (x, y))
template <class vid_t>
__device__ inline bool has_pair(const pair_t<vid_t>* pairs, int64_t count, vid_t x, vid_t y) {
  int64_t lo = 0, hi = count;
  while (lo < hi) {
    const int64_t mid = (lo + hi) / 2;
    if (pair_less(pairs[mid], x, y)) lo = mid + 1;
    else hi = mid;
  }
  return lo < count && pairs[lo].x == x && pairs[lo].y == y;
}

/// First index of pairs[0, count) with x >= `x`.
template <class vid_t>
__device__ inline int64_t first_of(const pair_t<vid_t>* pairs, int64_t count, vid_t x) {
  int64_t lo = 0, hi = count;
  while (lo < hi) {
    const int64_t mid = (lo + hi) / 2;
    if (pairs[mid].x < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// Is w in the sorted row [first, end)?
template <class vid_t>
__device__ inline bool in_row(const vid_t* first, const vid_t* end, vid_t w) {
  const vid_t* last = end;
  while (first < last) {
    const vid_t* mid = first + (last - first) / 2;
    if (*mid < w) first = mid + 1;
    else last = mid;
  }
  return first != end && *first == w;
}

/// Sums of one kernel: triangles found and row slots read.
struct counters_t {
  unsigned long long found = 0;
  unsigned long long work = 0;
};

template <class vid_t, class eid_t>
__global__ void count_all_kernel(adjacency_view_t<vid_t, eid_t> g, counters_t* sums) {
  const int lane = threadIdx.x % 32;
  const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / 32);
  unsigned long long found = 0, work = 0;
  for (int64_t u = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
       u < g.num_vertices; u += warps) {
    const vid_t* ub = g.col + g.row_begin[u];
    const vid_t* ue = g.col + g.row_end[u];
    for (const vid_t* pv = ub + lane; pv < ue; pv += 32) {
      const vid_t v = *pv;
      if (v <= u) continue;
      const vid_t* a = pv + 1;
      const vid_t* b = g.col + g.row_begin[v];
      const vid_t* ve = g.col + g.row_end[v];
      while (b < ve && *b <= v) ++b;
      work += static_cast<unsigned long long>((ue - a) + (ve - b) + 1);
      while (a < ue && b < ve) {
        if (*a < *b) {
          ++a;
        } else if (*b < *a) {
          ++b;
        } else {
          ++found;
          ++a;
          ++b;
        }
      }
    }
  }
  if (found != 0) atomicAdd(&sums->found, found);
  if (work != 0) atomicAdd(&sums->work, work);
}

/// The changes of a batch seen from the graph before it (all null/0 for the graph after it).
template <class vid_t>
struct overlay_view_t {
  const pair_t<vid_t>* hidden = nullptr;  ///< Insertions, x < y, sorted.
  int64_t hidden_count = 0;
  const pair_t<vid_t>* shown = nullptr;  ///< Deletions, x < y, sorted.
  int64_t shown_count = 0;
  const pair_t<vid_t>* shown_rows = nullptr;  ///< Deletions both ways, sorted by (x, y).
  int64_t shown_rows_count = 0;
};

template <class vid_t, class eid_t>
__global__ void count_through_kernel(adjacency_view_t<vid_t, eid_t> g, const pair_t<vid_t>* edges,
                                     int64_t count, overlay_view_t<vid_t> before,
                                     counters_t* sums) {
  const bool overlay = before.shown != nullptr;
  auto canonical_has = [](const pair_t<vid_t>* pairs, int64_t n, vid_t x, vid_t y) {
    return x < y ? has_pair(pairs, n, x, y) : has_pair(pairs, n, y, x);
  };
  unsigned long long found = 0, work = 0;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    vid_t u = edges[i].x, v = edges[i].y;
    if (g.row_end[v] - g.row_begin[v] < g.row_end[u] - g.row_begin[u]) {
      const vid_t t = u;
      u = v;
      v = t;
    }
    const vid_t* vb = g.col + g.row_begin[v];
    const vid_t* ve = g.col + g.row_end[v];
    auto consider = [&](vid_t w) {
      if (w == u || w == v) return;
      const bool stored = in_row(vb, ve, w);
      const bool vw = !overlay ? stored
                      : stored ? !canonical_has(before.hidden, before.hidden_count, v, w)
                               : canonical_has(before.shown, before.shown_count, v, w);
      if (!vw) return;
      // Counted at its first changed edge: neither other edge comes earlier in the list.
      if (canonical_has(edges, i, u, w) || canonical_has(edges, i, v, w)) return;
      ++found;
    };
    const eid_t ub = g.row_begin[u], ue = g.row_end[u];
    work += static_cast<unsigned long long>(ue - ub + 1);
    for (eid_t j = ub; j < ue; ++j) {
      const vid_t w = g.col[j];
      if (overlay && canonical_has(before.hidden, before.hidden_count, u, w)) continue;
      consider(w);
    }
    if (overlay) {
      for (int64_t k = first_of(before.shown_rows, before.shown_rows_count, u);
           k < before.shown_rows_count && before.shown_rows[k].x == u; ++k) {
        ++work;
        consider(before.shown_rows[k].y);
      }
    }
  }
  if (found != 0) atomicAdd(&sums->found, found);
  if (work != 0) atomicAdd(&sums->work, work);
}

}  // namespace dyng::triangle_delta::detail::cuda
