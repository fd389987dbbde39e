// Triangle counts of an undirected graph, kept current while the graph changes (a tutorial of
// the update seam with a whole-graph result, like cycle_count's histogram).
//
// count is the number of triangles {u, v, w} (three distinct vertices, pairwise adjacent);
// self-loops and weights are ignored. compute intersects the sorted rows of every edge's ends.
// update: the triangles a batch removed each hold a deleted edge and are counted on the graph
// before the batch, the ones it added each hold an inserted edge and are counted on the graph
// after it; a triangle with several changed edges is counted once, at the first of them in
// (u, v) order. The graph must be undirected with sorted rows and no parallel edges.
#pragma once

#include <cstdint>
#include <tuple>

#include "dyng/backend/execution.hpp"
#include "dyng/core/result_arrays.hpp"
#include "dyng/core/tuning_knobs.hpp"
#include "dyng/core/update_stats.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::triangle_delta {

/// Only the tuning knobs (core/tuning_knobs.hpp); repair_budget is a fraction of the last
/// compute's work (row slots read).
struct options_t : tuning_knobs_t {};

/// A repair reads about the rows a compute reads for the same edges, so past half a compute's
/// work the compute is the cheaper way.
inline constexpr double k_default_repair_budget = 0.5;
inline constexpr int64_t k_default_parallel_min_edges = 4096;

template <class vid_t>
struct state_t {
  int64_t num_vertices = 0;
  uint64_t count = 0;
  /// Row slots the last compute read: what update() budgets against.
  int64_t compute_work = 0;
  static constexpr auto arrays() { return std::tuple{}; }
  static constexpr auto scalars() {
    return std::tuple{result_scalar_t<state_t, uint64_t>{"count", &state_t::count}};
  }
};

/// The common fields (affected = 1 when the count changed; iterations = 0; frontier_visits =
/// changed edges an update intersected, vertices for a compute) and the batch's counters.
struct stats_t : update_stats_t {
  int64_t deletions = 0;   ///< Undirected edges the batch removed (self-loops aside).
  int64_t insertions = 0;  ///< Undirected edges it added, net of those it also removed.
  /// Triangles through the deleted and through the inserted edges (after a recompute, the net
  /// change).
  uint64_t triangles_removed = 0;
  uint64_t triangles_added = 0;
};

/// Throws invalid_argument_error unless the graph is undirected, with sorted rows and without
/// parallel edges; `fn` names the public call.
template <class vid_t, class eid_t>
void check_graph(const graph_t<vid_t, eid_t>& graph, const char* fn);

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state);

/// Repairs `state` (valid for the graph before the batch) after `graph.apply(batch, &log)`.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state);

}  // namespace dyng::triangle_delta
