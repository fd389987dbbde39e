// The last step of every GPU components repair: the new labels written over the old ones, the
// sizes moved along, and what changed counted exactly (relabelled vertices, components that
// appeared and disappeared, and `affected`: the vertices whose label or size entry differs),
// without a copy of the state taken before the repair. A size entry can change only at a label
// that a relabelled vertex leaves or joins; those labels are listed once each (a bit per
// vertex) while the labels are written, and their size changes summed per label, so the sizes
// are settled over that list alone.
// Included by the components launch files only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/components/detail/cuda/label_kernels.cuh"
#include "dyng/components/detail/cuda/vertex_bits.cuh"

namespace dyng::components::detail::cuda {

/// What relabel_vertices() and settle_sizes() found (device counters, zeroed before).
struct relabel_counts_t {
  unsigned long long relabelled;
  unsigned long long appeared;     ///< Old vertices that became a label.
  unsigned long long disappeared;  ///< Old labels that are labels no more.
  long long count_change;          ///< Labels now minus labels before.
  unsigned long long listed;       ///< Labels whose size may change (entries of the list).
  unsigned long long resized;      ///< Of those, sizes that changed where the label did not.
  int status;                      ///< Non-zero when the list overflowed (a bug).
};

/// Lists `key` once (its bit in `marks`) for the lanes with `add` set. All 32 lanes call it.
__device__ __forceinline__ void list_once(bool add, long long key, unsigned* marks, long long* list,
                                          relabel_counts_t* counts, unsigned long long capacity) {
  const bool fresh = add && !set_bit(marks, key);
  ::dyng::cuda::warp_append(fresh, key, list, &counts->listed, capacity, &counts->status, 1);
}

/// For every vertex v, its new label now_of(v, labels[v]); where it differs, writes it, sets v's
/// bit in `moved`, adds -1 to delta[old label] and +1 to delta[new label], and lists both labels
/// (once each, `listed_marks`). Vertices at or past `old_vertices` are the batch's new ones
/// (label -1). `moved`, `listed_marks` and `delta` are zero before. Does nothing when `skip`
/// (nullable) points at a non-zero count: a repair that queued it before knowing whether its
/// labels apply (relabel_guard_t). Bounded to the k_blocks_per_sm blocks a multiprocessor that
/// grid_for() launches (32 registers a thread): at the 38 the compiler took unbounded only six fit,
/// and the last quarter of the grid ran as a second, thin wave after the first.
template <class now_of_t>
__global__ void __launch_bounds__(::dyng::cuda::k_block_threads, k_blocks_per_sm)
    relabel_vertices(now_of_t now_of, long long n, long long old_vertices, int64_t* labels,
                     long long* delta, unsigned* moved, unsigned* listed_marks, long long* list,
                     unsigned long long capacity, relabel_counts_t* counts,
                     const unsigned long long* skip) {
  if (skip != nullptr && *skip != 0) return;
  unsigned long long relabelled = 0, appeared = 0, disappeared = 0;
  long long change = 0;
  ::dyng::cuda::for_each_in_uniform_rounds(n, [&](unsigned long long i, bool active) {
    const auto v = static_cast<long long>(i);
    int64_t was = -1, now = -1;
    bool differs = false;
    if (active) {
      was = labels[v];
      now = now_of(v, was);
      change += static_cast<long long>(now == v) - static_cast<long long>(was == v);
      differs = now != was;
      if (differs) {
        labels[v] = now;
        ++relabelled;
        appeared += now == v && v < old_vertices ? 1 : 0;
        disappeared += was == v ? 1 : 0;
      }
    }
    // A warp's lanes hold consecutive vertices starting at a multiple of 32 (the grid's blocks
    // are whole warps), so one word of `moved` belongs to one warp.
    const unsigned word = __ballot_sync(::dyng::cuda::k_full_mask, differs);
    // Most warps of an update move no vertex: they skip the per-key sums and the lists, whose
    // match and ballots cost more than the pass's reads (the same for all lanes of the warp).
    if (word == 0) return;
    if ((threadIdx.x & 31u) == 0) moved[v >> 5] = word;
    const bool joins = add_per_key(delta, now, differs, 1);
    const bool leaves = add_per_key(delta, was, differs && was >= 0, -1);
    list_once(joins, now, listed_marks, list, counts, capacity);
    list_once(leaves, was, listed_marks, list, counts, capacity);
  });
  if (relabelled > 0) {
    atomicAdd(&counts->relabelled, relabelled);
    atomicAdd(&counts->appeared, appeared);
    atomicAdd(&counts->disappeared, disappeared);
  }
  if (change != 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(&counts->count_change),
              static_cast<unsigned long long>(change));
  }
}

/// Adds each listed label's delta to its size, and counts the sizes that changed at a vertex
/// whose label did not (those relabelled are counted already).
__global__ void settle_sizes(const long long* list, const long long* delta, const unsigned* moved,
                             int64_t* sizes, relabel_counts_t* counts) {
  const unsigned long long listed = counts->listed;
  unsigned long long resized = 0;
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < listed; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const long long x = list[i];
    const long long d = delta[x];
    if (d == 0) continue;
    sizes[x] += d;
    resized += bit_of(moved, x) ? 0 : 1;
  }
  if (resized > 0) atomicAdd(&counts->resized, resized);
}

/// now_of for a repair that wrote every vertex's new label into `fresh`.
struct fresh_label_t {
  const int64_t* fresh;
  __device__ int64_t operator()(long long v, int64_t) const { return fresh[v]; }
};

}  // namespace dyng::components::detail::cuda
