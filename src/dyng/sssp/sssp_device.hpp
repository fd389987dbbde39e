// sssp on a device-resident graph: the result lives in device memory and update() repairs it
// there. This layer owns device selection, the input checks against the host graph and the
// copies between host and device results; the GPU algorithms themselves (and the growth of a
// result, which the shared update policy does) are in sssp_cuda.hpp.
#pragma once

#include <cstdint>

#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/sssp/sssp.hpp"
#include "dyng/sssp/sssp_cuda.hpp"

namespace dyng::sssp::cuda {

/// Computes into `state` on the device of `graph`. `host` is the same graph in host memory (it
/// is the authority the device copy mirrors, and it names the edge in error messages).
/// `stream` orders the work; the call returns when it is done.
template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host,
                const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph, vid_t source,
                const options_t& options, void* stream, device_state_t<vid_t>& state);

/// Repairs `state` after `host.apply(batch, &log)` and `graph.sync(host, log)`.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host,
               const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state);

}  // namespace dyng::sssp::cuda
