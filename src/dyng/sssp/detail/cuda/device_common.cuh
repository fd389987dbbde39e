// Pieces the CUDA SSSP kernels share: the work-item encoding, the device-resident control block,
// warp-aggregated queue appends and small warp/group reductions.
//
// A work item is 16 bytes: the first slot of a row range and, packed, the vertex (low 40 bits)
// with the range length (high 24 bits, saturated). Carrying the range means the round that takes
// an item can load the vertex's distance and its first edges at once, instead of first reading
// row_begin/row_end: one dependent memory access less per round, which on a grid (~5000 rounds,
// each a chain of dependent accesses) is a tenth of the time. The pusher loads the range in
// parallel with its other atomics. A row longer than one chunk is queued whole; the item that
// takes it relaxes the first chunk and queues the rest as chunk-sized items, so one hub (R-MAT's
// have ~10^5 edges) is spread over many groups instead of serialising a round on one group.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace dyng::sssp::detail::cuda {

using item_t = ulonglong2;          // {first slot, vertex | length << 40}
using dist_t = unsigned long long;  // distances as the type atomicMin works on (all are >= 0)

inline constexpr int k_vertex_bits = 40;
inline constexpr unsigned long long k_vertex_mask = (1ull << k_vertex_bits) - 1;
inline constexpr long long k_max_length = (1ll << (64 - k_vertex_bits)) - 1;
inline constexpr unsigned k_full_mask = 0xffffffffu;
inline constexpr int k_block_threads = 256;
inline constexpr dist_t k_infinity = (dist_t{1} << 61) - 1;  // == k_infinite_distance

__device__ __forceinline__ item_t make_item(long long first, long long length,
                                            unsigned long long vertex) {
  const unsigned long long saturated =
      static_cast<unsigned long long>(length < k_max_length ? length : k_max_length);
  return make_ulonglong2(static_cast<unsigned long long>(first),
                         vertex | (saturated << k_vertex_bits));
}
__device__ __forceinline__ unsigned long long item_vertex(item_t item) {
  return item.y & k_vertex_mask;
}
__device__ __forceinline__ long long item_first(item_t item) {
  return static_cast<long long>(item.x);
}
__device__ __forceinline__ long long item_length(item_t item) {
  return static_cast<long long>(item.y >> k_vertex_bits);
}

/// Status codes the persistent kernel leaves in control_t::status. A seeded search (update's
/// repair) also stops with k_status_budget once it has relaxed more edges than it was allowed.
enum : int { k_status_ok = 0, k_status_round_limit = 1, k_status_overflow = 2, k_status_budget = 3 };

/// Device-resident state of one compute: queue counters (rotated, see near_far.cuh), the far
/// pile's smallest distance, statistics and the length of the parent pass's piece list.
struct control_t {
  unsigned long long near_count[3];
  unsigned long long far_count[3];
  dist_t far_min[3];
  unsigned long long relaxations;
  unsigned long long pushes;
  unsigned long long piece_count;
  long long rounds;
  long long epochs;
  int status;
  // Seeded search only: relaxations flushed so far (approximate, for the budget) and the stop
  // decision for the next round, written by thread 0 into the slot the other threads do not
  // read this round (see near_far.cuh).
  unsigned long long work;
  int stop[2];
  // Filled by the prepare kernel.
  unsigned long long stored_edges;
  unsigned long long sampled_weight_sum;
  unsigned long long sampled_weight_count;
};

__device__ __forceinline__ unsigned lanes_below(unsigned lane) { return (1u << lane) - 1u; }

/// Appends `value` for every lane whose `flag` is set, with one atomicAdd per warp. Must be
/// reached by all 32 lanes. Entries past `capacity` are dropped and flagged as overflow (the
/// workspace is sized so that this cannot happen; the flag turns a sizing bug into an error).
template <class T>
__device__ __forceinline__ void warp_append(bool flag, T value, T* queue,
                                            unsigned long long* count,
                                            unsigned long long capacity, int* status) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned voters = __ballot_sync(k_full_mask, flag);
  if (voters == 0) return;
  const unsigned leader = __ffs(voters) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(count, static_cast<unsigned long long>(__popc(voters)));
  base = __shfl_sync(k_full_mask, base, leader);
  if (flag) {
    const unsigned long long index = base + __popc(voters & lanes_below(lane));
    if (index < capacity) {
      queue[index] = value;
    } else {
      atomicExch(status, k_status_overflow);
    }
  }
}

/// Minimum over the G lanes of each group (G a power of two <= 32); all 32 lanes must call it.
template <int G, class T>
__device__ __forceinline__ T group_min(T value) {
#pragma unroll
  for (int offset = G / 2; offset > 0; offset /= 2) {
    const T other = __shfl_xor_sync(k_full_mask, value, offset);
    value = other < value ? other : value;
  }
  return value;
}

/// Reserves `count` consecutive entries of a list for each lane with one atomicAdd per warp and
/// returns the lane's first index. Must be reached by all 32 lanes.
__device__ __forceinline__ unsigned long long warp_reserve(unsigned long long count,
                                                           unsigned long long* length) {
  const unsigned lane = threadIdx.x & 31u;
  unsigned long long prefix = count;  // inclusive prefix sum over the lanes
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const unsigned long long below = __shfl_up_sync(k_full_mask, prefix, offset);
    if (lane >= static_cast<unsigned>(offset)) prefix += below;
  }
  const unsigned long long total = __shfl_sync(k_full_mask, prefix, 31);
  unsigned long long base = 0;
  if (lane == 31 && total > 0) base = atomicAdd(length, total);
  base = __shfl_sync(k_full_mask, base, 31);
  return base + prefix - count;
}

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long value) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_xor_sync(k_full_mask, value, offset);
  }
  return value;
}

template <class T>
__device__ __forceinline__ T min_of(T a, T b) {
  return a < b ? a : b;
}

template <class T>
__device__ __forceinline__ T max_of(T a, T b) {
  return a < b ? b : a;
}

}  // namespace dyng::sssp::detail::cuda
