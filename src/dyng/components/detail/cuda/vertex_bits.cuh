// A bit per vertex in an array of 32-bit words: the GPU components repairs mark vertices this way
// (planted by a search, linked as a base, moved, listed), an eighth of a byte per vertex that
// stays in the L2 cache where a byte or a word per vertex would not.
// Included by the components kernel headers only.
#pragma once

#include <cuda_runtime.h>

namespace dyng::components::detail::cuda {

/// Whether v's bit is set.
__device__ __forceinline__ bool bit_of(const unsigned* bits, long long v) {
  return ((bits[v >> 5] >> (v & 31)) & 1u) != 0;
}

/// Sets v's bit; returns whether it was set before (atomic).
__device__ __forceinline__ bool set_bit(unsigned* bits, long long v) {
  const unsigned bit = 1u << (v & 31);
  return (atomicOr(bits + (v >> 5), bit) & bit) != 0;
}

}  // namespace dyng::components::detail::cuda
