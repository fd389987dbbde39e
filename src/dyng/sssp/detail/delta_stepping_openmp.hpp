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
/// out-degree `degree`, at least 1. Fitted to the timing driver (bench/cpp/sssp_timing.cpp,
/// weights 1..100): R-MAT (degree 15) wants delta near 1, where wider bins re-relax edges many
/// times, while a 4-neighbour grid (degree 4) wants delta near max_weight, where narrow bins cost
/// thousands of phases (and a barrier each). Low degree means long paths, so few wide bins; high
/// degree, the reverse.
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

/// What the threads of one compute share between phases. Phase k's bin is shared_bin[k % 3];
/// phase k fills slot k + 1 and clears slot k + 2, which nobody reads any more (it held the bin
/// of the phase before). Phase k leaves the loop when halt[k & 1] is set, written by thread 0
/// before the barrier of the phase before; phase k's own slot is rewritten only after the
/// barrier of the phase after.
template <class vid_t>
struct phase_boxes_t {
  explicit phase_boxes_t(size_t threads)
      : boxes{std::vector<bin_box_t<vid_t>>(threads), std::vector<bin_box_t<vid_t>>(threads)},
        cursors{std::vector<cursor_t>(threads), std::vector<cursor_t>(threads)} {}

  std::vector<bin_box_t<vid_t>> boxes[2];
  std::vector<cursor_t> cursors[2];
  int64_t shared_bin[3] = {0, k_no_bin, k_no_bin};
  bool halt[2] = {false, false};
};

/// The bin width and ring that every thread derives alike from the merged weight scan.
struct bin_ring_t {
  bool valid;  ///< No weight below 1.
  int64_t delta;
  uint64_t size;  ///< A power of two, at least max_weight / delta + 2.
};

template <class vid_t, class eid_t>
bin_ring_t bin_ring_of(const weight_range_t<vid_t, eid_t>& range, int64_t requested_delta,
                       int64_t edges, vid_t n) {
  const bool valid = range.min_slot < 0 || range.min_weight >= 1;
  const int64_t max_weight = std::max<int64_t>(1, range.max_weight);
  const int64_t delta = effective_delta(requested_delta, max_weight,
                                        static_cast<double>(edges) / std::max<double>(1.0, n));
  uint64_t ring_size = 2;
  while (ring_size < static_cast<uint64_t>(max_weight / delta + 2)) ring_size <<= 1;
  return {valid, delta, ring_size};
}

