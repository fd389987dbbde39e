// Sequential Dijkstra (E. W. Dijkstra, "A note on two problems in connexion with graphs", 1959)
// with monotone integer queues instead of a comparison heap.
//
// Weights are int32 >= 1, so Dial's circular buckets (dial_queue.hpp) settle a whole distance
// class per bucket with O(1) pushes when the largest weight is small; larger weights use a radix
// heap (radix_heap.hpp). There is no decrease-key and no visited array: an improved vertex is
// pushed again and a popped entry is stale exactly when its key differs from dist[v], which also
// keeps the hot loop to the distance array and the out-rows (a settled-vertex bitmap checked
// before each relaxation adds a third random read per edge, and measured slower on R-MAT and
// grids). A full compute with
// Dial's queue records the canonical parents as it relaxes (dial_search() says why that is
// exact), which spares the pass over the in-rows that the radix-heap search and the parallel
// kernel need. The radix-heap search also serves update(): it starts from arbitrary seeds,
// reports every improvement, and gives up once its edge work passes a budget so that a hopeless
// repair can fall back to a full compute cheaply.
//
// Both searches poll the caller's stop flag (backend/cancel.hpp) once per bucket and every
// k_cancel_poll_mask + 1 entries of a bucket (a bucket of an unweighted graph is a whole BFS
// level), and throw interrupted_error; their callers' states are fresh or put back on any
// exception.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/sssp/detail/big_arrays.hpp"
#include "dyng/sssp/detail/canonical_parents.hpp"
#include "dyng/sssp/detail/dial_queue.hpp"
#include "dyng/sssp/detail/radix_heap.hpp"
#include "dyng/sssp/detail/search_rows.hpp"
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

/// How far ahead the relax loops prefetch: the distance of the neighbour this many slots on, the
/// row of the bucket entry this many entries on, and the offsets and distance of the entry twice
/// as far. Random reads of dist and of the rows are what a search waits for (R-MAT 20, one
/// objective: 16M relaxations over 546k rows); the hints cut the Dial search by about a quarter.
inline constexpr int64_t k_prefetch_slots = 8;
inline constexpr size_t k_prefetch_entries = 4;

/// Relaxes the row of `u`, settled at distance `d`: every neighbour v whose distance drops gets
/// improve(v, candidate) while dist[v] still holds the old value, then dist[v] = candidate; a
/// candidate equal to dist[v] gets tie(v). Shared by both queues so that the hot loop exists
/// once. Returns the slots scanned.
template <class rows_t, class vid_t, class dist_t, class improve_t, class tie_t>
inline int64_t relax_row(const rows_t& rows, vid_t u, int64_t d, dist_t* dist, improve_t&& improve,
                         tie_t&& tie) {
  const auto row = rows.row(u);
  const int64_t size = row.size;
  for (int64_t i = 0; i < size; ++i) {
    if (i + k_prefetch_slots < size) prefetch(dist + row.neighbour(i + k_prefetch_slots));
    const vid_t v = row.neighbour(i);
    const dist_t candidate = static_cast<dist_t>(d + row.weight(i));
    if (candidate < dist[v]) {
      improve(v, candidate);
      dist[v] = candidate;
    } else if (candidate == dist[v]) {
      tie(v);
    }
  }
  return size;
}

/// Prefetches for a list of vertices (a bucket, a frontier chunk) whose entry i is about to be
/// relaxed (vertex(j): the j-th entry): offsets and distance two steps ahead, the row one step
/// ahead. The row of a stale entry (its vertex has since improved, about half the entries on
/// R-MAT) is not fetched: live(x) says, from the distance prefetched the step before, and the
/// row would only take the place of one that is read.
template <class rows_t, class vertex_fn, class dist_t, class live_fn>
inline void prefetch_entries(const rows_t& rows, size_t i, size_t size, vertex_fn&& vertex,
                             const dist_t* dist, live_fn&& live) {
  if (i + 2 * k_prefetch_entries < size) {
    const auto x = vertex(i + 2 * k_prefetch_entries);
    rows.prefetch_offsets(x);
    prefetch(dist + x);
  }
  if (i + k_prefetch_entries < size) {
    const auto x = vertex(i + k_prefetch_entries);
    if (live(x)) rows.prefetch_row(x);
  }
}

/// prefetch_entries() for a bucket of distance d: an entry is live while dist still holds d.
template <class rows_t, class vertex_fn, class dist_t>
inline void prefetch_bucket(const rows_t& rows, size_t i, size_t size, vertex_fn&& vertex,
                            const dist_t* dist, int64_t d) {
  prefetch_entries(rows, i, size, vertex, dist, [&](auto x) { return dist[x] == d; });
}

