// Warp-level building blocks that every CUDA kernel of libdyng uses: aggregated appends to a
// work list, reservations of list ranges, small reductions over a warp or a lane group, and
// grid-stride loops whose lanes stay together for them. They
// live here, outside the algorithm folders, as Gunrock keeps its operators in framework/.
// Included by .cu files (and the .cuh kernel headers they include) only.
#pragma once

#include <cuda_runtime.h>

namespace dyng::cuda {

inline constexpr unsigned k_full_mask = 0xffffffffu;

__device__ __forceinline__ unsigned lanes_below(unsigned lane) { return (1u << lane) - 1u; }

/// Appends `value` for every lane whose `flag` is set, with one atomicAdd per warp. Must be
/// reached by all 32 lanes. Entries past `capacity` are dropped and `overflow_value` is written to
/// `*status`: a kernel sizes its lists so that this cannot happen, and the flag turns a sizing bug
/// into an error the host reports instead of a silent loss.
template <class T>
__device__ __forceinline__ void warp_append(bool flag, T value, T* queue, unsigned long long* count,
                                            unsigned long long capacity, int* status,
                                            int overflow_value) {
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
      atomicExch(status, overflow_value);
    }
  }
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

/// Sum over the 32 lanes, returned to every lane. Must be reached by all 32 lanes.
__device__ __forceinline__ unsigned long long warp_sum(unsigned long long value) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_xor_sync(k_full_mask, value, offset);
  }
  return value;
}

/// Adds the lanes' values to *total, one atomic per warp (none for a sum of 0): a counter that
/// every thread of a grid adds to at its end would otherwise take an atomic per thread, all
/// queued on one address. Must be reached by all 32 lanes.
__device__ __forceinline__ void warp_add(unsigned long long value, unsigned long long* total) {
  const unsigned long long sum = warp_sum(value);
  if ((threadIdx.x & 31u) == 0 && sum != 0) atomicAdd(total, sum);
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

/// Calls f(i, active) for i over [0, count) in grid-stride order, every lane of the grid running
/// the same number of rounds (lanes past the end get active == false), so that f may make
/// warp-wide calls such as warp_append.
template <class F>
__device__ __forceinline__ void for_each_in_uniform_rounds(unsigned long long count, F&& f) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  const unsigned long long first =
      blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  const unsigned long long rounds = (count + stride - 1) / stride;
  for (unsigned long long r = 0; r < rounds; ++r) {
    const unsigned long long i = first + r * stride;
    f(i, i < count);
  }
}

template <class T>
__device__ __forceinline__ T min_of(T a, T b) {
  return a < b ? a : b;
}

template <class T>
__device__ __forceinline__ T max_of(T a, T b) {
  return a < b ? b : a;
}

}  // namespace dyng::cuda
