// dynamic_bfs on a device-resident graph: the levels live in device memory and update() repairs
// them there, through the shared dynamic-update policy, with the GPU kernels of
// detail/cuda/bfs_kernels.cuh. No CUDA types here (streams are void*), so the bindings include it.
#pragma once

#include <cstdint>
#include <tuple>

#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/dynamic_bfs/dynamic_bfs.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::dynamic_bfs::cuda {

/// Levels of one source in device memory of `device` (backend/cuda/device_result.hpp clones,
/// copies and grows it).
template <class vid_t>
struct device_state_t : ::dyng::cuda::device_result_t<vid_t> {
  using host_type = state_t<vid_t>;
  ::dyng::cuda::device_buffer<int64_t> levels;

  static constexpr auto device_arrays() { return std::tuple{&device_state_t::levels}; }
};

/// Computes into `state` on the device of `graph`; `host` is the same graph in host memory (the
/// authority the device copy mirrors). Returns when the work on `stream` is done.
template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host,
                const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph, vid_t source,
                const options_t& options, void* stream, device_state_t<vid_t>& state);

/// Repairs `state` after `host.apply(batch, &log)` and the device copy's sync.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host,
               const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state);

/// update()'s default budget on the GPU, a fraction of the stored edges.
inline constexpr double k_default_gpu_repair_budget = 0.1;

}  // namespace dyng::dynamic_bfs::cuda
