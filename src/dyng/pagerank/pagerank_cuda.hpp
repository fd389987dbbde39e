// pagerank on a device-resident graph: the ranks live in device memory, iterations and residual
// on the host (summary_t), and update() repairs them there through the shared dynamic-update
// policy. The iteration is the host's (detail/power_iteration.hpp), pulled over the in-edges with
// degree-aware scheduling (detail/cuda/row_sums.cuh); the update's frontier rounds are the host's
// too (detail/frontier_iteration.hpp), on device vertex lists (detail/cuda/frontier_launch.cuh).
// No CUDA types here (streams are void*), so the bindings include it.
#pragma once

#include <cstdint>
#include <vector>
#include <tuple>

#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/pagerank/pagerank.hpp"

namespace dyng::pagerank::cuda {

/// Ranks in device memory of `device`, iterations and residual on the host
/// (backend/cuda/device_result.hpp clones, copies and grows it).
template <class vid_t>
struct device_state_t : ::dyng::cuda::device_placement_t, summary_t {
  using host_type = state_t<vid_t>;
  using fields_type = summary_t;
  /// Growth leaves new vertices at rank 0; the repair starts them at their teleport share and
  /// scales every rank, so a batch of new vertices alone needs it.
  static constexpr bool k_new_vertices_need_repair = true;
  ::dyng::cuda::device_buffer<double> ranks;

  static constexpr auto device_arrays() { return std::tuple{&device_state_t::ranks}; }
};

/// Computes into `state` on the device of `graph`; `host` is the same graph in host memory (its
/// properties, counts and version; a device graph's host copy may hold no rows). Returns when the
/// work on `stream` is done. Throws what the host compute throws for bad options, missing
/// in-edges, and weighted on a graph without weights or with a negative weight.
template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host,
                const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph, const options_t& options,
                void* stream, device_state_t<vid_t>& state);

/// compute() starting from `start` (networkx.pagerank's nstart: checked, padded and scaled to
/// sum 1 as Options.personalization is; empty: uniform).
template <class vid_t, class eid_t>
stats_t compute_from(const graph_t<vid_t, eid_t>& host,
                     const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph,
                     const std::vector<double>& start, const options_t& options, void* stream,
                     device_state_t<vid_t>& state);

/// Brings `state` up to date after the batch recorded in `log`, starting from its ranks.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host,
               const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state);

/// update()'s default budget on the GPU for the frontier rounds, a multiple of one full
/// iteration's reads (stored edges plus vertices): past it the rounds, each of which also pays
/// passes over all vertices, cost more than the warm full iterations the update then runs.
inline constexpr double k_default_gpu_repair_budget = 1.0;
/// On the GPU, an update whose first frontier round would read more in-edges than this share of
/// one full iteration's reads (and more than k_first_round_floor) runs full iterations from the
/// previous ranks instead: the round gathers its vertices' in-rows at about 2.3x an iteration's
/// cost per edge, and its seed plan, on the host, costs as much again (R-MAT 22, 100,000
/// changes: bench/README.md).
inline constexpr double k_gpu_first_round_share = 0.3;
/// From this many changes on, the batch's heads (the first round lists them all) are counted on
/// the device before the seed plan, whose host time grows with the changes: one wait, paid back
/// when it spares a plan that its round would not use. Smaller batches are checked at the first
/// round, after the plan.
inline constexpr int64_t k_gpu_head_check_changes = int64_t{1} << 14;

}  // namespace dyng::pagerank::cuda
