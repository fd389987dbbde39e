// Exact histograms of directed simple cycles by length, kept current while the graph changes.
//
// counts[l] is the number of simple directed cycles with l edges, 2 <= l <= bound, each cycle
// counted once (not once per rotation); a 2-cycle is a pair of opposite edges, self-loops are
// ignored, weights too. bound = min(max_length, max(n, 2)), or max(n, 2) without a limit.
//
// compute: every cycle is counted from its smallest vertex (its root) as a simple path from the
// root back to it through larger vertices (detail/cycle_paths.hpp; detail/johnson.hpp when the
// bound covers every length). update: the cycles a batch
// removed all pass through a deleted edge and are counted on the graph before the batch, the ones
// it added pass through an inserted edge and are counted on the graph after it; a cycle through
// several changed edges is counted once, at the first of them (the searches through e_i avoid
// e_1 .. e_{i-1}). Counts are exact and never wrap: capacity_error past 2^64 - 1.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/core/result_arrays.hpp"
#include "dyng/core/tuning_knobs.hpp"
#include "dyng/core/update_stats.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::cycle_count {

/// max_length for "no limit" (the bound is then max(n, 2)).
inline constexpr int64_t k_unbounded = -1;

/// The tuning knobs (core/tuning_knobs.hpp): repair_budget is a fraction of the last full
/// count's work (path vertices and row slots read); below parallel_min_edges stored edges the
/// OpenMP team still joins once a count has done a few milliseconds of work alone (a small graph
/// may hold millions of cycles).
struct options_t : tuning_knobs_t {
  /// Longest cycle counted (>= 2), or k_unbounded.
  int64_t max_length = k_unbounded;
  /// Tuning knobs of the CUDA backend (tests): at most this many search slots per wave (-1:
  /// as many as k_slot_budget_bytes of device memory hold), and the paths a level list must
  /// hold before the lane groups finish them depth-first (-1: enough to fill the GPU; 0: as
  /// soon as a list can go deeper).
  int64_t gpu_wave_slots = -1;
  int64_t gpu_depth_first_paths = -1;
};

/// An update's searches cost about what the same paths cost a compute, so a repair past half a
/// compute's work is given up for the compute.
inline constexpr double k_default_repair_budget = 0.5;
inline constexpr int64_t k_default_parallel_min_edges = 4096;

/// The histogram (vid_t is the graph's; only int32 ids are supported, as in 0.2).
template <class vid_t>
struct state_t {
  int64_t num_vertices = 0;
  int64_t max_length = k_unbounded;
  /// bound + 1 entries; [0] and [1] are 0.
  std::vector<uint64_t> counts;
  /// Work of the last full count (path vertices and row slots): what update() budgets against.
  int64_t compute_work = 0;

  static constexpr auto arrays() {
    return std::tuple{result_array_t<state_t, uint64_t>{"counts", &state_t::counts, 0}};
  }
  static constexpr auto scalars() {
    return std::tuple{result_scalar_t<state_t, int64_t>{"max_length", &state_t::max_length}};
  }
};

/// The common fields (affected = lengths whose count changed; iterations = 0; frontier_visits =
/// changed edges searched by an update, roots by a compute) and the batch's cycle counters.
struct stats_t : update_stats_t {
  int64_t deletions = 0;   ///< Edges the batch removed (self-loops aside).
  int64_t insertions = 0;  ///< Edges it added, net of those it also removed.
  /// Cycles through the deleted and through the inserted edges (after a recompute, the net
  /// decrease and increase over the lengths).
  uint64_t cycles_removed = 0;
  uint64_t cycles_added = 0;
};

/// min(max_length, max(n, 2)), or max(n, 2) without a limit.
inline int64_t bound_of(int64_t max_length, int64_t num_vertices) {
  const int64_t most = num_vertices > 2 ? num_vertices : 2;
  return max_length == k_unbounded || max_length > most ? most : max_length;
}

/// Throws not_supported_error for 64-bit ids and invalid_argument_error for rows that are not
/// sorted or may hold parallel edges; `fn` names the public call.
template <class vid_t, class eid_t>
void check_graph(const graph_t<vid_t, eid_t>& graph, const char* fn);

/// Throws invalid_argument_error for a max_length that is neither k_unbounded nor >= 2.
void check_options(const options_t& options, const char* fn);

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state);

/// Repairs `state` (valid for the graph before the batch) after `graph.apply(batch, &log)`.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state);

/// testing.simple_cycles: the untrimmed histogram (bound + 1 entries) by plain enumeration of
/// every cycle from its root, with none of compute()'s shortcuts (an oracle for it).
template <class vid_t, class eid_t>
std::vector<uint64_t> enumerate_cycles(const graph_t<vid_t, eid_t>& graph, int64_t max_length);

}  // namespace dyng::cycle_count
