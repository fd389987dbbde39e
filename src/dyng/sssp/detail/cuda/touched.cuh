// The vertices one update() touches, and the per-vertex flags that record how.
//
// update() keeps its per-vertex memory between batches (repair_memory_t, sssp_cuda.hpp): flags
// and search stamps that every update leaves clean, and a mirror of the state as the last update
// left it. So that a batch costs O(the vertices it touches) instead of O(n), every kernel that
// writes a vertex's flags, stamps, distance or parent lists the vertex once (k_flag_listed
// deduplicates), and the last kernel of the update cleans exactly the listed vertices.
#pragma once

#include <cuda_runtime.h>

namespace dyng::sssp::detail::cuda {

/// Per-vertex flags of update(), one uint32 each (atomicOr needs a word). 0 between updates.
enum : unsigned {
  k_flag_head = 1u,     ///< head of a changed edge: parent redone by a full in-row scan
  k_flag_cut = 2u,      ///< in a cut subtree
  k_flag_full = 4u,     ///< parent redone by a full in-row scan (set by classify_kernel)
  k_flag_lowered = 8u,  ///< parent lowered by merge_kernel (counted once)
  k_flag_listed = 16u,  ///< in the update's list of touched vertices
};

/// Where an update lists the vertices it touches: `capacity` entries (n: each vertex at most
/// once) and their count.
template <class vid_t>
struct touched_list_t {
  unsigned* flags = nullptr;
  vid_t* vertices = nullptr;
  unsigned long long* count = nullptr;
  unsigned long long capacity = 0;
};

/// Sets `bits` in v's flags and lists v the first time any kernel of this update does so.
/// Returns the flags v had before. `*overflow` is set if the list is full, which a list of n
/// entries with k_flag_listed deduplicating cannot be.
template <class vid_t>
__device__ __forceinline__ unsigned mark_touched(const touched_list_t<vid_t>& list, long long v,
                                                 unsigned bits, int* overflow, int overflow_value) {
  const unsigned before = atomicOr(list.flags + v, bits | k_flag_listed);
  if ((before & k_flag_listed) == 0) {
    const unsigned long long at = atomicAdd(list.count, 1ull);
    if (at < list.capacity) {
      list.vertices[at] = static_cast<vid_t>(v);
    } else {
      atomicExch(overflow, overflow_value);
    }
  }
  return before;
}

}  // namespace dyng::sssp::detail::cuda