/// The weight scan, on the calling team (inside its parallel region): validation, max_weight and
/// the number of edges (the mean degree picks delta), merged into `range` and `edges`.
template <class vid_t, class eid_t>
void scan_weights_on_team(const adjacency_view_t<vid_t, eid_t>& out, const weight_column_t& w_out,
                          weight_range_t<vid_t, eid_t>& range, int64_t& edges) {
  const vid_t n = out.num_vertices;
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

/// Distances all infinite and parents sized for `n` vertices; with `keep_parents` (an update's
/// recompute, whose changed count reads the old parents) the parents keep their values.
template <class vid_t>
void reset_search_arrays(vid_t n, bool keep_parents, std::vector<int64_t>& dist,
                         std::vector<vid_t>& parents) {
  stage_scope_t reset_stage("sssp.reset");
  assign_big(dist, static_cast<size_t>(n), k_infinite_distance);
  if (keep_parents) {
    parents.resize(static_cast<size_t>(n));
  } else {
    resize_big(parents, static_cast<size_t>(n));
  }
}

/// One thread of the phase loop: its ring of bins and its counters. Phases run in lock step, one
/// barrier each (run()); within a phase the thread relaxes the phase's frontier, fuses its own
/// small current bin, and publishes its next bin.
template <class vid_t, class rows_t>
class delta_thread_t {
 public:
  delta_thread_t(int64_t* d, const rows_t& rows, phase_boxes_t<vid_t>& shared, team_stop_t& stop,
                 int tid, int team, const bin_ring_t& ring)
      : d_(d),
        rows_(rows),
        shared_(shared),
        stop_(stop),
        tid_(tid),
        team_(team),
        delta_(ring.delta),
        ring_size_(ring.size),
        ring_mask_(ring.size - 1),
        ring_(ring.valid ? ring.size : 0) {}

  /// The phase loop; every thread leaves it after the same barrier.
  void run() {
    while (!shared_.halt[iteration & 1]) {
      const int64_t bin = shared_.shared_bin[iteration % 3];
      if (bin == k_no_bin) break;
      const int64_t threshold = bin * delta_;
      relax_frontier(bin, threshold);
      fuse_current_bin(bin, threshold);
      publish_next_bin(bin);
      if (tid_ == 0) {
        shared_.shared_bin[(iteration + 2) % 3] = k_no_bin;
        shared_.halt[(iteration + 1) & 1] = stop_.poll();
      }
      ++iteration;
#pragma omp barrier
    }
  }

  int64_t relaxations = 0;
  int64_t pushes = 0;
  int64_t iteration = 0;

 private:
  std::vector<vid_t>& bin_slot(int64_t bin) {
    return ring_[static_cast<uint64_t>(bin) & ring_mask_];
  }

  /// Relaxes u's out-edges with an atomic compare-and-swap minimum, binning improved vertices.
  void relax(vid_t u, int64_t threshold) {
    int64_t* const d = d_;
    const int64_t du = std::atomic_ref<int64_t>(d[u]).load(std::memory_order_relaxed);
    // Stale: u improved into an earlier bin and was relaxed there with its final distance.
    if (du < threshold) return;
    const auto row = rows_.row(u);
    const int64_t size = row.size;
    relaxations += size;
    int64_t pushed = 0;
    for (int64_t i = 0; i < size; ++i) {
      if (i + k_prefetch_slots < size) prefetch(d + row.neighbour(i + k_prefetch_slots));
      const vid_t v = row.neighbour(i);
      const int64_t candidate = du + row.weight(i);
      std::atomic_ref<int64_t> dv(d[v]);
      int64_t old = dv.load(std::memory_order_relaxed);
      while (candidate < old) {
        if (dv.compare_exchange_weak(old, candidate, std::memory_order_relaxed)) {
          bin_slot(candidate / delta_).push_back(v);
          ++pushed;
          break;
        }
      }
    }
    pushes += pushed;
  }

  /// The phase's frontier: the boxes labelled with the phase's bin, own box first, then chunks
  /// stolen from the others. The sequential search's hints (prefetch_entries()) run ahead; an
  /// item is stale once its vertex improved below the bin (relax() skips it).
  void relax_frontier(int64_t bin, int64_t threshold) {
    std::vector<bin_box_t<vid_t>>& now = shared_.boxes[iteration & 1];
    std::vector<cursor_t>& now_cursor = shared_.cursors[iteration & 1];
    int64_t* const d = d_;
    for (int k = 0; k < team_; ++k) {
      const size_t t = static_cast<size_t>((tid_ + k) % team_);
      if (now[t].label != bin) continue;
      const std::vector<vid_t>& items = now[t].items;
      std::atomic<size_t>& next = now_cursor[t].next;
      for (size_t first = next.fetch_add(k_frontier_chunk, std::memory_order_relaxed);
           first < items.size() && !stop_.poll();
           first = next.fetch_add(k_frontier_chunk, std::memory_order_relaxed)) {
        const size_t last = std::min(items.size(), first + k_frontier_chunk);
        for (size_t i = first; i < last; ++i) {
          prefetch_entries(
              rows_, i, last, [&](size_t j) { return items[j]; }, d,
              [&](vid_t x) {
                return std::atomic_ref<int64_t>(d[x]).load(std::memory_order_relaxed) >= threshold;
              });
          relax(items[i], threshold);
        }
      }
    }
  }

  /// Bucket fusion: settles what this thread found for the current bin without a barrier.
  void fuse_current_bin(int64_t bin, int64_t threshold) {
    std::vector<vid_t>& current = bin_slot(bin);
    while (!current.empty() && current.size() < k_fusion_limit && !stop_.poll()) {
      fused_.swap(current);
      for (const vid_t u : fused_) relax(u, threshold);
      fused_.clear();
    }
  }

  /// Takes back the items of this thread's box of this phase if it held another bin (nobody
  /// touches the items of a box whose label is not the phase's bin), then publishes the lowest
  /// non-empty bin in the other parity's box (read by nobody during this phase) and lowers the
  /// next phase's shared bin to it.
  void publish_next_bin(int64_t bin) {
    bin_box_t<vid_t>& mine_now = shared_.boxes[iteration & 1][static_cast<size_t>(tid_)];
    if (mine_now.label != bin && mine_now.label != k_no_bin) {
      std::vector<vid_t>& slot = bin_slot(mine_now.label);
      slot.insert(slot.end(), mine_now.items.begin(), mine_now.items.end());
      mine_now.items.clear();
    }
    int64_t local_next = k_no_bin;
    for (uint64_t offset = 0; offset < ring_size_; ++offset) {
      if (!bin_slot(bin + static_cast<int64_t>(offset)).empty()) {
        local_next = bin + static_cast<int64_t>(offset);
        break;
      }
    }
    bin_box_t<vid_t>& mine_next = shared_.boxes[(iteration + 1) & 1][static_cast<size_t>(tid_)];
    mine_next.items.clear();
    mine_next.label = local_next;
    if (local_next != k_no_bin) {
      mine_next.items.swap(bin_slot(local_next));
      std::atomic_ref<int64_t> next(shared_.shared_bin[(iteration + 1) % 3]);
      int64_t seen = next.load(std::memory_order_relaxed);
      while (local_next < seen && !next.compare_exchange_weak(seen, local_next)) {
      }
    }
    shared_.cursors[(iteration + 1) & 1][static_cast<size_t>(tid_)].next.store(
        0, std::memory_order_relaxed);
  }

  int64_t* d_;
  const rows_t& rows_;
  phase_boxes_t<vid_t>& shared_;
  team_stop_t& stop_;
  int tid_;
  int team_;
  int64_t delta_;
  uint64_t ring_size_;
  uint64_t ring_mask_;
  std::vector<std::vector<vid_t>> ring_;
  std::vector<vid_t> fused_;
};

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
  reset_search_arrays(n, previous != nullptr, dist, parents);
  stage_scope_t loop_stage("sssp.loop");
  dist[source] = 0;
  const weight_column_t w_out = column_of(out, objective);
  const weight_column_t w_in = column_of(in, objective);
  phase_boxes_t<vid_t> shared(static_cast<size_t>(threads));
  shared.boxes[0][0].items.push_back(source);
  shared.boxes[0][0].label = 0;
  team_stop_t stop(cancel);
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
    } else {
      scan_weights_on_team(out, w_out, range, edges);
    }
    const bin_ring_t ring = bin_ring_of(range, requested_delta, edges, n);
    delta_thread_t<vid_t, rows_t> me(d, rows, shared, stop, tid, team, ring);
    if (ring.valid) me.run();
    // Every thread left the loop after the same barrier; this decides for all of them.
#pragma omp single
    parents_wanted = ring.valid && !stop.stopped();

    const int64_t my_changed =
        parents_wanted
            ? canonical_parents_team(in, w_in, d, source, in_sorted, parents.data(), previous)
            : 0;
#pragma omp atomic
    total_relaxations += me.relaxations;
#pragma omp atomic
    total_pushes += me.pushes;
#pragma omp atomic
    total_changed += my_changed;
    if (tid == 0) phases = me.iteration;
  }
  throw_if_cancelled(stop, k_search_stopped);
  counters.relaxations += total_relaxations;
  counters.pushes += total_pushes;
  counters.buckets += phases;
  if (changed) *changed += total_changed;
  return range.min_slot < 0 || range.min_weight >= 1;
}

}  // namespace dyng::sssp::detail
