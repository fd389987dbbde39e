// Sums over rows of a graph's adjacency on the GPU, scheduled by row length and added in a fixed
// order, so that a row gives the same bits whichever block, warp or launch shape reads it.
//
// Rows come in tiles of k_block_threads consecutive rows (or consecutive entries of a vertex
// list), one row per thread, as Merrill, Garland and Grimshaw schedule BFS expansion ("Scalable
// GPU graph traversal", PPoPP 2012): a row of more than k_warp_row_max slots is summed by the
// whole block, one of more than k_thread_row_max slots by its warp, and the rest by their own
// thread. Within a row, lane l of a group of G lanes adds slots l, l + G, l + 2G, ... in slot
// order, and the G partial sums are combined by a fixed butterfly (warp) or a fixed tree (block);
// the row's slot order and length alone fix the order of its additions. No atomics.
//
// The sums over all vertices (a residual, the dangling mass) use the same fixed trees: one
// partial per tile, then one block adds the partials (sum_partials). Included by the pagerank
// launch files only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/backend/cuda/warp_primitives.cuh"

namespace dyng::pagerank::detail::cuda {

using ::dyng::cuda::k_block_threads;
using ::dyng::cuda::k_full_mask;

/// Rows up to this many slots are summed by one thread (short rows would idle a warp's lanes).
inline constexpr long long k_thread_row_max = 16;
/// Rows up to this many slots by one warp; longer ones (power-law hubs) by the whole block.
inline constexpr long long k_warp_row_max = 2048;

inline constexpr int k_warps_per_block = k_block_threads / 32;

/// Shared memory of tile_row_sum() and block_sum().
struct row_scratch_t {
  int hub_count;
  int hub_owner[k_block_threads];
  long long hub_begin[k_block_threads];
  long long hub_end[k_block_threads];
  double warp_part[k_warps_per_block];
};

/// value(s) summed over slots first, first + step, ... below end, in that order, with four
/// slots' loads in flight (their additions stay in slot order).
template <class value_t>
__device__ __forceinline__ double lane_sum(const value_t& value, long long first, long long end,
                                           long long step) {
  double sum = 0.0;
  long long s = first;
  for (; s + 3 * step < end; s += 4 * step) {
    const double a = value(s);
    const double b = value(s + step);
    const double c = value(s + 2 * step);
    const double d = value(s + 3 * step);
    sum += a;
    sum += b;
    sum += c;
    sum += d;
  }
  for (; s < end; s += step) sum += value(s);
  return sum;
}

/// Sum over the 32 lanes by a fixed butterfly; every lane gets the same bits (each step adds the
/// same two values on both lanes of a pair). Must be reached by all 32 lanes.
__device__ __forceinline__ double warp_sum(double value) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_xor_sync(k_full_mask, value, offset);
  }
  return value;
}

/// Sum over the block's threads: warp butterflies, then the warps' sums in warp order; every
/// thread gets the same bits. Must be reached by every thread of the block.
__device__ __forceinline__ double block_sum(double value, row_scratch_t& scratch) {
  value = warp_sum(value);
  if ((threadIdx.x & 31u) == 0) scratch.warp_part[threadIdx.x / 32] = value;
  __syncthreads();
  double total = 0.0;
#pragma unroll
  for (int w = 0; w < k_warps_per_block; ++w) total += scratch.warp_part[w];
  __syncthreads();  // warp_part is written again by the next call
  return total;
}

/// The sum of value(s) over the slots [b, e) of this thread's row (0 where !active), scheduled
/// by row length as the header says. Every thread of the block calls it for the same tile.
template <class value_t>
__device__ double tile_row_sum(const value_t& value, bool active, long long b, long long e,
                               row_scratch_t& scratch) {
  const long long length = active ? e - b : 0;
  double sum = 0.0;
  if (threadIdx.x == 0) scratch.hub_count = 0;
  __syncthreads();
  if (length > k_warp_row_max) {
    const int k = atomicAdd(&scratch.hub_count, 1);  // list order does not change any sum
    scratch.hub_owner[k] = static_cast<int>(threadIdx.x);
    scratch.hub_begin[k] = b;
    scratch.hub_end[k] = e;
  }
  __syncthreads();
  const int hubs = scratch.hub_count;
  for (int h = 0; h < hubs; ++h) {
    const double part =
        lane_sum(value, scratch.hub_begin[h] + threadIdx.x, scratch.hub_end[h], k_block_threads);
    const double total = block_sum(part, scratch);
    if (static_cast<int>(threadIdx.x) == scratch.hub_owner[h]) sum = total;
  }
  __syncthreads();  // hub_count and the hub list are rewritten by the next tile
  const unsigned lane = threadIdx.x & 31u;
  unsigned mids = __ballot_sync(k_full_mask, length > k_thread_row_max && length <= k_warp_row_max);
  while (mids != 0) {
    const int owner = __ffs(mids) - 1;
    mids &= mids - 1;
    const long long wb = __shfl_sync(k_full_mask, b, owner);
    const long long we = __shfl_sync(k_full_mask, e, owner);
    const double total = warp_sum(lane_sum(value, wb + lane, we, 32));
    if (static_cast<int>(lane) == owner) sum = total;
  }
  if (length <= k_thread_row_max) sum = lane_sum(value, b, b + length, 1);
  return sum;
}

/// Grid for a kernel over `tiles` tiles of k_block_threads rows.
inline unsigned tile_grid(long long tiles) {
  return ::dyng::cuda::stride_blocks(tiles * k_block_threads, 8);
}

/// Tiles of k_block_threads rows that cover `rows` rows.
__host__ __device__ inline long long tiles_of(long long rows) {
  return (rows + k_block_threads - 1) / k_block_threads;
}

/// Rows per tile of a frontier round over `rows` listed vertices: k_block_threads while the
/// tiles still outnumber the multiprocessors twice over, else fewer (a power of two), down to one.
/// A small frontier is mostly its hubs (a deletion's head is picked in proportion to its
/// in-degree, and R-MAT's hubs have the smallest ids, so they are listed first): in full tiles a
/// thousand rows sit in four tiles on four multiprocessors, the hubs of the first one summed one
/// after another by its block.
inline long long rows_per_tile(long long rows, int multiprocessors) {
  long long per = k_block_threads;
  while (per > 1 && (rows + per - 1) / per < 2LL * multiprocessors) per /= 2;
  return per;
}

/// out[k] = the sum of parts[k][0 .. count), for k < sums (arrays of partials side by
/// side, `stride` apart), by one block in a fixed order: thread t adds entries t, t + 256, ...,
/// then block_sum().
__global__ void __launch_bounds__(k_block_threads)
    sum_partials(const double* parts, long long count, long long stride, int sums, double* out) {
  __shared__ row_scratch_t scratch;
  for (int k = 0; k < sums; ++k) {
    double sum = 0.0;
    for (long long i = threadIdx.x; i < count; i += k_block_threads) sum += parts[k * stride + i];
    const double total = block_sum(sum, scratch);
    if (threadIdx.x == 0) out[k] = total;
  }
}

}  // namespace dyng::pagerank::detail::cuda
