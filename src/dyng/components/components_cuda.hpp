// components on a device-resident graph: labels and sizes live in device memory, the count and
// the kind on the host (summary_t), and update() repairs them there through the shared
// dynamic-update policy. Weak components: union-find with Afforest's neighbour sampling
// (detail/cuda/union_find_kernels.cuh); strong ones: ECL-SCC's signature propagation
// (detail/cuda/signature_kernels.cuh). No CUDA types here (streams are void*), so the bindings
// include it.
#pragma once

#include <cstdint>
#include <tuple>

#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/components/components.hpp"
#include "dyng/core/result_arrays.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::components::cuda {

/// The strong update's breadth-first trees of one hub vertex (detail/cuda/hub_trees.cuh): what it
/// reaches and what reaches it, parent and depth per vertex (parent -1 outside). Rebuilt when
/// absent (hub -1): a clone, a copy or a recompute leaves them out (an update's copy on write
/// takes them over: work_caches()), and a repair drops them while it changes them, so a repair
/// that stops half-way leaves none.
template <class vid_t>
struct hub_trees_t {
  int64_t hub = -1;
  ::dyng::cuda::device_buffer<vid_t> forward_parent, backward_parent;
  ::dyng::cuda::device_buffer<int32_t> forward_depth, backward_depth;
};

/// Labels and sizes in device memory of `device`, count and kind on the host
/// (backend/cuda/device_result.hpp clones, copies and grows it).
template <class vid_t>
struct device_state_t : ::dyng::cuda::device_placement_t, summary_t {
  using host_type = state_t<vid_t>;
  using fields_type = summary_t;
  /// Growth leaves new vertices unlabelled (-1); the repair makes each a component of its own.
  static constexpr bool k_new_vertices_need_repair = true;
  ::dyng::cuda::device_buffer<int64_t> labels;
  ::dyng::cuda::device_buffer<int64_t> sizes;
  hub_trees_t<vid_t> trees;  ///< Not part of the answer: only clone_for_update() carries it.

  static constexpr auto device_arrays() {
    return std::tuple{&device_state_t::labels, &device_state_t::sizes};
  }
  static constexpr auto work_caches() { return std::tuple{&device_state_t::trees}; }
};

/// Computes into `state` on the device of `graph`; `host` is the same graph in host memory (the
/// authority the device copy mirrors). Returns when the work on `stream` is done. Throws what the
/// host compute throws for a strong kind on an undirected graph and for missing in-edges.
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

/// update()'s default budget on the GPU, a fraction of the stored edges plus vertices: the
/// repair re-links whole components, so past about half the graph a recompute costs the same.
inline constexpr double k_default_gpu_repair_budget = 0.5;

}  // namespace dyng::components::cuda
