// mosp on a device-resident graph: the K trees, the combined graph, the MOSP tree and the path
// costs all live in device memory, and update() repairs them there. No CUDA types here (streams
// are void*), so the bindings include it; the kernels are in detail/cuda/*.cuh.
//
// compute: the K trees in one joint GPU search over vertex-objective items
// (sssp::cuda::compute_joint), the combined graph built on the device from their parents
// (detail/cuda/combined_graph.cuh), its canonical tree by sssp's GPU compute, and the path costs
// by pointer jumping up the MOSP tree (detail/cuda/path_costs.cuh).
// update: each tree by sssp's GPU update (its own budget and fallback), the combined graph
// rebuilt from the new parents and diffed row by row against the old one, which gives the edge
// changes sssp's GPU update repairs the MOSP tree from, then the path costs again (a few
// passes over n*K entries, cheaper on the GPU than finding the subtrees that moved).
//
// Stats: on the GPU the K searches of a compute are one, so each objective's Stats carries the
// joint search's counters and the mosp Stats counts them once (plus the MOSP tree's).
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/mosp/mosp.hpp"
#include "dyng/sssp/sssp_cuda.hpp"

namespace dyng::mosp::cuda {

using ::dyng::cuda::device_buffer;

/// The combined graph in device memory. Vertex v's in-row is the fixed slot range
/// [v*K, v*K + in-degree) (at most K distinct tree parents), so it is written without a prefix
/// sum; out-rows are packed (a counting sort of the in-edges by source, in no particular order
/// within a row, which no reader needs). int64 slots, one weight column.
template <class vid_t>
struct device_combined_graph_t {
  int64_t num_vertices = 0;
  int width = 0;  ///< K: in-row slots per vertex
  device_buffer<int64_t> in_begin, in_end, out_begin, out_end;
  device_buffer<vid_t> in_col, out_col;
  device_buffer<int32_t> in_weights, out_weights;

  adjacency_view_t<vid_t, int64_t> in_view() const {
    return {static_cast<vid_t>(num_vertices),
            1,
            in_begin.data(),
            in_end.data(),
            in_col.data(),
            in_weights.data()};
  }
  adjacency_view_t<vid_t, int64_t> out_view() const {
    return {static_cast<vid_t>(num_vertices),
            1,
            out_begin.data(),
            out_end.data(),
            out_col.data(),
            out_weights.data()};
  }
};

/// A mosp result in device memory of `device` (the host state's counterpart, state_t).
template <class vid_t>
struct device_state_t : ::dyng::cuda::device_result_t<vid_t> {
  using host_type = state_t<vid_t>;
  int num_objectives = 0;
  int64_t preference_scale = 1;
  std::vector<int64_t> tree_weights;  ///< L / pref_i
  std::vector<sssp::cuda::device_state_t<vid_t>> trees;
  device_combined_graph_t<vid_t> combined_graph;
  int64_t combined_edges = 0;
  device_buffer<int64_t> combined_distances;  ///< In units of 1/L.
  device_buffer<vid_t> combined_parents;
  /// The combined tree's repair memory between updates (sssp's repair_memory_t), so that an
  /// update does not allocate and mirror it afresh; mirrored = -1 after a compute of the tree.
  sssp::cuda::repair_memory_t<vid_t> combined_repair;
  /// The combined tree's repair width (sssp's repair_width; 0: its next update samples one).
  int64_t combined_width = 0;
  /// n x K, row-major; empty unless has_path_costs.
  device_buffer<int64_t> path_costs;
  bool has_path_costs = false;
  /// False after an update that failed part-way (as state_t::consistent).
  bool consistent = true;

  /// The vertex-indexed arrays the result handle exposes as device views (host_type::arrays()).
  static constexpr auto device_arrays() {
    return std::tuple{&device_state_t::combined_distances, &device_state_t::combined_parents};
  }
  /// The copies (backend/cuda/device_result.hpp, self_copying_result); each waits until done.
  device_state_t deep_copy(void* stream) const;
  host_type copy_to_host(void* stream) const;
  static device_state_t copy_from_host(const host_type& host, int device, void* stream);
};

/// Computes into `state` on the device of `graph`; `host` is the same graph in host memory (the
/// authority the device copy mirrors; it names a bad edge in error messages). Returns when the
/// work on `stream` is done. Throws what mosp::compute throws for bad input.
template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host,
                const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph, vid_t source,
                const options_t& options, void* stream, device_state_t<vid_t>& state);

/// Repairs `state` after `host.apply(batch, &log)` and the device copy's sync. An update that
/// fails after the trees moved leaves the state inconsistent (readers refuse it).
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host,
               const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state);

}  // namespace dyng::mosp::cuda
