// What the host entry points of every whole-graph count share (sequential and OpenMP backends):
// the OpenMP team a count gets, and update() as the shared policy over the shared steps with the
// algorithm's host engine.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "dyng/backend/execution.hpp"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/tuning_knobs.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/whole_graph_count/update_steps.hpp"

namespace dyng::whole_graph_count {

/// Threads for a count on `graph`: a team from the options' parallel_min_edges (or the tally's
/// k_default_parallel_min_edges) stored edges on (host_team_size).
template <class tally_t, class vid_t, class eid_t>
int team_size(const execution_t& exec, const graph_t<vid_t, eid_t>& graph,
              const tuning_knobs_t& options) {
  return host_team_size(exec, static_cast<int64_t>(graph.num_edges()),
                        options.min_parallel_edges(tally_t::k_default_parallel_min_edges));
}

/// Threads for a batch's searches, one edge each: team_size(), but no more than the longer of
/// the batch's two edge lists.
template <class tally_t, class vid_t, class eid_t>
int batch_team_size(const execution_t& exec, const graph_t<vid_t, eid_t>& graph,
                    const tuning_knobs_t& options, size_t deleted, size_t inserted) {
  return std::min<int>(team_size<tally_t>(exec, graph, options),
                       static_cast<int>(std::max(deleted, inserted)));
}

/// update() on the host: `state` (valid for the graph before the batch) repaired after
/// `graph.apply(batch, &log)` by an engine_t(graph, options, exec). Checks are the caller's.
template <class tally_t, class engine_t, class vid_t, class eid_t, class options_t>
typename tally_t::stats_type update_on_host(const graph_t<vid_t, eid_t>& graph,
                                            const change_log_t<vid_t>& log,
                                            const options_t& options, const execution_t& exec,
                                            typename tally_t::state_type& state, const char* fn) {
  update_steps_t<tally_t, engine_t> steps(log, state, graph, options, exec);
  return run_update(steps, log, graph.num_vertices(), options.repair_budget, fn);
}

}  // namespace dyng::whole_graph_count
