// cycle_count on a device-resident graph: the path searches of cycle_count.hpp run as GPU kernels
// (detail/cuda/path_search.cuh), compute over every root and update through the batch's changed
// edges, the latter under the same update steps as the host backends (detail/update_steps.hpp).
// The histogram itself (bound + 1 counts) stays in host memory: it is small, every reader wants
// it there, and the kernels add into a device copy that each call reads back once.
// No CUDA types here (streams are void*), so the bindings include it.
#pragma once

#include <cstdint>

#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::cycle_count::cuda {

/// The longest cycle the GPU searches count: a search keeps its path (at most bound - 1 vertices
/// below the root) in shared memory.
inline constexpr int64_t k_max_bound = 64;

/// A histogram computed on `device`; copies between spaces are plain copies of the counts
/// (backend/cuda/device_result.hpp's self_copying_result).
template <class vid_t>
struct device_state_t : state_t<vid_t> {
  using host_type = state_t<vid_t>;
  int device = 0;

  device_state_t deep_copy(void*) const { return *this; }
  host_type copy_to_host(void*) const { return host_type(*this); }
  static device_state_t copy_from_host(const host_type& host, int device, void*) {
    device_state_t state;
    static_cast<host_type&>(state) = host;
    state.device = device;
    return state;
  }
};

/// Counts into `state` on the device of `graph`; `host` is the same graph in host memory (the
/// authority the device copy mirrors). Throws not_supported_error for a bound above k_max_bound.
template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host,
                const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph, const options_t& options,
                void* stream, device_state_t<vid_t>& state);

/// Repairs `state` after `host.apply(batch, &log)` and the device copy's sync.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host,
               const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state);

}  // namespace dyng::cycle_count::cuda
