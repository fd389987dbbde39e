// Pieces every SSSP kernel shares: the weight-column accessor, the weight scan that both validates
// the objective column and picks the queue, and the canonical-parent rule for one vertex.
//
// Kernels read the graph only through adjacency_view_t, so the tests can hand them views built
// from plain vectors and the graph storage can change without touching them.
#pragma once

#include <climits>
#include <cstdint>
#include <limits>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::sssp::detail {

/// One int32 column of a slot-major K-column weight array.
struct weight_column_t {
  const int32_t* base = nullptr;
  int stride = 1;

  template <class eid_t>
  int64_t operator()(eid_t slot) const {
    return base[static_cast<int64_t>(slot) * stride];
  }
};

template <class vid_t, class eid_t>
weight_column_t column_of(const adjacency_view_t<vid_t, eid_t>& view, int objective) {
  return {view.weights + objective, view.num_weights};
}

/// The smallest and largest weight in use, and one slot holding the smallest (for the message).
template <class vid_t, class eid_t>
struct weight_range_t {
  int64_t min_weight = std::numeric_limits<int64_t>::max();
  int64_t max_weight = 0;
  vid_t min_src = -1;
  eid_t min_slot = -1;
};

/// Folds the used slots of rows [first, last) into `range`, keeping the first slot (in row order)
/// that holds the smallest weight. The OpenMP kernel gives each thread some rows and merges with
/// merge_ranges(), which keeps the same slot.
template <class vid_t, class eid_t>
void scan_weights(const adjacency_view_t<vid_t, eid_t>& view, weight_column_t w, vid_t first,
                  vid_t last, weight_range_t<vid_t, eid_t>& range) {
  // Per-row min/max without index tracking lets the compiler vectorise the common K == 1 case;
  // the slot of a new minimum is looked up again only when a row beats the current one.
  auto fold = [&](auto weight_at) {
    for (vid_t u = first; u < last; ++u) {
      const eid_t begin = view.begin(u), end = view.end(u);
      int32_t row_min = INT32_MAX, row_max = INT32_MIN;
      for (eid_t slot = begin; slot < end; ++slot) {
        const int32_t weight = weight_at(slot);
        row_min = weight < row_min ? weight : row_min;
        row_max = weight > row_max ? weight : row_max;
      }
      if (begin == end) continue;
      if (row_max > range.max_weight) range.max_weight = row_max;
      if (row_min < range.min_weight) {
        range.min_weight = row_min;
        range.min_src = u;
        range.min_slot = begin;
        while (weight_at(range.min_slot) != row_min) ++range.min_slot;
      }
    }
  };
  if (w.stride == 1) {
    fold([base = w.base](eid_t slot) { return base[slot]; });
  } else {
    fold([w](eid_t slot) { return static_cast<int32_t>(w(slot)); });
  }
}

/// Combines the ranges of two disjoint row sets; ties go to the lower row, as a sequential scan.
template <class vid_t, class eid_t>
void merge_ranges(weight_range_t<vid_t, eid_t>& into, const weight_range_t<vid_t, eid_t>& from) {
  if (from.max_weight > into.max_weight) into.max_weight = from.max_weight;
  if (from.min_slot >= 0 && (into.min_slot < 0 || from.min_weight < into.min_weight ||
                             (from.min_weight == into.min_weight && from.min_src < into.min_src))) {
    into.min_weight = from.min_weight;
    into.min_src = from.min_src;
    into.min_slot = from.min_slot;
  }
}

/// Canonical parent of v: the lowest-id in-neighbour u != v with dist[u] + w(u, v) == dist[v];
/// -1 for the source and for unreachable vertices. Written as dist[u] == dist[v] - w so that
/// caller-supplied distances (canonicalize_parents) cannot overflow. With `sorted` rows (the
/// graph's edge order "sorted") the first tight slot holds the lowest id, so the scan stops there.
template <class vid_t, class eid_t>
vid_t canonical_parent(const adjacency_view_t<vid_t, eid_t>& in, weight_column_t w,
                       const int64_t* dist, vid_t source, vid_t v, bool sorted) {
  const int64_t dv = dist[v];
  if (v == source || dv >= k_infinite_distance / 2) return -1;
  vid_t best = -1;
  const eid_t end = in.end(v);
  for (eid_t slot = in.begin(v); slot < end; ++slot) {
    const vid_t u = in.neighbour(slot);
    if (dist[u] == dv - w(slot) && u != v && (best < 0 || u < best)) {
      best = u;
      if (sorted) break;
    }
  }
  return best;
}

}  // namespace dyng::sssp::detail
