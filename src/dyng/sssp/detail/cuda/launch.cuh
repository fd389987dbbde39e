// Host-side pieces that compute() (sssp_cuda.cu) and update() (sssp_cuda_update.cu) share: view
// checks, the tuned launch shapes, and the launches of the search, the parent pass and the edge
// count. Included by .cu files only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/detail/bucket_width.hpp"
#include "dyng/sssp/detail/cuda/near_far.cuh"
#include "dyng/sssp/detail/cuda/parents.cuh"
#include "dyng/sssp/detail/cuda/prepare.cuh"
#include "dyng/sssp/detail/sssp_checks.hpp"

namespace dyng::sssp::detail::cuda {

/// Throws unless `view` is a weighted view with column `objective`; `fn` names the caller. The
/// raw GPU API's own contract (the device-graph layer has checked the graph with sssp_checks.hpp
/// before it gets here), worded as those checks are.
template <class vid_t, class eid_t>
void check_view(const adjacency_view_t<vid_t, eid_t>& view, const char* fn, const char* name,
                int objective) {
  if (view.num_weights <= 0) {
    throw not_supported_error(std::string(fn) + ": the graph is unweighted (its " + name +
                              " view has no weight column); sssp needs a weighted graph "
                              "(num_weights >= 1), so build it with weights");
  }
  check_objective(objective, view.num_weights, fn);
  if (view.num_vertices > 0 &&
      (view.row_begin == nullptr || view.row_end == nullptr || view.weights == nullptr)) {
    throw invalid_argument_error(std::string(fn) + ": the " + name +
                                 " view has null row or weight pointers; upload the graph first");
  }
}

/// Group size from the mean degree: a group should cover a typical row in one or two steps.
/// Wider groups measured no faster on R-MAT (gpu-sssp.md, v1).
inline int pick_group_size(double mean_degree) { return mean_degree <= 6 ? 4 : 8; }

/// Resident blocks per multiprocessor: dense graphs need every warp the registers allow to
/// hide memory latency; sparse ones are bound by the barrier, which fewer blocks make cheaper.
inline int pick_blocks_per_sm(double mean_degree) { return mean_degree <= 6 ? 2 : 4; }

/// Bucket width from the prepare pass's counts: the means and the longest row it found, given
/// to the rule of bucket_width.hpp.
inline int64_t pick_delta(const control_t& counts, long long num_vertices) {
  const double mean_weight = counts.sampled_weight_count > 0
                                 ? static_cast<double>(counts.sampled_weight_sum) /
                                       static_cast<double>(counts.sampled_weight_count)
                                 : 1.0;
  const double mean_degree = num_vertices > 0 ? static_cast<double>(counts.stored_edges) /
                                                    static_cast<double>(num_vertices)
                                              : 0.0;
  return ::dyng::sssp::detail::pick_bucket_width(mean_weight, mean_degree,
                                                 static_cast<double>(counts.max_degree));
}

template <int G, bool k_seeded, bool k_joint, class vid_t, class eid_t>
void launch_search(const near_far_params_t<vid_t, eid_t>& params, int blocks_per_sm,
                   cudaStream_t stream) {
  auto* kernel = near_far_kernel<G, vid_t, eid_t, k_seeded, k_joint>;
  ::dyng::cuda::launch_cooperative(kernel, cooperative_blocks(kernel, blocks_per_sm, "sssp::cuda"),
                                   params, stream);
}

/// The search for a group size chosen at run time; k_seeded picks update's repair mode, k_joint
/// the joint search over params.num_objectives objectives (near_far.cuh).
template <bool k_seeded, bool k_joint = false, class vid_t, class eid_t>
void dispatch_search(int group_size, const near_far_params_t<vid_t, eid_t>& params,
                     int blocks_per_sm, cudaStream_t stream) {
  switch (group_size) {
    case 4: return launch_search<4, k_seeded, k_joint>(params, blocks_per_sm, stream);
    case 8: return launch_search<8, k_seeded, k_joint>(params, blocks_per_sm, stream);
    case 16: return launch_search<16, k_seeded, k_joint>(params, blocks_per_sm, stream);
    case 32: return launch_search<32, k_seeded, k_joint>(params, blocks_per_sm, stream);
    default:
      throw invalid_argument_error("sssp::cuda: group size " + std::to_string(group_size) +
                                   " is not supported; use 0 (auto), 4, 8, 16 or 32");
  }
}

inline long long chunk_edges_of(int group_size) {
  switch (group_size) {
    case 4: return chunk_edges<4>();
    case 8: return chunk_edges<8>();
    case 16: return chunk_edges<16>();
    default: return chunk_edges<32>();
  }
}

/// The parent pass: three kernels on `stream`, no wait. Without `list`, every vertex; with it,
/// the `*list_length` vertices of `list` (device memory; `list_capacity` bounds the grid).
/// `in_edges` (stored in-edges) sizes the piece list; `control` (piece_count zeroed) receives
/// its length and flags an overflow, which only a wrong `in_edges` can cause.
template <class vid_t, class eid_t>
void launch_parents(const adjacency_view_t<vid_t, eid_t>& in, vid_t source, int objective,
                    const int64_t* d_dist, cudaStream_t stream, vid_t* d_parents,
                    unsigned long long in_edges, control_t* control,
                    ::dyng::cuda::device_buffer<unsigned long long>& pieces,
                    const vid_t* list = nullptr, const unsigned long long* list_length = nullptr,
                    long long list_capacity = 0) {
  const long long n = in.num_vertices;
  const unsigned long long capacity = piece_capacity(in_edges);
  pieces = ::dyng::cuda::device_buffer<unsigned long long>(capacity, stream);
  const auto* dist = reinterpret_cast<const dist_t*>(d_dist);
  const int sms = multiprocessor_count();
  const unsigned blocks = stride_blocks(list != nullptr ? list_capacity : n, 16);
  // Groups as wide as a typical in-row: per-vertex overhead dominates on sparse graphs.
  const bool sparse = static_cast<double>(in_edges) <= 6.0 * static_cast<double>(n);
  if (list != nullptr) {
    if (sparse) {
      parents_kernel<4, vid_t, eid_t, true><<<blocks, k_block_threads, 0, stream>>>(
          in, objective, dist, source, d_parents, pieces.data(), capacity, control, list,
          list_length);
    } else {
      parents_kernel<8, vid_t, eid_t, true><<<blocks, k_block_threads, 0, stream>>>(
          in, objective, dist, source, d_parents, pieces.data(), capacity, control, list,
          list_length);
    }
  } else if (sparse) {
    parents_kernel<4, vid_t, eid_t><<<blocks, k_block_threads, 0, stream>>>(
        in, objective, dist, source, d_parents, pieces.data(), capacity, control, nullptr, nullptr);
  } else {
    parents_kernel<8, vid_t, eid_t><<<blocks, k_block_threads, 0, stream>>>(
        in, objective, dist, source, d_parents, pieces.data(), capacity, control, nullptr, nullptr);
  }
  DYNG_CUDA_CHECK(cudaGetLastError());
  piece_parents_kernel<vid_t, eid_t><<<sms * 8, k_block_threads, 0, stream>>>(
      in, objective, dist, d_parents, pieces.data(), capacity, control);
  DYNG_CUDA_CHECK(cudaGetLastError());
  finish_parents_kernel<vid_t>
      <<<sms * 2, k_block_threads, 0, stream>>>(d_parents, pieces.data(), capacity, control);
  DYNG_CUDA_CHECK(cudaGetLastError());
}

/// Runs the prepare kernel on `view` into the zeroed `control` and returns its counts (waits).
template <class vid_t, class eid_t>
control_t count_edges(const adjacency_view_t<vid_t, eid_t>& view, int objective,
                      bool sample_weights, ::dyng::cuda::device_buffer<control_t>& control) {
  const unsigned blocks = stride_blocks(view.num_vertices, 8);
  prepare_kernel<vid_t, eid_t><<<blocks, k_block_threads, 0, as_stream(control.stream())>>>(
      view, objective, sample_weights, control.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  control_t host{};
  control.copy_to_host(&host, 1);
  return host;
}

}  // namespace dyng::sssp::detail::cuda
