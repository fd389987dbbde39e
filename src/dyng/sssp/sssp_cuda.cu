// Host side of the CUDA SSSP compute: argument checks, the workspace and the choice of delta,
// group size and blocks per multiprocessor (detail/cuda/launch.cuh; docs/developer/gpu-sssp.md has
// the measurements), then three kernels on the caller's stream: prepare, the persistent near-far
// search, parents. update() is in sssp_cuda_update.cu.
#include "dyng/sssp/detail/cuda_views.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>

#include "dyng/backend/profile.hpp"
#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_stop.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/sssp/detail/cuda/launch.cuh"

namespace dyng::sssp::cuda {
namespace {

namespace kernels = ::dyng::sssp::detail::cuda;
using ::dyng::cuda::device_buffer;
using kernels::as_stream;

/// Throws unless compute_joint()'s arguments describe `num_objectives` joint searches on one
/// graph's out- and in-edge views with device output arrays.
template <class vid_t, class eid_t>
void check_joint_arguments(const device_adjacency_t<vid_t, eid_t>& out,
                           const device_adjacency_t<vid_t, eid_t>& in, vid_t source, int objective,
                           int num_objectives, const int64_t* d_dist, const vid_t* d_parents,
                           const char* fn) {
  if (num_objectives < 1 || num_objectives > (1 << kernels::k_objective_bits)) {
    throw invalid_argument_error(std::string(fn) + ": " + std::to_string(num_objectives) +
                                 " joint searches; pass between 1 and " +
                                 std::to_string(1 << kernels::k_objective_bits));
  }
  kernels::check_view(out, fn, "out-edge", objective);
  kernels::check_view(in, fn, "in-edge", objective);
  kernels::check_view(out, fn, "out-edge", objective + num_objectives - 1);
  const long long n = out.num_vertices;
  if (in.num_vertices != out.num_vertices) {
    throw invalid_argument_error(std::string(fn) + ": the out-edge view has " + std::to_string(n) +
                                 " vertices but the in-edge view " +
                                 std::to_string(in.num_vertices) + "; pass views of one graph");
  }
  ::dyng::sssp::detail::check_source(source, out.num_vertices, fn);
  if (static_cast<unsigned long long>(n) > kernels::k_vertex_mask) {
    throw capacity_error("sssp::cuda::compute(): " + std::to_string(n) +
                         " vertices exceed the 2^40 that work items can name; use a smaller graph");
  }
  if (d_dist == nullptr || d_parents == nullptr) {
    throw invalid_argument_error(
        "sssp::cuda::compute(): null output pointer; pass device arrays "
        "of n distances and n parents");
  }
}

/// The search's launch shape and bucket width: tuning's when it sets them, else picked from the
/// graph's mean degree and (for the width, when `delta` is 0 or less) its sampled mean weight.
struct search_shape_t {
  int group_size;
  int blocks_per_sm;
  int64_t width;
};

inline search_shape_t search_shape(const kernels::control_t& counts, long long n, int64_t delta,
                                   const tuning_t& tuning) {
  const double mean_degree = static_cast<double>(counts.stored_edges) / static_cast<double>(n);
  const int group_size =
      tuning.group_size > 0 ? tuning.group_size : kernels::pick_group_size(mean_degree);
  const int blocks_per_sm =
      tuning.blocks_per_sm > 0 ? tuning.blocks_per_sm : kernels::pick_blocks_per_sm(mean_degree);
  const int64_t max_delta = int64_t{1} << 61;
  const int64_t width = std::min(max_delta, delta > 0 ? delta : kernels::pick_delta(counts, n));
  return {group_size, blocks_per_sm, width};
}

/// The near-far search's parameters over the workspace: `stamps` (near, then far, n per search)
/// and `queues` (near 0/1, then far 0/1, `capacity` items each).
template <class vid_t, class eid_t>
kernels::near_far_params_t<vid_t, eid_t> search_params(const device_adjacency_t<vid_t, eid_t>& out,
                                                       int objective, int num_objectives,
                                                       vid_t source, int64_t width, int64_t* d_dist,
                                                       device_buffer<int>& stamps,
                                                       device_buffer<kernels::item_t>& queues,
                                                       unsigned long long capacity,
                                                       kernels::control_t* control) {
  const long long n = out.num_vertices;
  const auto searches = static_cast<unsigned long long>(num_objectives);
  kernels::near_far_params_t<vid_t, eid_t> params;
  params.out = out;
  params.objective = objective;
  params.num_objectives = num_objectives;
  params.source = source;
  params.delta = static_cast<kernels::dist_t>(width);
  params.max_rounds = std::min<long long>(INT_MAX - 1, 8 * n + 4096);
  params.dist = reinterpret_cast<kernels::dist_t*>(d_dist);
  params.near_stamp = stamps.data();
  params.far_stamp = stamps.data() + searches * n;
  for (int q = 0; q < 2; ++q) {
    params.near_queue[q] = queues.data() + q * capacity;
    params.far_queue[q] = queues.data() + (2 + q) * capacity;
  }
  params.capacity = capacity;
  params.control = control;
  return params;
}

/// The search's counters into `stats`; throws when a work list overflowed or the search did not
/// settle within `max_rounds`.
inline void read_search_verdict(const kernels::control_t& host, unsigned long long capacity,
                                long long max_rounds, stats_t& stats) {
  stats.iterations = host.rounds;
  stats.epochs = host.epochs;
  stats.frontier_visits = static_cast<int64_t>(host.relaxations);
  stats.pushes = static_cast<int64_t>(host.pushes);
  if (host.status == kernels::k_status_overflow) {
    throw internal_error("sssp::cuda::compute(): a work list overflowed (queues of " +
                         std::to_string(capacity) +
                         " entries); the in- and out-edge views "
                         "disagree, or this is a bug in libdyng");
  }
  if (host.status == kernels::k_status_round_limit) {
    stats.converged = false;
    throw convergence_error("sssp::cuda::compute(): the search did not settle within " +
                            std::to_string(max_rounds) +
                            " rounds; check that every weight of the objective column is >= 1");
  }
}

}  // namespace

template <class vid_t, class eid_t>
search_report_t survey(const device_adjacency_t<vid_t, eid_t>& out, int objective, bool pick_width,
                       void* stream) {
  device_buffer<kernels::control_t> control(1, stream);
  control.fill_bytes(0);
  const kernels::control_t counts = kernels::count_edges(out, objective, pick_width, control);
  search_report_t report;
  report.stored_edges = static_cast<int64_t>(counts.stored_edges);
  if (pick_width) report.width = kernels::pick_delta(counts, out.num_vertices);
  return report;
}

template <class vid_t, class eid_t>
void canonical_parents(const device_adjacency_t<vid_t, eid_t>& in, vid_t source, int objective,
                       const int64_t* d_dist, void* stream, vid_t* d_parents) {
  kernels::check_view(in, "sssp::cuda::canonical_parents()", "in-edge", objective);
  if (in.num_vertices == 0) return;
  device_buffer<kernels::control_t> control(1, stream);
  control.fill_bytes(0);
  const kernels::control_t counts = kernels::count_edges(in, objective, false, control);
  device_buffer<unsigned long long> pieces;
  kernels::launch_parents(in, source, objective, d_dist, as_stream(stream), d_parents,
                          counts.stored_edges, control.data(), pieces);
  kernels::control_t host{};
  control.copy_to_host(&host, 1);
  if (host.status != kernels::k_status_ok) {
    throw internal_error(
        "sssp::cuda::canonical_parents(): the piece list overflowed; this is a "
        "bug in libdyng");
  }
}

template <class vid_t, class eid_t>
void compute(const device_adjacency_t<vid_t, eid_t>& out,
             const device_adjacency_t<vid_t, eid_t>& in, vid_t source, int objective, int64_t delta,
             void* stream, int64_t* d_dist, vid_t* d_parents, stats_t& stats,
             const tuning_t& tuning, search_report_t* report) {
  compute_joint(out, in, source, objective, 1, delta, stream, d_dist, d_parents, stats, tuning,
                report);
}

template <class vid_t, class eid_t>
void compute_joint(const device_adjacency_t<vid_t, eid_t>& out,
                   const device_adjacency_t<vid_t, eid_t>& in, vid_t source, int first_objective,
                   int num_objectives, int64_t delta, void* stream, int64_t* d_dist,
                   vid_t* d_parents, stats_t& stats, const tuning_t& tuning,
                   search_report_t* report) {
  constexpr const char* fn = "sssp::cuda::compute()";
  const int objective = first_objective;
  check_joint_arguments(out, in, source, objective, num_objectives, d_dist, d_parents, fn);
  const long long n = out.num_vertices;
  stats = stats_t{};
  stats.record({"fused", "near_far"});  // one persistent kernel does the search
  const cudaStream_t s = as_stream(stream);

  // (1) Stored edges (queue sizes, mean degree) and, when delta is ours to pick, a weight sample.
  std::optional<stage_scope_t> stage(std::in_place, "sssp.workspace");
  device_buffer<kernels::control_t> control(1, stream);
  control.fill_bytes(0);
  kernels::control_t host = kernels::count_edges(out, objective, delta <= 0, control);
  // The search is one persistent kernel: a stop (Ctrl-C) is honoured before it, or after it.
  ::dyng::cuda::throw_if_cancelled_on(stream, fn);
  const search_shape_t shape = search_shape(host, n, delta, tuning);
  if (report != nullptr) {
    report->width = shape.width;
    report->stored_edges = static_cast<int64_t>(host.stored_edges);
  }

  // (2) Workspace: each queue holds every vertex once plus the chunk items of long rows, per
  // search.
  const auto searches = static_cast<unsigned long long>(num_objectives);
  const unsigned long long capacity =
      searches * (static_cast<unsigned long long>(n) +
                  host.stored_edges / kernels::chunk_edges_of(shape.group_size)) +
      64;
  device_buffer<int> stamps(2 * searches * static_cast<size_t>(n), stream);
  device_buffer<kernels::item_t> queues(4 * capacity, stream);
  const kernels::near_far_params_t<vid_t, eid_t> params =
      search_params(out, objective, num_objectives, source, shape.width, d_dist, stamps, queues,
                    capacity, control.data());

  // (3) The search, then (4) parents from the final distances.
  stage.emplace("sssp.loop");
  // The in-edges of a consistent graph number the same as the out-edges; a mismatch can only
  // overflow the piece list, which is flagged and thrown below.
  if (num_objectives == 1) {
    kernels::dispatch_search<false>(shape.group_size, params, shape.blocks_per_sm, s);
  } else {
    kernels::dispatch_search<false, true>(shape.group_size, params, shape.blocks_per_sm, s);
  }
  stage.emplace("sssp.parents");
  device_buffer<unsigned long long> pieces;
  for (int o = 0; o < num_objectives; ++o) {
    if (o > 0) {  // each pass appends its pieces to a list that starts empty
      DYNG_CUDA_CHECK(
          cudaMemsetAsync(&control.data()->piece_count, 0, sizeof(unsigned long long), s));
    }
    kernels::launch_parents(in, source, objective + o, d_dist + o * n, s, d_parents + o * n,
                            host.stored_edges, control.data(), pieces);
  }
  stage.emplace("sssp.finalize");
  control.copy_to_host(&host, 1);
  ::dyng::cuda::throw_if_cancelled_on(stream, fn);
  read_search_verdict(host, capacity, params.max_rounds, stats);
}

/// One warp per row, so R-MAT's hub rows (~10^5 slots) are read coalesced, not by one thread.
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(kernels::k_block_threads)
    find_nonpositive_kernel(adjacency_view_t<vid_t, eid_t> out, int objective, int* found) {
  const int64_t n = out.num_vertices;
  const int64_t stride = out.num_weights;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  bool bad = false;
  for (int64_t v = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; v < n;
       v += warps) {
    const int64_t end = out.row_end[v];
    for (int64_t s = out.row_begin[v] + lane; s < end; s += 32) {
      bad |= out.weights[s * stride + objective] < 1;
    }
  }
  if (bad) *found = 1;
}

template <class vid_t, class eid_t>
bool weights_positive(const device_adjacency_t<vid_t, eid_t>& out, int objective, void* stream) {
  if (out.num_vertices == 0) return true;
  device_buffer<int> found(1, stream);
  found.fill_bytes(0);
  find_nonpositive_kernel<vid_t, eid_t>
      <<<kernels::stride_blocks(out.num_vertices * 32, 16), kernels::k_block_threads, 0,
         as_stream(stream)>>>(out, objective, found.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  int host = 0;
  found.copy_to_host(&host, 1);
  return host == 0;
}

#define DYNG_INSTANTIATE_SSSP_CUDA(vid_t, eid_t)                                                \
  template void compute<vid_t, eid_t>(                                                          \
      const device_adjacency_t<vid_t, eid_t>&, const device_adjacency_t<vid_t, eid_t>&, vid_t,  \
      int, int64_t, void*, int64_t*, vid_t*, stats_t&, const tuning_t&, search_report_t*);      \
  template void compute_joint<vid_t, eid_t>(                                                    \
      const device_adjacency_t<vid_t, eid_t>&, const device_adjacency_t<vid_t, eid_t>&, vid_t,  \
      int, int, int64_t, void*, int64_t*, vid_t*, stats_t&, const tuning_t&, search_report_t*); \
  template void canonical_parents<vid_t, eid_t>(const device_adjacency_t<vid_t, eid_t>&, vid_t, \
                                                int, const int64_t*, void*, vid_t*);            \
  template bool weights_positive<vid_t, eid_t>(const device_adjacency_t<vid_t, eid_t>&, int,    \
                                               void*);                                          \
  template search_report_t survey<vid_t, eid_t>(const device_adjacency_t<vid_t, eid_t>&, int,   \
                                                bool, void*);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_SSSP_CUDA)
#undef DYNG_INSTANTIATE_SSSP_CUDA

}  // namespace dyng::sssp::cuda
