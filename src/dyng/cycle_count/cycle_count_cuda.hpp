// cycle_count on a device-resident graph: the path searches of cycle_count.hpp run as GPU kernels
// (detail/cuda/path_search.cuh), compute over every root and update through the batch's changed
// edges, the latter under the same update steps as the host backends
// (whole_graph_count/update_steps.hpp).
// The histogram itself (bound + 1 counts) stays in host memory: it is small, every reader wants
// it there, and the kernels add into a device copy that each call reads back once.
// No CUDA types here (streams are void*), so the bindings include it.
#pragma once

#include <cstdint>

#include "dyng/backend/cuda/host_valued_state.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::cycle_count::cuda {

/// The longest cycle the GPU searches count: a search keeps its path (at most bound - 1 vertices
/// below the root) in shared memory.
inline constexpr int64_t k_max_bound = 64;

/// A histogram computed on `device` (kept in host memory).
template <class vid_t>
struct device_state_t : ::dyng::cuda::host_valued_state_t<state_t<vid_t>, device_state_t<vid_t>> {};

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
