// Host side of the CUDA SSSP: argument checks, the workspace, the launch shapes and the choice of
// delta, group size and blocks per multiprocessor (docs/developer/gpu-sssp.md has the measurements),
// then three kernels on the caller's stream: prepare, the persistent near-far search, parents.
#include "dyng/sssp/sssp_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/sssp/detail/cuda/near_far.cuh"
#include "dyng/sssp/detail/cuda/parents.cuh"
#include "dyng/sssp/detail/cuda/prepare.cuh"

namespace dyng::sssp::cuda {
namespace {

namespace kernels = ::dyng::sssp::detail::cuda;
using ::dyng::cuda::device_buffer;


cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

int multiprocessor_count() {
  int device = 0;
  DYNG_CUDA_CHECK(cudaGetDevice(&device));
  int count = 0;
  DYNG_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

template <class vid_t, class eid_t>
void check_view(const device_adjacency_t<vid_t, eid_t>& view, const char* name, int objective) {
  const std::string which(name);
  if (view.num_weights <= 0) {
    throw not_supported_error("sssp::cuda::compute(): the graph is unweighted (" + which +
                              " has K = 0); sssp needs a weight column");
  }
  if (objective < 0 || objective >= view.num_weights) {
    throw invalid_argument_error("sssp::cuda::compute(): objective " + std::to_string(objective) +
                                 " is not a weight column of a graph with K = " +
                                 std::to_string(view.num_weights) + "; pass 0 <= objective < K");
  }
  if (view.num_vertices > 0 && (view.row_begin == nullptr || view.row_end == nullptr ||
                                view.weights == nullptr)) {
    throw invalid_argument_error("sssp::cuda::compute(): the " + which +
                                 " view has null row or weight pointers; upload the graph first");
  }
}

/// Group size from the mean degree: a group should cover a typical row in one or two steps.
/// Wider groups measured no faster on R-MAT (gpu-sssp.md, v1).
int pick_group_size(double mean_degree) { return mean_degree <= 6 ? 4 : 8; }

/// Resident blocks per multiprocessor: dense graphs need every warp the registers allow to
/// hide memory latency; sparse ones are bound by the barrier, which fewer blocks make cheaper.
int pick_blocks_per_sm(double mean_degree) { return mean_degree <= 6 ? 2 : 4; }

/// Bucket width from the sampled mean weight (gpu-sssp.md, v1): wide buckets won on both R-MAT
/// and grids, because on a GPU the rounds a bucket boundary adds cost more than the edges a
/// wide bucket relaxes twice.
int64_t pick_delta(double mean_weight) {
  return std::max<int64_t>(1, static_cast<int64_t>(mean_weight * 64.0));
}

template <int G, class vid_t, class eid_t>
void launch_search(const kernels::near_far_params_t<vid_t, eid_t>& params, int blocks_per_sm,
                   cudaStream_t stream) {
  auto* kernel = kernels::near_far_kernel<G, vid_t, eid_t>;
  int fit = 0;
  DYNG_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kernels::k_block_threads, 0));
  if (fit < 1) {
    throw internal_error("sssp::cuda::compute(): the search kernel does not fit on a "
                         "multiprocessor; this is a bug in libdyng's launch configuration");
  }
  const int per_sm = std::min(fit, blocks_per_sm);
  const dim3 grid(static_cast<unsigned>(multiprocessor_count() * per_sm));
  void* args[] = {const_cast<kernels::near_far_params_t<vid_t, eid_t>*>(&params)};
  DYNG_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid,
                                              dim3(kernels::k_block_threads), args, 0, stream));
}

template <class vid_t, class eid_t>
void dispatch_search(int group_size, const kernels::near_far_params_t<vid_t, eid_t>& params,
                     int blocks_per_sm, cudaStream_t stream) {
  switch (group_size) {
    case 4: return launch_search<4>(params, blocks_per_sm, stream);
    case 8: return launch_search<8>(params, blocks_per_sm, stream);
    case 16: return launch_search<16>(params, blocks_per_sm, stream);
    case 32: return launch_search<32>(params, blocks_per_sm, stream);
    default:
      throw invalid_argument_error("sssp::cuda::compute(): group size " +
                                   std::to_string(group_size) + " is not supported; use 0 (auto), "
                                   "4, 8, 16 or 32");
  }
}

long long chunk_edges_of(int group_size) {
  switch (group_size) {
    case 4: return kernels::chunk_edges<4>();
    case 8: return kernels::chunk_edges<8>();
    case 16: return kernels::chunk_edges<16>();
    default: return kernels::chunk_edges<32>();
  }
}

