// Dynamic breadth-first search (the tutorial algorithm): BFS levels from one source, kept current
// while the graph changes in batches.
//
// levels[v] is the number of edges on a shortest path from the source (int64), -1 when v is not
// reachable; weights are ignored. update() repairs the levels after graph_t::apply() with the
// invalidate-then-reconnect scheme that sssp uses, specialised to unit weights
// (detail/level_repair.hpp), through the shared dynamic-update policy. The levels of a vertex
// are unique, so every backend, and update versus compute, agree exactly.
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

namespace dyng::dynamic_bfs {

inline constexpr int64_t k_unreached = -1;

/// Only the tuning knobs (core/tuning_knobs.hpp), not part of the Python API: repair_budget is
/// a fraction of the stored edges; parallel_min_edges 0 also runs the team on every frontier.
struct options_t : tuning_knobs_t {};

/// A repaired edge costs a few times a compute's sequential edge (random access, bookkeeping):
/// giving up after a tenth of m keeps an abandoned repair well under the recompute.
inline constexpr double k_default_repair_budget = 0.1;
inline constexpr int64_t k_default_parallel_min_edges = 200000;

template <class vid_t>
struct state_t {
  vid_t source = 0;
  std::vector<int64_t> levels;

  static constexpr auto arrays() {
    return std::tuple{result_array_t<state_t, int64_t>{"levels", &state_t::levels, k_unreached}};
  }
};

/// The common fields (affected = vertices whose level changed, iterations = levels settled,
/// frontier_visits = edges examined) and the repair's invalidation counters.
struct stats_t : update_stats_t {
  int64_t invalidated = 0;          ///< Vertices whose level the batch's deletions took away.
  int64_t invalidation_rounds = 0;  ///< Rounds of the invalidation (waves down the BFS DAG).
};

/// Levels from `source`. Throws invalid_argument_error for a source that is not a vertex and
/// for a directed graph without in-edges (the repair reads them).
template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state);

/// Repairs `state` (valid for the graph before the batch) after `graph.apply(batch, &log)`.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state);

}  // namespace dyng::dynamic_bfs
