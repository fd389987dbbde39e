// Parallel SSSP by delta-stepping (U. Meyer and P. Sanders, "Delta-stepping: a parallelizable
// shortest path algorithm", J. Algorithms 2003), organised as in the GAP Benchmark Suite's sssp
// (S. Beamer, K. Asanovic, D. Patterson, 2015): thread-local bins, bucket fusion, one parallel
// region for the whole compute.
//
// Vertices are binned by floor(dist / delta). Each phase relaxes the current bin's frontier with
// an atomic compare-and-swap minimum on the distance, appending improved vertices to the relaxing
// thread's own bins. A thread then keeps draining its own copy of the current bin while it is
// small (bucket fusion: no barrier for the thin tails that low-degree graphs produce), and the
// smallest non-empty bin over all threads becomes the next frontier. The frontier is never copied
// into a shared array: each thread publishes its lowest bin as a box labelled with the bin, works
// through its own box first and then steals chunks from the others' boxes with that label.
// Keeping a thread on the vertices it discovered keeps neighbouring vertices, and their cache
// lines of dist, on one core (on a grid, dealing chunks out round-robin made the parallel kernel
// no faster than the sequential one). Boxes are double-buffered by phase parity and a box whose
// label lost goes back into its owner's bins, so a phase ends with a single barrier; on a busy
// machine every barrier can cost a scheduler time slice.
//
// Pending distances lie within max_weight of the current bin, so each thread's bins form a ring
// of R >= max_weight / delta + 2 slots; delta is raised if needed to keep R <= k_max_ring. The
// region starts with the weight scan (validation, max_weight, mean degree) and ends with the
// canonical-parent pass, so a compute costs one parallel region.
//
// Stopping (backend/cancel.hpp): a thread polls the caller's flag per frontier chunk and leaves the
// rest of its phase once a stop is recorded; thread 0 reads the record before each phase's barrier
// into a slot of that phase's parity, which every thread reads after the barrier, so the team
// leaves the loop together. It then skips the parent pass (which writes the old parents in place
// during an update's recompute), and the caller's thread throws after the region.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(DYNG_HAVE_OPENMP)
#include <omp.h>
#endif

#include "dyng/backend/execution.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/sssp/detail/big_arrays.hpp"
#include "dyng/sssp/detail/canonical_parents.hpp"
#include "dyng/sssp/detail/dijkstra_sequential.hpp"
#include "dyng/sssp/detail/sssp_common.hpp"