/// The parent pass of compute() and canonical_parents(): three kernels on `stream`, no wait.
/// `in_edges` (stored in-edges) sizes the piece list; `control` (zeroed) receives its length
/// and flags an overflow, which only a wrong `in_edges` can cause.
template <class vid_t, class eid_t>
void launch_parents(const device_adjacency_t<vid_t, eid_t>& in, vid_t source, int objective,
                    const int64_t* d_dist, cudaStream_t stream, vid_t* d_parents,
                    unsigned long long in_edges, kernels::control_t* control,
                    device_buffer<unsigned long long>& pieces) {
  const long long n = in.num_vertices;
  const unsigned long long capacity = kernels::piece_capacity(in_edges);
  pieces = device_buffer<unsigned long long>(capacity, stream);
  const auto* dist = reinterpret_cast<const kernels::dist_t*>(d_dist);
  const int sms = multiprocessor_count();
  const long long wanted_blocks = (n + kernels::k_block_threads - 1) / kernels::k_block_threads;
  const unsigned blocks = static_cast<unsigned>(std::min<long long>(wanted_blocks, sms * 16LL));
  // Groups as wide as a typical in-row: per-vertex overhead dominates on sparse graphs.
  if (static_cast<double>(in_edges) <= 6.0 * static_cast<double>(n)) {
    kernels::parents_kernel<4, vid_t, eid_t><<<blocks, kernels::k_block_threads, 0, stream>>>(
        in, objective, dist, source, d_parents, pieces.data(), capacity, control);
  } else {
    kernels::parents_kernel<8, vid_t, eid_t><<<blocks, kernels::k_block_threads, 0, stream>>>(
        in, objective, dist, source, d_parents, pieces.data(), capacity, control);
  }
  DYNG_CUDA_CHECK(cudaGetLastError());
  kernels::piece_parents_kernel<vid_t, eid_t><<<sms * 8, kernels::k_block_threads, 0, stream>>>(
      in, objective, dist, d_parents, pieces.data(), capacity, control);
  DYNG_CUDA_CHECK(cudaGetLastError());
  kernels::finish_parents_kernel<vid_t><<<sms * 2, kernels::k_block_threads, 0, stream>>>(
      d_parents, pieces.data(), capacity, control);
  DYNG_CUDA_CHECK(cudaGetLastError());
}

/// Runs the prepare kernel on `view` into the zeroed `control` and returns its counts.
template <class vid_t, class eid_t>
kernels::control_t count_edges(const device_adjacency_t<vid_t, eid_t>& view, int objective,
                               bool sample_weights, device_buffer<kernels::control_t>& control) {
  const long long n = view.num_vertices;
  const int sms = multiprocessor_count();
  const long long wanted_blocks = (n + kernels::k_block_threads - 1) / kernels::k_block_threads;
  const unsigned blocks = static_cast<unsigned>(std::min<long long>(wanted_blocks, sms * 8LL));
  kernels::prepare_kernel<vid_t, eid_t>
      <<<blocks, kernels::k_block_threads, 0, as_stream(control.stream())>>>(
          view, objective, sample_weights, control.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  kernels::control_t host{};
  control.copy_to_host(&host, 1);
  return host;
}

}  // namespace

template <class vid_t, class eid_t>
void canonical_parents(const device_adjacency_t<vid_t, eid_t>& in, vid_t source, int objective,
                       const int64_t* d_dist, void* stream, vid_t* d_parents) {
  check_view(in, "in-edge", objective);
  if (in.num_vertices == 0) return;
  device_buffer<kernels::control_t> control(1, stream);
  control.fill_bytes(0);
  const kernels::control_t counts = count_edges(in, objective, false, control);
  device_buffer<unsigned long long> pieces;
  launch_parents(in, source, objective, d_dist, as_stream(stream), d_parents, counts.stored_edges,
                 control.data(), pieces);
  kernels::control_t host{};
  control.copy_to_host(&host, 1);
  if (host.status != kernels::k_status_ok) {
    throw internal_error("sssp::cuda::canonical_parents(): the piece list overflowed; this is a "
                         "bug in libdyng");
  }
}

