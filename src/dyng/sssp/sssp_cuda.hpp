// sssp on a device-resident graph: the result lives in device memory and update() repairs it
// there. These entry points (sssp_cuda_entry.cpp) own device selection, the input checks against
// the host graph and the copies between host and device results; the GPU algorithms themselves
// (and the growth of a result, which the shared update policy does) work on device adjacency
// views (detail/cuda_views.hpp). No CUDA types here (streams are void*), so the bindings include
// it.
#pragma once

#include <cstdint>
#include <tuple>

#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::sssp::cuda {

/// What update() keeps between batches so that a small repair costs O(the vertices it touches)
/// rather than O(n) (sssp_cuda_update.cu, detail/cuda/touched.cuh): a mirror of the state as the
/// last update left it, which the repair compares against and a fallback counts against, and
/// per-vertex flags and search stamps that every update leaves clean. 32 bytes per vertex with
/// 32-bit ids (44 with 64-bit), allocated by the first update; a clone or a result made any other
/// way starts without it, and the first update then mirrors the whole state once.
template <class vid_t>
struct repair_memory_t {
  ::dyng::cuda::device_buffer<int64_t> distances;  ///< the mirror
  ::dyng::cuda::device_buffer<vid_t> parents;
  ::dyng::cuda::device_buffer<unsigned> flags;  ///< 0 between updates
  ::dyng::cuda::device_buffer<int> stamps;      ///< 2 x capacity: near, then far; -1 between
  ::dyng::cuda::device_buffer<vid_t> touched;   ///< an update's touched list (no meaning between)
  ::dyng::cuda::device_buffer<vid_t> cut;       ///< an update's cut vertices (likewise)
  int64_t capacity = 0;
  /// Vertices [0, mirrored) are mirrored with clean flags and stamps; -1 when nothing is known
  /// to be (a fresh memory, or an update that failed part-way).
  int64_t mirrored = -1;
};

/// Distances and canonical parents of one source, in device memory of `device` (the result that
/// update() repairs in place; the device-graph layer and the bindings hold it).
template <class vid_t>
struct device_state_t : ::dyng::cuda::device_result_t<vid_t> {
  using host_type = state_t<vid_t>;
  ::dyng::cuda::device_buffer<int64_t> distances;
  ::dyng::cuda::device_buffer<vid_t> parents;
  /// The bucket width update() repairs with when its delta is 0: compute()'s pick from a sample
  /// of the weights, taken on the first such update and kept (0 until then). The width only
  /// schedules the repair (every width gives the same result), and sampling on every update cost
  /// a pass over all rows and a wait per batch.
  int64_t repair_width = 0;
  /// update()'s memory between batches (see repair_memory_t); not part of the result's value.
  repair_memory_t<vid_t> repair_memory;

  static constexpr auto device_arrays() {
    return std::tuple{&device_state_t::distances, &device_state_t::parents};
  }
};

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

/// update()'s default budget (a fraction of the stored edges): a repair relaxes edges about as
/// fast as compute() does, so an abandoned one costs a few percent of the recompute that follows
/// (gpu-sssp.md, "Update").
inline constexpr double k_default_gpu_repair_budget = 0.1;

}  // namespace dyng::sssp::cuda