namespace dyng::sssp::detail {

inline constexpr int64_t k_max_ring = 1024;
inline constexpr size_t k_fusion_limit = 1000;  // GAP's bucket-fusion threshold
inline constexpr size_t k_frontier_chunk = 64;
inline constexpr int64_t k_no_bin = INT64_MAX;

/// A thread's published bin: its items and the bin they belong to. Phase k reads the boxes of
/// parity k & 1 whose label is the phase's bin; owners refill the other parity meanwhile, so a
/// phase needs one barrier.
template <class vid_t>
struct bin_box_t {
  std::vector<vid_t> items;
  int64_t label = k_no_bin;
};

/// Next unread item of a box; one cache line each so that stealing does not slow the owner.
struct alignas(64) cursor_t {
  std::atomic<size_t> next{0};
};

/// The bin width used when options.delta is 0: max_weight * min(1, (4 / degree)^3) for mean
/// out-degree `degree`, at least 1. Empirical (timing driver, weights 1..100, 2 threads): R-MAT
/// (degree 15) is fastest at delta 1-2, where wider bins re-relax up to 5x the edges, while a
/// 4-neighbour grid (degree 4) wants delta ~100-200, where narrow bins cost thousands of phases
/// (and a barrier each). Low degree means long paths, so few wide bins; high degree, the reverse.
inline int64_t default_delta(int64_t max_weight, double degree) {
  const double ratio = std::min(1.0, 4.0 / std::max(1.0, degree));
  return std::max<int64_t>(
      1, static_cast<int64_t>(static_cast<double>(max_weight) * ratio * ratio * ratio));
}

/// The delta actually used: the requested one, widened if needed to fit the bin ring.
inline int64_t effective_delta(int64_t requested, int64_t max_weight, double degree) {
  const int64_t delta = requested > 0 ? requested : default_delta(max_weight, degree);
  return std::max(delta, (max_weight + k_max_ring - 3) / (k_max_ring - 2));
}

/// Full compute with `threads` threads. Returns false, computing nothing, when the weight scan
/// finds a weight < 1; `range` then names it (the caller throws, outside the parallel region).
/// With `previous` distances (and the previous parents in `parents`), adds the number of vertices
/// whose distance or parent changed to `changed`. Throws interrupted_error once `cancel` asks,
/// `parents` then as it was.
///
/// The search reads `known->rows` when given (a packed copy of the objective's rows whose weights
/// are all known to be >= 1, at most known->max_weight, known->edges of them: mosp's shared pack),
/// and then scans no weights; otherwise the graph's own rows and the objective's column.
template <class rows_t>
struct known_rows_t {
  const rows_t& rows;
  int64_t max_weight;
  int64_t edges;
};

template <class vid_t, class eid_t, class rows_t = column_rows_t<vid_t, eid_t>>
bool compute_openmp(const adjacency_view_t<vid_t, eid_t>& out,
                    const adjacency_view_t<vid_t, eid_t>& in, bool in_sorted, int objective,
                    vid_t source, int64_t requested_delta, int threads, std::vector<int64_t>& dist,
                    std::vector<vid_t>& parents, weight_range_t<vid_t, eid_t>& range,
                    search_counters_t& counters, const int64_t* previous = nullptr,
                    int64_t* changed = nullptr, const known_rows_t<rows_t>* known = nullptr,
                    cancel_token_t cancel = {}) {
  const vid_t n = out.num_vertices;
  {
    stage_scope_t reset_stage("sssp.reset");
    assign_big(dist, static_cast<size_t>(n), k_infinite_distance);
    if (previous) {
      parents.resize(static_cast<size_t>(n));  // the old parents are read by the changed count
    } else {
      resize_big(parents, static_cast<size_t>(n));
    }
  }
  stage_scope_t loop_stage("sssp.loop");
  dist[source] = 0;
  const weight_column_t w_out = column_of(out, objective);
  const weight_column_t w_in = column_of(in, objective);
  using box_t = bin_box_t<vid_t>;
  const size_t t_count = static_cast<size_t>(threads);
  std::vector<box_t> boxes[2] = {std::vector<box_t>(t_count), std::vector<box_t>(t_count)};
  std::vector<cursor_t> cursors[2] = {std::vector<cursor_t>(t_count),
                                      std::vector<cursor_t>(t_count)};
  boxes[0][0].items.push_back(source);
  boxes[0][0].label = 0;
  // Phase k's bin is shared_bin[k % 3]; phase k fills slot k + 1 and clears slot k + 2, which
  // nobody reads any more (it held phase k - 1's bin).
  int64_t shared_bin[3] = {0, k_no_bin, k_no_bin};
  // Phase k leaves the loop when halt[k & 1] is set, written by thread 0 before phase k - 1's
  // barrier; phase k's own slot is rewritten only after phase k + 1's barrier.
  team_stop_t stop(cancel);
  bool halt[2] = {false, false};
  bool parents_wanted = false;
  int64_t edges = 0, total_relaxations = 0, total_pushes = 1, phases = 0, total_changed = 0;
  int64_t* const d = dist.data();
  const column_rows_t<vid_t, eid_t> own_rows{out, w_out};
  const rows_t& rows = [&]() -> const rows_t& {
    if constexpr (std::is_same_v<rows_t, column_rows_t<vid_t, eid_t>>) {
      return known != nullptr ? known->rows : own_rows;
    } else {
      return known->rows;  // a packed copy always comes with `known`
    }
  }();

#pragma omp parallel num_threads(threads)
  {
#if defined(DYNG_HAVE_OPENMP)
    const int tid = omp_get_thread_num();
    const int team = omp_get_num_threads();
#else
    const int tid = 0;
    const int team = 1;
#endif
    if (known != nullptr) {
#pragma omp single
      {
        range.max_weight = known->max_weight;
        edges = known->edges;
      }
    } else {  // Weight scan: validation, max_weight and the mean degree, which pick delta.
      weight_range_t<vid_t, eid_t> mine;
      int64_t my_edges = 0;
      constexpr int64_t k_rows = 4096;
#pragma omp for schedule(dynamic, 1) nowait
      for (int64_t first = 0; first < static_cast<int64_t>(n); first += k_rows) {
        const vid_t last = static_cast<vid_t>(std::min<int64_t>(n, first + k_rows));
        scan_weights(out, w_out, static_cast<vid_t>(first), last, mine);
        for (vid_t u = static_cast<vid_t>(first); u < last; ++u) my_edges += out.degree(u);
      }
#pragma omp critical(dyng_sssp_scan)
      {
        merge_ranges(range, mine);
        edges += my_edges;
      }
#pragma omp barrier
    }
    // Every thread derives the same delta and ring from the merged scan.
    const bool valid = range.min_slot < 0 || range.min_weight >= 1;
    const int64_t max_weight = std::max<int64_t>(1, range.max_weight);
    const int64_t delta = effective_delta(requested_delta, max_weight,
                                          static_cast<double>(edges) / std::max<double>(1.0, n));
    uint64_t ring_size = 2;
    while (ring_size < static_cast<uint64_t>(max_weight / delta + 2)) ring_size <<= 1;
    const uint64_t ring_mask = ring_size - 1;
    std::vector<std::vector<vid_t>> ring(valid ? ring_size : 0);
    std::vector<vid_t> fused;
    int64_t relaxations = 0, pushes = 0, iteration = 0;

    auto relax = [&](vid_t u, int64_t threshold) {
      const int64_t du = std::atomic_ref<int64_t>(d[u]).load(std::memory_order_relaxed);
      // Stale: u improved into an earlier bin and was relaxed there with its final distance.
      if (du < threshold) return;
      const auto row = rows.row(u);
      const int64_t size = row.size;
      relaxations += size;
      for (int64_t i = 0; i < size; ++i) {
        if (i + k_prefetch_slots < size) prefetch(d + row.neighbour(i + k_prefetch_slots));
        const vid_t v = row.neighbour(i);
        const int64_t candidate = du + row.weight(i);
        std::atomic_ref<int64_t> dv(d[v]);
        int64_t old = dv.load(std::memory_order_relaxed);
        while (candidate < old) {
          if (dv.compare_exchange_weak(old, candidate, std::memory_order_relaxed)) {
            ring[static_cast<uint64_t>(candidate / delta) & ring_mask].push_back(v);
            ++pushes;
            break;
          }
        }
      }
    };

    // The sequential search's hints (prefetch_entries()); an item is stale once its vertex
    // improved below the bin (relax() skips it).
    auto prefetch_frontier = [&](const std::vector<vid_t>& items, size_t i, size_t last,
                                 int64_t threshold) {
      prefetch_entries(
          rows, i, last, [&](size_t j) { return items[j]; }, d, [&](vid_t x) {
            return std::atomic_ref<int64_t>(d[x]).load(std::memory_order_relaxed) >= threshold;
          });
    };

    while (valid && !halt[iteration & 1]) {
      const int64_t bin = shared_bin[iteration % 3];
      if (bin == k_no_bin) break;
      const int64_t threshold = bin * delta;
      std::vector<box_t>& now = boxes[iteration & 1];
      std::vector<cursor_t>& now_cursor = cursors[iteration & 1];

      for (int k = 0; k < team; ++k) {  // own box first, then steal from the others
        const size_t t = static_cast<size_t>((tid + k) % team);
        if (now[t].label != bin) continue;
        const std::vector<vid_t>& items = now[t].items;
        std::atomic<size_t>& next = now_cursor[t].next;
        for (size_t first = next.fetch_add(k_frontier_chunk, std::memory_order_relaxed);
             first < items.size() && !stop.poll();
             first = next.fetch_add(k_frontier_chunk, std::memory_order_relaxed)) {
          const size_t last = std::min(items.size(), first + k_frontier_chunk);
          for (size_t i = first; i < last; ++i) {
            prefetch_frontier(items, i, last, threshold);
            relax(items[i], threshold);
          }
        }
      }

      // Bucket fusion: settle what this thread found for the current bin without a barrier.
      std::vector<vid_t>& current = ring[static_cast<uint64_t>(bin) & ring_mask];
      while (!current.empty() && current.size() < k_fusion_limit && !stop.poll()) {
        fused.swap(current);
        for (const vid_t u : fused) relax(u, threshold);
        fused.clear();
      }

      // My box of this phase was not read if it held another bin: take its items back. Nobody
      // touches the items of a box whose label is not the phase's bin.
      box_t& mine_now = now[static_cast<size_t>(tid)];
      if (mine_now.label != bin && mine_now.label != k_no_bin) {
        std::vector<vid_t>& slot = ring[static_cast<uint64_t>(mine_now.label) & ring_mask];
        slot.insert(slot.end(), mine_now.items.begin(), mine_now.items.end());
        mine_now.items.clear();
      }
      // Publish my lowest non-empty bin in the other parity (read by nobody during this phase).
      int64_t local_next = k_no_bin;
      for (uint64_t offset = 0; offset < ring_size; ++offset) {
        if (!ring[static_cast<uint64_t>(bin + static_cast<int64_t>(offset)) & ring_mask].empty()) {
          local_next = bin + static_cast<int64_t>(offset);
          break;
        }
      }
      box_t& mine_next = boxes[(iteration + 1) & 1][static_cast<size_t>(tid)];
      mine_next.items.clear();
      mine_next.label = local_next;
      if (local_next != k_no_bin) {
        mine_next.items.swap(ring[static_cast<uint64_t>(local_next) & ring_mask]);
        std::atomic_ref<int64_t> next(shared_bin[(iteration + 1) % 3]);
        int64_t seen = next.load(std::memory_order_relaxed);
        while (local_next < seen && !next.compare_exchange_weak(seen, local_next)) {
        }
      }
      cursors[(iteration + 1) & 1][static_cast<size_t>(tid)].next.store(0,
                                                                        std::memory_order_relaxed);
      if (tid == 0) {
        shared_bin[(iteration + 2) % 3] = k_no_bin;
        halt[(iteration + 1) & 1] = stop.poll();
      }
      ++iteration;
#pragma omp barrier
    }
    // Every thread left the loop after the same barrier; this decides for all of them.
#pragma omp single
    parents_wanted = valid && !stop.stopped();

    const int64_t my_changed =
        parents_wanted
            ? canonical_parents_team(in, w_in, d, source, in_sorted, parents.data(), previous)
            : 0;
#pragma omp atomic
    total_relaxations += relaxations;
#pragma omp atomic
    total_pushes += pushes;
#pragma omp atomic
    total_changed += my_changed;
    if (tid == 0) phases = iteration;
  }
  throw_if_cancelled(stop, k_search_stopped);
  counters.relaxations += total_relaxations;
  counters.pushes += total_pushes;
  counters.buckets += phases;
  if (changed) *changed += total_changed;
  return range.min_slot < 0 || range.min_weight >= 1;
}

}  // namespace dyng::sssp::detail
