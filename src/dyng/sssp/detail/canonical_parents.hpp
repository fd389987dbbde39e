// Canonical parents from final distances: one pass over the in-edges.
//
// The parent of v is the lowest-id in-neighbour u with dist[u] + w(u, v) == dist[v]. Computing it
// after the distances are final, instead of recording whichever relaxation won during the
// search, is what makes the sequential, OpenMP and incremental paths agree bit for bit: the
// answer depends only on the distances, which are unique. Each vertex reads only its own in-row,
// so the pass is embarrassingly parallel.
//
// Given `previous` distances (with the previous parents still in `parents`), the pass also counts
// the vertices whose distance or parent changed: update()'s fallback gets its `affected` count
// without a second pass over four arrays and without allocating a new parent array.
#pragma once

#include <cstdint>

#include "dyng/sssp/detail/sssp_common.hpp"

namespace dyng::sssp::detail {

/// Parents of vertices [0, n), sequentially. Returns the number of changed vertices when
/// `previous` is given, else 0.
template <class vid_t, class eid_t>
int64_t canonical_parents_sequential(const adjacency_view_t<vid_t, eid_t>& in, weight_column_t w,
                                     const int64_t* dist, vid_t source, bool sorted, vid_t* parents,
                                     const int64_t* previous = nullptr) {
  int64_t changed = 0;
  for (vid_t v = 0; v < in.num_vertices; ++v) {
    const vid_t p = canonical_parent(in, w, dist, source, v, sorted);
    if (previous) changed += (p != parents[v] || dist[v] != previous[v]) ? 1 : 0;
    parents[v] = p;
  }
  return changed;
}

/// Parents of vertices [0, n), shared by the threads of the enclosing parallel region (an orphaned
/// worksharing loop, so the OpenMP kernel needs no second region). Ends with the loop's barrier.
/// Returns this thread's share of the changed count (0 without `previous`).
template <class vid_t, class eid_t>
int64_t canonical_parents_team(const adjacency_view_t<vid_t, eid_t>& in, weight_column_t w,
                               const int64_t* dist, vid_t source, bool sorted, vid_t* parents,
                               const int64_t* previous = nullptr) {
  const int64_t n = in.num_vertices;
  int64_t changed = 0;
  // Chunks of rows rather than single rows: the in-degree skew of power-law graphs needs dynamic
  // scheduling, but per-row scheduling would cost more than a short row.
#pragma omp for schedule(dynamic, 4096)
  for (int64_t v = 0; v < n; ++v) {
    const vid_t p = canonical_parent(in, w, dist, source, static_cast<vid_t>(v), sorted);
    if (previous) changed += (p != parents[v] || dist[v] != previous[v]) ? 1 : 0;
    parents[v] = p;
  }
  return changed;
}

/// Parents of vertices [0, n) with `threads` threads (1: no parallel region at all).
template <class vid_t, class eid_t>
void canonical_parents(const adjacency_view_t<vid_t, eid_t>& in, weight_column_t w,
                       const int64_t* dist, vid_t source, bool sorted, vid_t* parents,
                       int threads) {
  if (threads <= 1) {
    canonical_parents_sequential(in, w, dist, source, sorted, parents);
    return;
  }
#pragma omp parallel num_threads(threads)
  canonical_parents_team(in, w, dist, source, sorted, parents);
}

}  // namespace dyng::sssp::detail