template <class vid_t, class eid_t>
void compute(const device_adjacency_t<vid_t, eid_t>& out, const device_adjacency_t<vid_t, eid_t>& in,
             vid_t source, int objective, int64_t delta, void* stream, int64_t* d_dist,
             vid_t* d_parents, stats_t& stats, const tuning_t& tuning) {
  check_view(out, "out-edge", objective);
  check_view(in, "in-edge", objective);
  const long long n = out.num_vertices;
  if (in.num_vertices != out.num_vertices) {
    throw invalid_argument_error("sssp::cuda::compute(): the out-edge view has " +
                                 std::to_string(n) + " vertices but the in-edge view " +
                                 std::to_string(in.num_vertices) + "; pass views of one graph");
  }
  if (source < 0 || source >= out.num_vertices) {
    throw invalid_argument_error("sssp::cuda::compute(): source " + std::to_string(source) +
                                 " is not a vertex of a graph with " + std::to_string(n) +
                                 " vertices; pass 0 <= source < n");
  }
  if (static_cast<unsigned long long>(n) > kernels::k_vertex_mask) {
    throw capacity_error("sssp::cuda::compute(): " + std::to_string(n) +
                         " vertices exceed the 2^40 that work items can name; use a smaller graph");
  }
  if (d_dist == nullptr || d_parents == nullptr) {
    throw invalid_argument_error("sssp::cuda::compute(): null output pointer; pass device arrays "
                                 "of n distances and n parents");
  }
  stats = stats_t{};
  stats.engine_used = "cuda_near_far";
  const cudaStream_t s = as_stream(stream);

  // (1) Stored edges (queue sizes, mean degree) and, when delta is ours to pick, a weight sample.
  const bool pick = delta <= 0;
  device_buffer<kernels::control_t> control(1, stream);
  control.fill_bytes(0);
  kernels::control_t host = count_edges(out, objective, pick, control);
  const double mean_degree = static_cast<double>(host.stored_edges) / static_cast<double>(n);
  const double mean_weight =
      host.sampled_weight_count > 0
          ? static_cast<double>(host.sampled_weight_sum) / static_cast<double>(host.sampled_weight_count)
          : 1.0;
  const int group_size = tuning.group_size > 0 ? tuning.group_size : pick_group_size(mean_degree);
  const int blocks_per_sm =
      tuning.blocks_per_sm > 0 ? tuning.blocks_per_sm : pick_blocks_per_sm(mean_degree);
  const int64_t max_delta = int64_t{1} << 61;
  const int64_t width = std::min(max_delta, delta > 0 ? delta : pick_delta(mean_weight));

  // (2) Workspace: each queue holds every vertex once plus the chunk items of long rows.
  const unsigned long long capacity = static_cast<unsigned long long>(n) +
                                      host.stored_edges / chunk_edges_of(group_size) + 64;
  device_buffer<int> stamps(2 * static_cast<size_t>(n), stream);
  device_buffer<kernels::item_t> queues(4 * capacity, stream);

  kernels::near_far_params_t<vid_t, eid_t> params;
  params.out = out;
  params.objective = objective;
  params.source = source;
  params.delta = static_cast<kernels::dist_t>(width);
  params.max_rounds = std::min<long long>(INT_MAX - 1, 8 * n + 4096);
  params.dist = reinterpret_cast<kernels::dist_t*>(d_dist);
  params.near_stamp = stamps.data();
  params.far_stamp = stamps.data() + n;
  for (int q = 0; q < 2; ++q) {
    params.near_queue[q] = queues.data() + q * capacity;
    params.far_queue[q] = queues.data() + (2 + q) * capacity;
  }
  params.capacity = capacity;
  params.control = control.data();

  // (3) The search, then (4) parents from the final distances.
  // The in-edges of a consistent graph number the same as the out-edges; a mismatch can only
  // overflow the piece list, which is flagged and thrown below.
  dispatch_search(group_size, params, blocks_per_sm, s);
  device_buffer<unsigned long long> pieces;
  launch_parents(in, source, objective, d_dist, s, d_parents, host.stored_edges, control.data(),
                 pieces);
  control.copy_to_host(&host, 1);

  stats.iterations = host.rounds;
  stats.epochs = host.epochs;
  stats.frontier_visits = static_cast<int64_t>(host.relaxations);
  stats.pushes = static_cast<int64_t>(host.pushes);
  if (host.status == kernels::k_status_overflow) {
    throw internal_error("sssp::cuda::compute(): a work list overflowed (queues of " +
                         std::to_string(capacity) + " entries); the in- and out-edge views "
                         "disagree, or this is a bug in libdyng");
  }
  if (host.status == kernels::k_status_round_limit) {
    stats.converged = false;
    throw convergence_error("sssp::cuda::compute(): the search did not settle within " +
                            std::to_string(params.max_rounds) +
                            " rounds; check that every weight of the objective column is >= 1");
  }
}

#define DYNG_INSTANTIATE_SSSP_CUDA(vid_t, eid_t)                                                 \
  template void compute<vid_t, eid_t>(const device_adjacency_t<vid_t, eid_t>&,                  \
                                      const device_adjacency_t<vid_t, eid_t>&, vid_t, int,       \
                                      int64_t, void*, int64_t*, vid_t*, stats_t&,                \
                                      const tuning_t&);                                          \
  template void canonical_parents<vid_t, eid_t>(const device_adjacency_t<vid_t, eid_t>&, vid_t, \
                                                int, const int64_t*, void*, vid_t*);

DYNG_INSTANTIATE_SSSP_CUDA(int32_t, int32_t)
DYNG_INSTANTIATE_SSSP_CUDA(int32_t, int64_t)
DYNG_INSTANTIATE_SSSP_CUDA(int64_t, int64_t)

#undef DYNG_INSTANTIATE_SSSP_CUDA

}  // namespace dyng::sssp::cuda
