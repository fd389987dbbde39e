// The kernels of PageRank's power iteration on the GPU (the host's is power_iteration.hpp):
//   x'[v] = alpha * (sum over edges u->v of x[u] * w(u, v) / W(u) + D * d[v]) + (1 - alpha) * p[v]
// with W(u) the out-weight of u, D the rank held by vertices with W(u) == 0, p the teleport
// (personalization) vector and d the dangling vector, both 1/n per vertex when absent (nullptr)
// and d = p when only p is given. Each iteration is one pass, full_iteration(): the pull over
// the in-edges of every vertex from share[u] = x[u] / W(u) (row_sums.cuh's degree-aware sums),
// writing x' and share' and, per tile, the L1 change and the new dangling mass, which
// sum_partials() adds in a fixed order. Also here: the out-weights, the shares and dangling mass
// of a starting vector, the warm start's new vertices, scaling to sum 1, and counting changed
// ranks. Included by the pagerank launch files only.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/pagerank/detail/cuda/row_sums.cuh"

namespace dyng::pagerank::detail::cuda {

/// The teleport and dangling vectors as the kernels read them.
struct jump_t {
  const double* personalization = nullptr;  ///< p, nullptr: uniform
  const double* dangling = nullptr;         ///< d, nullptr: uniform (resolved to p when given)
  double uniform = 0.0;                     ///< 1 / n
  __device__ __forceinline__ double teleport(long long v) const {
    return personalization != nullptr ? personalization[v] : uniform;
  }
  __device__ __forceinline__ double dangle(long long v) const {
    return dangling != nullptr ? dangling[v] : uniform;
  }
};

/// One slot's pull: the share of the in-neighbour, times the edge's weight when weighted.
template <bool k_weighted, class vid_t, class eid_t>
struct pull_value_t {
  const vid_t* col;
  const int32_t* weights;
  long long num_weights;
  const double* share;
  __device__ __forceinline__ double operator()(long long s) const {
    const double c = __ldg(share + __ldg(col + s));
    if constexpr (k_weighted) {
      return c * static_cast<double>(__ldg(weights + s * num_weights));
    } else {
      return c;
    }
  }
};

/// One out-slot's weight (first column); a negative one raises *negative.
struct weight_value_t {
  const int32_t* weights;
  long long num_weights;
  int* negative;
  __device__ __forceinline__ double operator()(long long s) const {
    const int32_t w = __ldg(weights + s * num_weights);
    if (w < 0) *negative = 1;
    return static_cast<double>(w);
  }
};

/// inverse[v] = 1 / W(v), 0 where W(v) == 0: W the out-degree, or (weighted) the out-weights
/// summed by row_sums' fixed order.
template <bool k_weighted, class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    inverse_out_weights(const adjacency_view_t<vid_t, eid_t> out, long long n, double* inverse,
                        int* negative) {
  __shared__ row_scratch_t scratch;
  const weight_value_t value{out.weights, out.num_weights, negative};
  for (long long tile = blockIdx.x; tile < tiles_of(n); tile += gridDim.x) {
    const long long v = tile * k_block_threads + threadIdx.x;
    const bool active = v < n;
    const long long b = active ? static_cast<long long>(out.row_begin[v]) : 0;
    const long long e = active ? static_cast<long long>(out.row_end[v]) : 0;
    double w = static_cast<double>(e - b);
    if constexpr (k_weighted) w = tile_row_sum(value, active, b, e, scratch);
    if (active) inverse[v] = w > 0.0 ? 1.0 / w : 0.0;
  }
}

/// share[v] = x[v] * inverse[v] (unless share is nullptr), and per tile the rank of the dangling
/// vertices into dangling_parts[tile] and, unless sum_parts is nullptr, the sum of the ranks
/// into sum_parts[tile].
__global__ void __launch_bounds__(k_block_threads)
    shares_of(const double* x, const double* inverse, long long n, double* share,
              double* dangling_parts, double* sum_parts) {
  __shared__ row_scratch_t scratch;
  for (long long tile = blockIdx.x; tile < tiles_of(n); tile += gridDim.x) {
    const long long v = tile * k_block_threads + threadIdx.x;
    double dangling = 0.0, rank = 0.0;
    if (v < n) {
      rank = x[v];
      if (share != nullptr) share[v] = rank * inverse[v];
      dangling = inverse[v] == 0.0 ? rank : 0.0;
    }
    const double total = block_sum(dangling, scratch);
    if (threadIdx.x == 0) dangling_parts[tile] = total;
    if (sum_parts != nullptr) {
      const double sum = block_sum(rank, scratch);
      if (threadIdx.x == 0) sum_parts[tile] = sum;
    }
  }
}

/// What full_iteration() reads and writes.
template <class vid_t, class eid_t>
struct iteration_args_t {
  adjacency_view_t<vid_t, eid_t> in;
  long long n;
  double alpha;
  jump_t jump;
  const double* inverse;
  const double* x;
  const double* share;
  const double* dangling_mass;  ///< D of x (device scalar, sum_partials' output)
  double* next;
  double* next_share;
  double* residual_parts;  ///< per tile: sum of |next - x|
  double* dangling_parts;  ///< per tile: D of next
};

/// One power iteration over every vertex (see the header).
template <bool k_weighted, class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    full_iteration(const iteration_args_t<vid_t, eid_t> a) {
  __shared__ row_scratch_t scratch;
  const pull_value_t<k_weighted, vid_t, eid_t> value{a.in.col, a.in.weights, a.in.num_weights,
                                                     a.share};
  const double mass = *a.dangling_mass;
  for (long long tile = blockIdx.x; tile < tiles_of(a.n); tile += gridDim.x) {
    const long long v = tile * k_block_threads + threadIdx.x;
    const bool active = v < a.n;
    const long long b = active ? static_cast<long long>(a.in.row_begin[v]) : 0;
    const long long e = active ? static_cast<long long>(a.in.row_end[v]) : 0;
    const double sum = tile_row_sum(value, active, b, e, scratch);
    double change = 0.0, dangling = 0.0;
    if (active) {
      const double x =
          a.alpha * (sum + mass * a.jump.dangle(v)) + (1.0 - a.alpha) * a.jump.teleport(v);
      const double inverse = a.inverse[v];
      a.next[v] = x;
      a.next_share[v] = x * inverse;
      change = fabs(x - a.x[v]);
      dangling = inverse == 0.0 ? x : 0.0;
    }
    const double change_total = block_sum(change, scratch);
    const double dangling_total = block_sum(dangling, scratch);
    if (threadIdx.x == 0) {
      a.residual_parts[tile] = change_total;
      a.dangling_parts[tile] = dangling_total;
    }
  }
}

/// x[v] = (1 - alpha) * p[v] for the vertices a batch added (their teleport share).
__global__ void start_new_vertices(double* x, long long first, long long n, double alpha,
                                   jump_t jump) {
  for (long long v = first + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    x[v] = (1.0 - alpha) * jump.teleport(v);
  }
}

/// Per tile, the sum of x into parts[tile].
__global__ void __launch_bounds__(k_block_threads)
    rank_sums(const double* x, long long n, double* parts) {
  __shared__ row_scratch_t scratch;
  for (long long tile = blockIdx.x; tile < tiles_of(n); tile += gridDim.x) {
    const long long v = tile * k_block_threads + threadIdx.x;
    const double total = block_sum(v < n ? x[v] : 0.0, scratch);
    if (threadIdx.x == 0) parts[tile] = total;
  }
}

/// x[v] /= *total, or x[v] = value where *total is 0 (nothing to scale); `value` fills x too
/// when `total` is nullptr (the uniform start).
__global__ void scale_ranks(double* x, long long n, const double* total, double value) {
  const double t = total != nullptr ? *total : 0.0;
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    x[v] = t > 0.0 ? x[v] / t : value;
  }
}

/// ranks[v] = x[v] * factor for every v, and *count += the entries that changed: an update's
/// last step, which scales (to sum 1 by the reciprocal of the sum it kept, as the host's;
/// frontier_result.hpp's scaled_bound() counts the products' rounding), counts and commits in
/// one pass. A factor of 1 leaves x's bits.
__global__ void settle_ranks(const double* x, double factor, long long n, double* ranks,
                             unsigned long long* count) {
  unsigned long long found = 0;
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    const double now = x[v] * factor;
    found += now != ranks[v] ? 1 : 0;
    ranks[v] = now;
  }
  ::dyng::cuda::warp_add(found, count);
}

/// *count += the entries where a and b differ (integer counts add in any order).
__global__ void count_changed(const double* a, const double* b, long long n,
                              unsigned long long* count) {
  unsigned long long found = 0;
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    found += a[v] != b[v] ? 1 : 0;
  }
  ::dyng::cuda::warp_add(found, count);
}

}  // namespace dyng::pagerank::detail::cuda
