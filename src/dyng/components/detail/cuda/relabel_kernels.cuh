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

/// Vertices a thread of relabel_vertices() takes side by side: their labels, and the loads that
/// find their new labels, are issued together, so that the pass is not one chain of dependent
/// loads per vertex after another (bench/README.md has what it measured).
constexpr int k_relabel_batch = 4;

/// For every vertex v, its new label (now_of.resolve(), k_relabel_batch vertices at a time, from
/// v and labels[v]); where it differs, writes it, sets v's bit in `moved`, adds -1 to delta[old
/// label] and +1 to delta[new label], and lists both labels (once each, `listed_marks`).
/// Vertices at or past `old_vertices` are the batch's new ones (label -1). `moved`,
/// `listed_marks` and `delta` are zero before. Does nothing when `skip` (nullable) points at a
/// non-zero count: a repair that launched it before knowing whether its labels apply.
template <class now_of_t>
__global__ void relabel_vertices(now_of_t now_of, long long n, long long old_vertices,
                                 int64_t* labels, long long* delta, unsigned* moved,
                                 unsigned* listed_marks, long long* list,
                                 unsigned long long capacity, relabel_counts_t* counts,
                                 const unsigned long long* skip) {
  if (skip != nullptr && *skip != 0) return;
  constexpr int k_batch = k_relabel_batch;
  unsigned long long relabelled = 0, appeared = 0, disappeared = 0;
  long long change = 0;
  // A round gives each thread k_batch vertices a whole grid apart, so a warp's lanes hold 32
  // consecutive vertices from a multiple of 32 on for each of them (the grid's blocks are whole
  // warps), and every lane of a warp runs the same rounds (the ballots below need all 32).
  const auto threads = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  const unsigned long long first =
      blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  const unsigned long long span = threads * k_batch;
  const unsigned long long rounds = (static_cast<unsigned long long>(n) + span - 1) / span;
  for (unsigned long long r = 0; r < rounds; ++r) {
    long long v[k_batch];
    bool active[k_batch];
    int64_t was[k_batch], now[k_batch];
#pragma unroll
    for (int k = 0; k < k_batch; ++k) {
      v[k] = static_cast<long long>(first + (r * k_batch + k) * threads);
      active[k] = v[k] < n;
      was[k] = active[k] ? labels[v[k]] : -1;
    }
    now_of.resolve(v, active, was, now);
#pragma unroll
    for (int k = 0; k < k_batch; ++k) {
      bool differs = false;
      if (active[k]) {
        change += static_cast<long long>(now[k] == v[k]) - static_cast<long long>(was[k] == v[k]);
        differs = now[k] != was[k];
        if (differs) {
          labels[v[k]] = now[k];
          ++relabelled;
          appeared += now[k] == v[k] && v[k] < old_vertices ? 1 : 0;
          disappeared += was[k] == v[k] ? 1 : 0;
        }
      }
      const unsigned word = __ballot_sync(::dyng::cuda::k_full_mask, differs);
      // Most warps of an update move no vertex: they skip the per-key sums and the lists, whose
      // match and ballots cost more than the pass's reads (the same for all lanes of the warp).
      if (word == 0) continue;
      if ((threadIdx.x & 31u) == 0) moved[v[k] >> 5] = word;
      const bool joins = add_per_key(delta, now[k], differs, 1);
      const bool leaves = add_per_key(delta, was[k], differs && was[k] >= 0, -1);
      list_once(joins, now[k], listed_marks, list, counts, capacity);
      list_once(leaves, was[k], listed_marks, list, counts, capacity);
    }
  }
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

/// The new labels of a repair that wrote every vertex's new label into `fresh`.
struct fresh_label_t {
  const int64_t* fresh;
  template <int k_batch>
  __device__ void resolve(const long long (&v)[k_batch], const bool (&active)[k_batch],
                          const int64_t (&)[k_batch], int64_t (&now)[k_batch]) const {
#pragma unroll
    for (int k = 0; k < k_batch; ++k) now[k] = active[k] ? fresh[v[k]] : -1;
  }
};

}  // namespace dyng::components::detail::cuda
