// triangle_delta on a device-resident graph: the row intersections of triangle_delta.hpp as GPU
// kernels (detail/cuda/triangle_kernels.cuh), compute over every vertex and update through the
// batch's changed edges, the latter under the same update steps as the host backends
// (whole_graph_count/update_steps.hpp). The count is one number that every reader wants on the
// host, so the state stays there; the kernels add into a device counter that each call reads
// back once.
// No CUDA types here (streams are void*), so the bindings include it.
#pragma once

#include "dyng/backend/cuda/host_valued_state.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/triangle_delta/triangle_delta.hpp"

namespace dyng::triangle_delta::cuda {

/// A count made on `device` (kept in host memory).
template <class vid_t>
struct device_state_t : ::dyng::cuda::host_valued_state_t<state_t<vid_t>, device_state_t<vid_t>> {};

/// Counts into `state` on the device of `graph`; `host` is the same graph's host handle (its
/// properties, counts and version; a device graph keeps no host rows).
template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host,
                const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph, const options_t& options,
                void* stream, device_state_t<vid_t>& state);

/// Repairs `state` after the batch of `log` was applied to `graph`.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host,
               const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state);

}  // namespace dyng::triangle_delta::cuda
