// Connected components kept current while the graph changes in batches: weakly connected
// components (the connected components of an undirected graph) and strongly connected ones.
//
// labels[v] is the smallest vertex id of v's component, so the answer is canonical: every backend,
// and update versus compute, give the same labels bit for bit. sizes[c] is the number of vertices
// labelled c (0 when c is not a label) and count the number of components. compute() runs
// union-find (weak) or an iterative Tarjan (strong); update() repairs through the shared
// dynamic-update policy (core/dynamic_update.hpp): insertions merge, a deletion searches for
// another path and splits only when there is none (detail/weak_repair.hpp, strong_repair.hpp).
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

namespace dyng::components {

/// Which components: weak (edge directions ignored) or strong (mutual reachability).
enum class kind_t : int { weak = 0, strong = 1 };

/// The kind, and the tuning knobs (core/tuning_knobs.hpp): repair_budget is a fraction of the
/// stored edges plus vertices; parallel_min_edges 0 also runs the team on tiny graphs.
struct options_t : tuning_knobs_t {
  kind_t kind = kind_t::weak;
};

/// A repair that searches more than a fifth of the graph is no cheaper than union-find over all of
/// it, which reads every edge once in order.
inline constexpr double k_default_repair_budget = 0.2;
inline constexpr int64_t k_default_parallel_min_edges = 200000;

/// What a result holds besides its arrays; the device state (components_cuda.hpp) shares it.
struct summary_t {
  int64_t count = 0;           ///< Number of components.
  kind_t kind = kind_t::weak;  ///< What the labels are components of (compute sets it).
};

template <class vid_t>
struct state_t : summary_t {
  std::vector<int64_t> labels;  ///< Smallest vertex id of the vertex's component.
  std::vector<int64_t> sizes;   ///< Vertices per label, indexed by the label (a vertex id).

  // Growth fills -1 and 0; the repair then makes each new vertex a component of its own.
  static constexpr auto arrays() {
    return std::tuple{result_array_t<state_t, int64_t>{"labels", &state_t::labels, -1},
                      result_array_t<state_t, int64_t>{"sizes", &state_t::sizes, 0}};
  }
  static constexpr auto scalars() {
    return std::tuple{result_scalar_t<summary_t, int64_t>{"count", &summary_t::count}};
  }
};

/// The common fields (affected = vertices whose label or size entry changed, iterations = searches
/// of an update, frontier_visits = edges examined) and what an update did.
struct stats_t : update_stats_t {
  int64_t merged = 0;       ///< Components that disappeared into another (inserted edges).
  int64_t split = 0;        ///< Components that a deletion added.
  int64_t relabelled = 0;   ///< Vertices whose label changed.
  int64_t searches = 0;     ///< Searches the repair ran (two-sided, relabelling, Tarjan, reach).
  int64_t search_size = 0;  ///< Vertices those searches visited, all together.
};

/// Components of `graph`. Throws invalid_argument_error for kind strong on an undirected graph
/// and for a directed graph without in-edges (the update's searches read them).
template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state);

/// Repairs `state` (valid for the graph before the batch) after `graph.apply(batch, &log)`;
/// `options.kind` must be the one it was computed with (invalid_argument_error otherwise).
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state);

}  // namespace dyng::components
