// Labels and the rest of a components result on the GPU: sizes and the count after a compute,
// the components a batch's deletions may cut, and the entries that differ from a snapshot (after
// a recompute; an update's new labels are written by relabel_kernels.cuh).
// Included by the components launch files only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/graph/change_log.hpp"

namespace dyng::components::detail::cuda {

/// Blocks per multiprocessor of the grid-stride kernels (launch_common.cuh's grid_for()).
inline constexpr int k_blocks_per_sm = 8;

/// Adds `amount` times the lanes sharing `key` to totals[key] (64-bit integer totals), one
/// atomic per distinct key of the warp: most vertices of a skewed graph share the giant
/// component's label, and an atomic per vertex would queue on it. Returns true for the lane that
/// added. All 32 lanes call it.
template <class T>
__device__ __forceinline__ bool add_per_key(T* totals, long long key, bool active,
                                            long long amount) {
  static_assert(sizeof(T) == sizeof(unsigned long long));
  const unsigned lane = threadIdx.x & 31u;
  // Inactive lanes get keys of their own that no vertex id can take.
  const unsigned long long k = active ? static_cast<unsigned long long>(key) : (1ull << 63) | lane;
  const unsigned same = __match_any_sync(::dyng::cuda::k_full_mask, k);
  const bool leader = active && lane == static_cast<unsigned>(__ffs(same) - 1);
  if (leader) {
    atomicAdd(reinterpret_cast<unsigned long long*>(totals + key),
              static_cast<unsigned long long>(amount * __popc(same)));
  }
  return leader;
}

/// sizes[c] += the vertices labelled c, and *count += the labels (vertices labelled with
/// themselves).
__global__ void add_sizes_and_count(const int64_t* labels, long long n, int64_t* sizes,
                                    unsigned long long* count) {
  ::dyng::cuda::for_each_in_uniform_rounds(n, [&](unsigned long long v, bool active) {
    const int64_t label = active ? labels[v] : -1;
    add_per_key(sizes, label, active, 1);
    const unsigned roots =
        __ballot_sync(::dyng::cuda::k_full_mask, active && label == static_cast<int64_t>(v));
    if ((threadIdx.x & 31) == 0 && roots != 0) atomicAdd(count, __popc(roots));
  });
}

/// *differ += the vertices whose label or size entry differs from the snapshot's.
__global__ void count_differing(const int64_t* labels, const int64_t* sizes,
                                const int64_t* old_labels, const int64_t* old_sizes, long long n,
                                unsigned long long* differ) {
  unsigned long long found = 0;
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    found += labels[v] != old_labels[v] || sizes[v] != old_sizes[v] ? 1 : 0;
  }
  ::dyng::cuda::warp_add(found, differ);
}

/// cut[label] = 1 for each deleted edge whose ends share that label (>= 0): the components a
/// deletion may cut.
template <class vid_t>
__global__ void mark_cut(const edge_change_t<vid_t>* changes, unsigned long long count,
                         const int64_t* labels, unsigned char* cut) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const edge_change_t<vid_t> c = changes[i];
    if (c.kind != edge_change_kind_t::deleted) continue;
    const int64_t a = labels[c.src];
    if (a >= 0 && a == labels[c.dst]) cut[a] = 1;
  }
}

}  // namespace dyng::components::detail::cuda
