// Dynamic multi-objective shortest paths (MOSP): one shortest-path tree per objective, combined
// into one tree that prefers edges many trees share, kept current under batches.
//
// Method (Khanda, Shovan and Das, "A Parallel Algorithm for Updating a Multi-objective Shortest
// Path in Large Dynamic Networks", SC-W 2023, and its TPDS 2025 version): for each of the K
// objectives (weight columns) a canonical sssp tree; the combined graph holds every edge of any
// tree, edge (u, v) weighing L*(K+1) - sum over the trees i that contain it of L/pref_i, where
// L = lcm(preferences) keeps the weights integral (a lower preference is a higher priority); the
// MOSP tree is the canonical sssp tree of the combined graph; each vertex's K path costs are the
// objective weights summed along its MOSP tree path.
//
// The combined graph's in-edges of v are a function of v's K tree parents alone, so an update
// rebuilds the in-edges of exactly the vertices whose parent tuple changed and hands those edge
// changes to sssp's own update on the combined graph; path costs are then recomputed below the
// vertices whose MOSP path changed.
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
#include "dyng/mosp/detail/combined_store.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::mosp {

inline constexpr int k_max_objectives = 64;
inline constexpr int64_t k_max_preference_scale = int64_t{1} << 20;

/// With the tuning knobs (core/tuning_knobs.hpp), handed to every sssp search and repair.
struct options_t : tuning_knobs_t {
  /// One per objective (>= 1; a lower value is a higher priority), or empty for all 1.
  std::vector<int64_t> preferences;
  /// Bucket width of the per-objective searches; 0 picks one from the weights.
  int64_t delta = 0;
  bool compute_path_costs = true;
  /// Check weights (>= 1 in every objective column) and the source before running.
  bool validate_inputs = true;
  /// Objectives = the first num_objectives weight columns; 0 means all of them.
  int num_objectives = 0;
};

template <class vid_t>
struct state_t {
  vid_t source = 0;
  int num_objectives = 0;
  int64_t preference_scale = 1;       ///< L = lcm(preferences)
  std::vector<int64_t> tree_weights;  ///< L / pref_i: what membership in tree i takes off
  std::vector<sssp::state_t<vid_t>> trees;
  detail::combined_store_t<vid_t> combined_graph;
  std::vector<int64_t> combined_distances;  ///< In units of 1/L.
  std::vector<vid_t> combined_parents;
  /// n x K, row-major; empty unless has_path_costs.
  std::vector<int64_t> path_costs;
  bool has_path_costs = false;
  /// False after an update that failed part-way (out of memory): the arrays mix two graph
  /// versions, so readers and updates refuse the state until it is computed again.
  bool consistent = true;

  static constexpr auto arrays() {
    return std::tuple{
        result_array_t<state_t, int64_t>{"combined_distances", &state_t::combined_distances,
                                         sssp::k_infinite_distance},
        result_array_t<state_t, vid_t>{"combined_parents", &state_t::combined_parents, vid_t{-1}}};
  }
};

/// The common fields (affected = vertices whose MOSP distance or parent changed; iterations and
/// frontier_visits summed over every search), each objective's sssp stats, the combined graph's
/// edge count and L.
struct stats_t : update_stats_t {
  std::vector<sssp::stats_t> objectives;
  int64_t combined_edges = 0;
  int64_t preference_scale = 1;
};

/// Throws invalid_argument_error for options that do not suit a graph with `graph_weights`
/// weight columns (num_objectives, preferences, their lcm, delta), naming the bad value. Returns
/// the number of objectives.
int check_options(const options_t& options, int graph_weights, const char* fn);

/// Throws invalid_argument_error when a batch would insert a weight < 1 into an objective column.
template <class vid_t>
void validate_batch(const edge_batch_t<vid_t>& batch, const options_t& options);

/// The same rule from what a scan of all weight columns found (sssp::check_insertion_weights).
void check_insertion_weights(const weight_fault_t* first_below_one, int num_weights,
                             const options_t& options);

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state);

/// Repairs `state` (valid for the graph before the batch) after `graph.apply(batch, &log)`.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state);

/// A state from given per-objective trees (Result.from_arrays): each tree is canonicalized when
/// asked and, with options.validate_inputs, checked to be a shortest-path tree; the combined
/// graph, the MOSP tree and the path costs are then computed.
template <class vid_t, class eid_t>
state_t<vid_t> from_trees(const graph_t<vid_t, eid_t>& graph, vid_t source,
                          std::vector<sssp::state_t<vid_t>> trees, bool canonicalize,
                          const options_t& options, const execution_t& exec);

/// testing.combined_graph: the combined graph of K parent arrays (CSR, sorted rows).
template <class vid_t>
csr_t<vid_t, int64_t> combined_graph_of(const std::vector<std::vector<vid_t>>& parents,
                                        vid_t source, const std::vector<int64_t>& preferences);

/// testing.mosp_path_costs: the K path costs along `parents` (n x K, row-major).
template <class vid_t, class eid_t>
std::vector<int64_t> path_costs_of(const graph_t<vid_t, eid_t>& graph,
                                   const std::vector<vid_t>& parents, vid_t source,
                                   int num_objectives);

}  // namespace dyng::mosp