/// What a search throws when its caller's flag asks it to stop.
inline constexpr const char* k_search_stopped = "sssp search";

/// Settles the buckets of `queue` in order, recording canonical parents (dial_search() says why
/// they are exact), while they lie at distances <= `last_distance`. Returns true once the queue
/// is empty; false with the next bucket still queued, unread, when it lies further out (a caller
/// that then moves dist to a wider type goes on from there with the same queue). dist holds the
/// tentative distances of everything queued and its type's "unreached" value elsewhere. Throws
/// interrupted_error, with dist and parent part-written, once `cancel` asks.
template <class rows_t, class vid_t, class dist_t>
bool dial_settle(const rows_t& rows, dial_queue_t<vid_t>& queue, int64_t last_distance,
                 dist_t* dist, vid_t* parent, search_counters_t& counters,
                 cancel_token_t cancel = {}) {
  int64_t relaxations = 0, pushes = 0, buckets = 0;
  bool emptied = true;
  while (!queue.empty()) {
    const int64_t d = queue.advance();
    if (d > last_distance) {
      emptied = false;
      break;
    }
    const std::vector<vid_t>& bucket = queue.bucket();
    const size_t size = bucket.size();  // pushes while reading land in other buckets
    for (size_t i = 0; i < size; ++i) {
      if ((i & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel, k_search_stopped);
      prefetch_bucket(rows, i, size, [&](size_t j) { return bucket[j]; }, dist, d);
      const vid_t u = bucket[i];
      if (dist[u] != d) continue;
      relaxations += relax_row(
          rows, u, d, dist,
          [&](vid_t v, dist_t candidate) {
            queue.push(v, candidate);
            parent[v] = u;
            ++pushes;
          },
          [&](vid_t v) {
            if (u < parent[v]) parent[v] = u;
          });
    }
    queue.pop_bucket();
    ++buckets;
  }
  counters.relaxations += relaxations;
  counters.pushes += pushes;
  counters.buckets += buckets;
  return emptied;
}

/// Dijkstra from `source` with Dial's buckets, recording canonical parents on the way. dist must
/// hold its type's "unreached" value (k_infinite_distance, or INT32_MAX for the narrow search)
/// and parent -1 everywhere.
///
/// The recorded parent is the canonical one (the lowest-id in-neighbour u != v with dist[u] +
/// w(u, v) == dist[v]), not whichever relaxation won: every such u has dist[u] < dist[v] (w >= 1),
/// so it is settled, and relaxes (u, v) with the candidate dist[v], before v's bucket is read;
/// each reached vertex relaxes its row exactly once (it is pushed only on a strict improvement,
/// so it sits in the bucket of its final distance once). Each of those relaxations either lowers
/// dist[v] to its final value (parent = u, replacing what any larger candidate had set) or ties it
/// (parent = min), and no later relaxation can tie. A self-loop never ties. The answer is thus
/// the one canonical_parents_sequential() derives from the in-rows, without reading them.
template <class rows_t, class vid_t, class dist_t>
void dial_search(const rows_t& rows, vid_t source, int64_t max_weight, dist_t* dist, vid_t* parent,
                 search_counters_t& counters, cancel_token_t cancel = {}) {
  dial_queue_t<vid_t> queue(max_weight);
  dist[source] = 0;
  queue.push(source, 0);
  ++counters.pushes;
  dial_settle(rows, queue, INT64_MAX, dist, parent, counters, cancel);
}

/// dial_search() on the graph's own rows, parents discarded (bench/cpp/sssp_timing.cpp).
template <class vid_t, class eid_t, class dist_t>
void dijkstra_dial(const adjacency_view_t<vid_t, eid_t>& out, weight_column_t w, vid_t source,
                   int64_t max_weight, dist_t* dist, search_counters_t& counters) {
  std::vector<vid_t> parents(static_cast<size_t>(out.num_vertices), vid_t{-1});
  dial_search(column_rows_t<vid_t, eid_t>{out, w}, source, max_weight, dist, parents.data(),
              counters);
}

/// Dijkstra from whatever `heap` holds, with dist holding the matching tentative distances.
/// Calls on_improve(v, old_distance) before lowering dist[v]. Returns false, leaving dist
/// partially updated, as soon as the relaxations exceed `budget`; throws interrupted_error, dist
/// as partly updated, once `cancel` asks.
template <class rows_t, class vid_t, class on_improve_t>
bool radix_search(const rows_t& rows, radix_heap_t<vid_t>& heap, int64_t* dist, int64_t budget,
                  on_improve_t&& on_improve, search_counters_t& counters,
                  cancel_token_t cancel = {}) {
  using entry_t = typename radix_heap_t<vid_t>::entry_t;
  int64_t relaxations = 0, pushes = 0, buckets = 0;
  bool within_budget = true;
  while (!heap.empty() && within_budget) {
    const int64_t d = heap.advance();
    std::vector<entry_t>& bucket = heap.minimum_bucket();
    const size_t size = bucket.size();
    for (size_t i = 0; i < size; ++i) {
      if ((i & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel, k_search_stopped);
      prefetch_bucket(rows, i, size, [&](size_t j) { return bucket[j].vertex; }, dist, d);
      const vid_t u = bucket[i].vertex;
      if (dist[u] != d) continue;
      relaxations += relax_row(
          rows, u, d, dist,
          [&](vid_t v, int64_t candidate) {
            on_improve(v, dist[v]);
            heap.push(v, candidate);
            ++pushes;
          },
          [](vid_t) {});
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

/// radix_search() on the graph's own rows (update()'s repair).
template <class vid_t, class eid_t, class on_improve_t>
bool dijkstra_radix(const adjacency_view_t<vid_t, eid_t>& out, weight_column_t w,
                    radix_heap_t<vid_t>& heap, int64_t* dist, int64_t budget,
                    on_improve_t&& on_improve, search_counters_t& counters,
                    cancel_token_t cancel = {}) {
  return radix_search(column_rows_t<vid_t, eid_t>{out, w}, heap, dist, budget,
                      std::forward<on_improve_t>(on_improve), counters, cancel);
}

/// "Unreached" in a search with 4-byte distances.
inline constexpr int32_t k_narrow_unreached = std::numeric_limits<int32_t>::max();

/// "Unreached" in a search with 2-byte distances.
inline constexpr uint16_t k_short_unreached = 0xFFFF;

/// Largest weight for which a search starts with 2-byte distances: the frontier can then go
/// 60,000 out before they run out, which on graphs like R-MAT (distances in the hundreds) is the
/// whole search, and where it is not, the move to 4-byte distances costs one pass over them.
inline constexpr int64_t k_short_max_weight = 4095;

/// The last bucket distance a search with 2-byte distances may settle: its candidates (at most
/// that plus max_weight) must stay below k_short_unreached. 0 when such a search is not tried.
inline int64_t short_distance_limit(int64_t max_weight) {
  return max_weight <= k_short_max_weight ? int64_t{k_short_unreached} - 1 - max_weight : 0;
}

/// Copies n distances into a wider type, `from_unreached` becoming `to_unreached`.
template <class from_t, class to_t>
void widen_distances(const from_t* from, from_t from_unreached, to_t* to, to_t to_unreached,
                     int64_t n) {
  for (int64_t v = 0; v < n; ++v) {
    to[v] = from[v] == from_unreached ? to_unreached : static_cast<to_t>(from[v]);
  }
}

/// Whether every tentative distance of a search on n vertices with weights <= max_weight fits a
/// 4-byte distance below k_narrow_unreached: a settled distance spans at most n - 1 edges, and a
/// candidate adds one more, so max_weight * n must stay below it.
inline bool narrow_distances_fit(int64_t max_weight, int64_t n) {
  return n <= 1 || max_weight <= (int64_t{k_narrow_unreached} - 1) / n;
}

/// compute_sequential() for weights beyond Dial's ring: a radix-heap search, then the in-row
/// pass for the canonical parents (which reads the old parents for the count when `previous`).
template <class rows_t, class vid_t, class eid_t>
int64_t compute_radix_heap(const rows_t& rows, const adjacency_view_t<vid_t, eid_t>& in,
                           bool in_sorted, int objective, vid_t source, std::vector<int64_t>& dist,
                           std::vector<vid_t>& parents, search_counters_t& counters,
                           const int64_t* previous, cancel_token_t cancel) {
  const auto count = static_cast<size_t>(in.num_vertices);
  {
    stage_scope_t reset_stage("sssp.reset");
    assign_big(dist, count, k_infinite_distance);
    parents.resize(count);  // the old parents, if any, are read by the count below
  }
  radix_heap_t<vid_t> heap;
  dist[source] = 0;
  heap.push(source, 0);
  ++counters.pushes;
  {
    stage_scope_t loop_stage("sssp.loop");
    radix_search(rows, heap, dist.data(), INT64_MAX, [](vid_t, int64_t) {}, counters, cancel);
  }
  throw_if_cancelled(cancel, k_search_stopped);
  stage_scope_t parents_stage("sssp.parents");
  return canonical_parents_sequential(in, column_of(in, objective), dist.data(), source, in_sorted,
                                      parents.data(), previous);
}

/// compute_sequential()'s Dial search when every candidate is below max_weight * n < 2^31: it
/// keeps 4-byte distances, so that twice as many fit in the cache its random reads hit. It
/// starts with 2-byte ones while its frontier is near enough (short_distance_limit()), which
/// halves them again (on R-MAT graphs with weights up to 100 most distances stay that small).
/// The distances are widened into `dist` at the end; `found` takes the parents. Ends
/// `reset_stage` once the arrays are set.
template <class rows_t, class vid_t>
void dial_compute_narrow(const rows_t& rows, vid_t n, vid_t source, int64_t max_weight,
                         std::vector<int64_t>& dist, std::vector<vid_t>& found,
                         search_counters_t& counters, cancel_token_t cancel,
                         std::optional<stage_scope_t>& reset_stage) {
  const auto count = static_cast<size_t>(n);
  std::vector<int32_t> narrow;
  dial_queue_t<vid_t> queue(max_weight);
  const int64_t short_limit = short_distance_limit(max_weight);
  bool settled = false;
  if (short_limit > 0) {
    std::vector<uint16_t> near;
    assign_big(near, count, k_short_unreached);
    reset_stage.reset();
    {
      stage_scope_t loop_stage("sssp.loop");
      near[source] = 0;
      queue.push(source, 0);
      ++counters.pushes;
      settled = dial_settle(rows, queue, short_limit, near.data(), found.data(), counters, cancel);
    }
    stage_scope_t widen_stage("sssp.widen_distances");
    if (settled) {
      resize_big(dist, count);
      widen_distances(near.data(), k_short_unreached, dist.data(), k_infinite_distance, n);
    } else {
      resize_big(narrow, count);
      widen_distances(near.data(), k_short_unreached, narrow.data(), k_narrow_unreached, n);
    }
  } else {
    assign_big(narrow, count, k_narrow_unreached);
    reset_stage.reset();
    narrow[source] = 0;
    queue.push(source, 0);
    ++counters.pushes;
  }
  if (settled) return;
  {
    stage_scope_t loop_stage("sssp.loop");
    dial_settle(rows, queue, INT64_MAX, narrow.data(), found.data(), counters, cancel);
  }
  stage_scope_t widen_stage("sssp.widen_distances");
  resize_big(dist, count);
  widen_distances(narrow.data(), k_narrow_unreached, dist.data(), k_infinite_distance, n);
}

/// Full sequential compute on `rows` (search_rows.hpp; weights checked, max_weight their
/// largest): distances from `source` and canonical parents, fused into Dial's search, or for
/// weights beyond Dial's ring a radix-heap search and then the in-row pass. With `previous`
/// distances (and the previous parents in `parents`), returns how many vertices changed distance
/// or parent. Throws interrupted_error once `cancel` asks: with `previous`, `parents` is then as
/// it was (the in-row pass of the radix-heap search, which writes it, is not polled; it reads
/// each in-edge once).
template <class rows_t, class vid_t, class eid_t>
int64_t compute_sequential(const rows_t& rows, const adjacency_view_t<vid_t, eid_t>& in,
                           bool in_sorted, int objective, vid_t source, int64_t max_weight,
                           std::vector<int64_t>& dist, std::vector<vid_t>& parents,
                           search_counters_t& counters, const int64_t* previous = nullptr,
                           cancel_token_t cancel = {}) {
  const vid_t n = in.num_vertices;
  const auto count = static_cast<size_t>(n);
  if (max_weight > k_dial_max_weight) {
    return compute_radix_heap(rows, in, in_sorted, objective, source, dist, parents, counters,
                              previous, cancel);
  }
  // The old parents are needed for the count until the end, so the search then writes elsewhere.
  std::vector<vid_t> fresh;
  std::vector<vid_t>& found = previous ? fresh : parents;
  std::optional<stage_scope_t> reset_stage(std::in_place, "sssp.reset");
  assign_big(found, count, vid_t{-1});
  if (narrow_distances_fit(max_weight, n)) {
    dial_compute_narrow(rows, n, source, max_weight, dist, found, counters, cancel, reset_stage);
  } else {
    assign_big(dist, count, k_infinite_distance);
    reset_stage.reset();
    stage_scope_t loop_stage("sssp.loop");
    dial_search(rows, source, max_weight, dist.data(), found.data(), counters, cancel);
  }
  if (!previous) return 0;
  int64_t changed = 0;
  for (vid_t v = 0; v < n; ++v) {
    changed += (found[v] != parents[v] || dist[v] != previous[v]) ? 1 : 0;
  }
  parents.swap(fresh);
  return changed;
}

}  // namespace dyng::sssp::detail
