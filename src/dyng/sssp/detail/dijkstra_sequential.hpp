// Sequential Dijkstra (E. W. Dijkstra, "A note on two problems in connexion with graphs", 1959)
// with monotone integer queues instead of a comparison heap.
//
// Weights are int32 >= 1, so Dial's circular buckets (dial_queue.hpp) settle a whole distance
// class per bucket with O(1) pushes when the largest weight is small; larger weights use a radix
// heap (radix_heap.hpp). There is no decrease-key and no visited array: an improved vertex is
// pushed again and a popped entry is stale exactly when its key differs from dist[v], which also
// keeps the hot loop to the distance array and the out-rows (a settled-vertex bitmap checked
// before each relaxation was measured 10-60% slower on R-MAT and grids). The radix-heap search also serves
// update(): it starts from arbitrary seeds, reports every improvement, and gives up once its edge
// work passes a budget so that a hopeless repair can fall back to a full compute cheaply.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "dyng/sssp/detail/canonical_parents.hpp"
#include "dyng/sssp/detail/dial_queue.hpp"
#include "dyng/sssp/detail/radix_heap.hpp"
#include "dyng/sssp/detail/sssp_common.hpp"

namespace dyng::sssp::detail {

/// Work done by one search, copied into stats_t by the caller.
struct search_counters_t {
  int64_t relaxations = 0;  ///< Out-edges scanned from settled vertices.
  int64_t pushes = 0;       ///< Queue insertions, seeds included.
  int64_t buckets = 0;      ///< Distinct distances settled.
};

/// Largest weight for which Dial's queue is used (its ring then has at most 2^16 buckets).
inline constexpr int64_t k_dial_max_weight = (int64_t{1} << 16) - 1;

/// Relaxes the out-row of `u`, settled at distance `d`: every neighbour v whose distance drops
/// gets improve(v, candidate) while dist[v] still holds the old value, then dist[v] = candidate.
/// Shared by both queues so that the hot loop exists once. Returns the slots scanned.
template <class vid_t, class eid_t, class dist_t, class improve_t>
inline int64_t relax_out_row(const adjacency_view_t<vid_t, eid_t>& out, weight_column_t w,
                             vid_t u, int64_t d, dist_t* dist, improve_t&& improve) {
  const eid_t end = out.end(u);
  const eid_t begin = out.begin(u);
  for (eid_t slot = begin; slot < end; ++slot) {
    const vid_t v = out.neighbour(slot);
    const dist_t candidate = static_cast<dist_t>(d + w(slot));
    if (candidate < dist[v]) {
      improve(v, candidate);
      dist[v] = candidate;
    }
  }
  return static_cast<int64_t>(end - begin);
}

/// Dijkstra from `source` with Dial's buckets; dist must hold its type's "unreached" value
/// (k_infinite_distance, or INT32_MAX for the narrow search) everywhere.
template <class vid_t, class eid_t, class dist_t>
void dijkstra_dial(const adjacency_view_t<vid_t, eid_t>& out, weight_column_t w, vid_t source,
                   int64_t max_weight, dist_t* dist, search_counters_t& counters) {
  dial_queue_t<vid_t> queue(max_weight);
  dist[source] = 0;
  queue.push(source, 0);
  int64_t relaxations = 0, pushes = 1, buckets = 0;
  while (!queue.empty()) {
    const int64_t d = queue.advance();
    std::vector<vid_t>& bucket = queue.bucket();
    for (size_t i = 0; i < bucket.size(); ++i) {
      const vid_t u = bucket[i];
      if (dist[u] != d) continue;
      relaxations += relax_out_row(out, w, u, d, dist, [&](vid_t v, dist_t candidate) {
        queue.push(v, candidate);
        ++pushes;
      });
    }
    queue.pop_bucket();
    ++buckets;
  }
  counters.relaxations += relaxations;
  counters.pushes += pushes;
  counters.buckets += buckets;
}

/// Dijkstra from whatever `heap` holds, with dist holding the matching tentative distances.
/// Calls on_improve(v, old_distance) before lowering dist[v]. Returns false, leaving dist
/// partially updated, as soon as the relaxations exceed `budget`.
template <class vid_t, class eid_t, class on_improve_t>
bool dijkstra_radix(const adjacency_view_t<vid_t, eid_t>& out, weight_column_t w,
                    radix_heap_t<vid_t>& heap, int64_t* dist, int64_t budget,
                    on_improve_t&& on_improve, search_counters_t& counters) {
  using entry_t = typename radix_heap_t<vid_t>::entry_t;
  int64_t relaxations = 0, pushes = 0, buckets = 0;
  bool within_budget = true;
  while (!heap.empty() && within_budget) {
    const int64_t d = heap.advance();
    std::vector<entry_t>& bucket = heap.minimum_bucket();
    for (size_t i = 0; i < bucket.size(); ++i) {
      const vid_t u = bucket[i].vertex;
      if (dist[u] != d) continue;
      relaxations += relax_out_row(out, w, u, d, dist, [&](vid_t v, int64_t candidate) {
        on_improve(v, dist[v]);
        heap.push(v, candidate);
        ++pushes;
      });
      if (relaxations > budget) {
        within_budget = false;
        break;
      }
    }
    heap.pop_minimum_bucket();
    ++buckets;
  }
  counters.relaxations += relaxations;
  counters.pushes += pushes;
  counters.buckets += buckets;
  return within_budget;
}

/// "Unreached" in a search with 4-byte distances.
inline constexpr int32_t k_narrow_unreached = std::numeric_limits<int32_t>::max();

/// Whether every tentative distance of a search on n vertices with weights <= max_weight fits a
/// 4-byte distance below k_narrow_unreached: a settled distance spans at most n - 1 edges, and a
/// candidate adds one more, so max_weight * n must stay below it.
inline bool narrow_distances_fit(int64_t max_weight, int64_t n) {
  return n <= 1 || max_weight <= (int64_t{k_narrow_unreached} - 1) / n;
}

/// Full sequential compute: distances from `source`, then canonical parents.
/// `max_weight` (from scan_weights) picks the queue. With `previous` distances (and the previous
/// parents in `parents`), returns how many vertices changed distance or parent.
template <class vid_t, class eid_t>
int64_t compute_sequential(const adjacency_view_t<vid_t, eid_t>& out,
                        const adjacency_view_t<vid_t, eid_t>& in, bool in_sorted, int objective,
                        vid_t source, int64_t max_weight, std::vector<int64_t>& dist,
                        std::vector<vid_t>& parents, search_counters_t& counters,
                        const int64_t* previous = nullptr) {
  const vid_t n = out.num_vertices;
  dist.assign(static_cast<size_t>(n), k_infinite_distance);
  parents.resize(static_cast<size_t>(n));
  const weight_column_t w_out = column_of(out, objective);
  if (max_weight <= k_dial_max_weight && narrow_distances_fit(max_weight, n)) {
    // Every candidate is below max_weight * n < 2^31: the search keeps 4-byte distances, so
    // twice as many fit in the cache its random reads hit (three R-MAT 20 searches took
    // 1.17-1.22 s against 1.36-1.51 s with 8-byte distances on the 2-core dev machine).
    std::vector<int32_t> narrow(static_cast<size_t>(n), k_narrow_unreached);
    dijkstra_dial(out, w_out, source, max_weight, narrow.data(), counters);
    for (vid_t v = 0; v < n; ++v) {
      dist[v] = narrow[v] == k_narrow_unreached ? k_infinite_distance : narrow[v];
    }
  } else if (max_weight <= k_dial_max_weight) {
    dijkstra_dial(out, w_out, source, max_weight, dist.data(), counters);
  } else {
    radix_heap_t<vid_t> heap;
    dist[source] = 0;
    heap.push(source, 0);
    ++counters.pushes;
    dijkstra_radix(out, w_out, heap, dist.data(), INT64_MAX, [](vid_t, int64_t) {}, counters);
  }
  return canonical_parents_sequential(in, column_of(in, objective), dist.data(), source,
                                      in_sorted, parents.data(), previous);
}

}  // namespace dyng::sssp::detail
