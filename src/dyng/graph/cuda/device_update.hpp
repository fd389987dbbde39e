// The prologue of every device entry point's update: the result must live on the device of the
// graph it is updated against, and that device is current while the update runs (the caller's
// current device comes back afterwards, device_scope.hpp). update_on_device() adds the shared
// policy over the algorithm's steps, for the algorithms whose update is exactly that.
// No CUDA types here.
#pragma once

#include <cstdint>
#include <utility>

#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::cuda {

/// body() on the device of `graph`, once `state` is known to live there. `fn` names the public
/// call in the error.
template <class S, class G, class F>
decltype(auto) on_graph_device(const S& state, const G& graph, const char* fn, F&& body) {
  check_on_device(state, graph.device(), fn);
  const device_scope_t scope(graph.device());
  return std::forward<F>(body)();
}

/// run_update() over steps_t(steps_args...), made and run on the device of `graph` (the steps
/// may allocate there); `num_vertices` is the graph's after the batch, `budget` the options'
/// repair_budget.
template <class steps_t, class S, class G, class vid_t, class... steps_args_t>
typename steps_t::stats_type update_on_device(const S& state, const G& graph,
                                              const change_log_t<vid_t>& log, int64_t num_vertices,
                                              double budget, const char* fn,
                                              steps_args_t&&... steps_args) {
  return on_graph_device(state, graph, fn, [&] {
    steps_t steps(std::forward<steps_args_t>(steps_args)...);
    return run_update(steps, log, num_vertices, budget, fn);
  });
}

}  // namespace dyng::cuda
