// What the CUDA entry points of every whole-graph count share: the counts stay in host memory
// (a device state is the host state plus its device, backend/cuda/host_valued_state.hpp), and
// compute and update run the algorithm's device engine on the graph's device, update under the
// shared steps. No CUDA types here; the engines are the algorithms' .cu files'.
#pragma once

#include <cstdint>
#include <utility>

#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/graph/cuda/device_update.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/whole_graph_count/update_steps.hpp"

namespace dyng::whole_graph_count {

/// compute() on the device of `graph`: an engine_t(host, graph, options, stream) counts into a
/// fresh device state, which replaces `state` once complete. Checks are the caller's.
template <class engine_t, class vid_t, class eid_t, class options_t, class device_state_t>
auto compute_on_device(const graph_t<vid_t, eid_t>& host,
                       const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph,
                       const options_t& options, void* stream, device_state_t& state) {
  const ::dyng::cuda::device_scope_t scope(graph.device());
  engine_t engine(host, graph, options, stream);
  device_state_t fresh;
  fresh.device = graph.device();
  const auto stats = engine.compute(fresh);
  state = std::move(fresh);
  return stats;
}

/// update() on the device of `graph`, by the shared steps over an engine_t(host, graph,
/// options, stream). Checks are the caller's.
template <class tally_t, class engine_t, class vid_t, class eid_t, class options_t,
          class device_state_t>
typename tally_t::stats_type update_on_device(
    const graph_t<vid_t, eid_t>& host, const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph,
    const change_log_t<vid_t>& log, const options_t& options, void* stream, device_state_t& state,
    const char* fn) {
  return ::dyng::cuda::update_on_device<update_steps_t<tally_t, engine_t>>(
      state, graph, log, host.num_vertices(), options.repair_budget, fn, log,
      static_cast<typename tally_t::state_type&>(state), host, graph, options, stream);
}

}  // namespace dyng::whole_graph_count
