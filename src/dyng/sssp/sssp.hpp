// Dynamic single-source shortest paths: compute once, then repair after each batch.
//
// Distances are int64 sums of one int32 weight column (`objective`); unreachable vertices hold
// k_infinite_distance and parent -1. Parents are canonical: the lowest-id in-neighbour u with
// dist[u] + w(u, v) == dist[v], so every backend, and update versus compute, agree bit for bit.
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
#include "dyng/graph/weight_fault.hpp"

namespace dyng::sssp {

inline constexpr int64_t k_infinite_distance = (int64_t{1} << 61) - 1;

/// With the tuning knobs (core/tuning_knobs.hpp), not part of the Python API: repair_budget is
/// a fraction of the stored edges; parallel_min_edges picks the sequential kernel below it.
struct options_t : tuning_knobs_t {
  /// Bucket width for delta-stepping; 0 picks one from the weights.
  int64_t delta = 0;
  /// Weight column used as the edge length.
  int objective = 0;
  /// Check weights (>= 1) and the source before running. compute() scans the weights anyway to
  /// pick its queue, so it rejects weights < 1 either way: a search over them might not finish.
  bool validate_inputs = true;
};

/// Below this many stored edges, a team of threads costs more than the whole sequential search.
inline constexpr int64_t k_default_parallel_min_edges = 200000;
/// One unit of repair work (a relaxation with its queue and bookkeeping, plus the parent repair
/// that follows) costs 2-4x an edge of a full compute (timing driver, R-MAT and grids), so giving
/// up after 2% of m keeps an abandoned repair at a few percent of the recompute that follows.
inline constexpr double k_default_repair_budget = 0.02;

/// The per-vertex result that update() repairs in place.
template <class vid_t>
struct state_t {
  vid_t source = 0;
  std::vector<int64_t> distances;
  std::vector<vid_t> parents;

  static constexpr auto arrays() {
    return std::tuple{
        result_array_t<state_t, int64_t>{"distances", &state_t::distances, k_infinite_distance},
        result_array_t<state_t, vid_t>{"parents", &state_t::parents, vid_t{-1}}};
  }
};

/// The common fields (update_stats_t: affected = vertices whose distance or parent changed,
/// iterations = buckets or delta-stepping phases, frontier_visits = edge relaxations) and sssp's
/// own counters.
struct stats_t : update_stats_t {
  int64_t invalidated = 0;  ///< Vertices whose tree path was cut by the batch.
  int64_t epochs = 0;
  int64_t pushes = 0;  ///< Queue insertions.
  bool packed_parents = false;
};

/// Throws not_supported_error for an unweighted graph or one without in-edges,
/// invalid_argument_error for bad options or a source that is not a vertex, and (with
/// options.validate_inputs) for an objective weight outside [1, 2^31-1], naming the edge.
template <class vid_t, class eid_t>
void validate_graph(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
                    const char* fn = "sssp.compute()");

/// Throws invalid_argument_error when a batch would insert a weight < 1 into the objective
/// column. Called before the batch is applied so that a rejected batch changes nothing. `fn`
/// names the public call in the message, and up to its first dot the algorithm whose rule it
/// is (mosp checks each of its objectives with this rule under its own name).
template <class vid_t>
void validate_batch(const edge_batch_t<vid_t>& batch, const options_t& options,
                    const char* fn = "sssp.update()");

/// The same rule from what a scan found: `first_below_one[c]` is the first insertion whose
/// weight in column c is below 1 (batch_validate.hpp), for c < num_weights (only the objective's
/// entry is read). A batch staged in device memory is judged this way (its kernel scans all
/// columns at once).
void check_insertion_weights(const weight_fault_t* first_below_one, int num_weights,
                             const options_t& options, const char* fn = "sssp.update()");

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state);

/// Repairs `state` (valid for the graph before the batch) after `graph.apply(batch, &log)`.
/// Falls back to compute() when the affected region is large; stats.path says which ran.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state);

/// Rewrites every parent to the canonical one for the given distances (Result.from_arrays).
template <class vid_t, class eid_t>
void canonicalize_parents(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                          const execution_t& exec, state_t<vid_t>& state);

/// Throws invalid_argument_error unless `state` holds exactly the shortest distances from its
/// source and tight parents (-1 for the source and unreachable vertices), naming the first
/// vertex that breaks it (Result.from_arrays with options.validate_inputs; `canonicalized` says
/// the parents came from canonicalize_parents, for the wording).
template <class vid_t, class eid_t>
void check_result(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                  const state_t<vid_t>& state, bool canonicalized, const char* fn);

/// Serial Dijkstra with a binary heap: the oracle the tests compare against.
template <class vid_t, class eid_t>
state_t<vid_t> reference_dijkstra(const graph_t<vid_t, eid_t>& graph, vid_t source, int objective);

}  // namespace dyng::sssp
