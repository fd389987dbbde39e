// The kernels of an update's frontier rounds on the GPU (the host's are frontier_iteration.hpp):
// the frontier is a byte per vertex, collected into a vertex list each round (and cleared);
// a round recomputes the rank of each listed vertex from the shares of the round before
// (Jacobi: the pull of iteration_kernels.cuh, over the list), then writes the ranks and shares
// and flags every vertex whose rank moved by more than the threshold, with its out-neighbours,
// for the next round. Seeds: both ends of every changed edge, the out-neighbours of its tail
// (of both ends when undirected) and the batch's new vertices with their out-neighbours. Flags
// are plain byte stores of 1 (any writer order gives the same bytes). Included by
// frontier_launch.cuh only.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/pagerank/detail/cuda/iteration_kernels.cuh"

namespace dyng::pagerank::detail::cuda {

/// Counters of one round in device memory (zeroed before it).
struct round_counters_t {
  unsigned long long listed;  ///< Vertices collected into the list.
  unsigned long long slots;   ///< Their in-slots (the round's edges read).
  unsigned long long moved;   ///< Vertices whose rank moved past the threshold.
  int status;                 ///< Nonzero: a list overflowed (a bug).
};

/// Both ends of each change into `flags`; its tail (both ends when undirected) into `expand`.
template <class vid_t>
__global__ void seed_changes(const edge_change_t<vid_t>* changes, long long count, bool directed,
                             unsigned char* flags, unsigned char* expand) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const edge_change_t<vid_t> c = changes[i];
    flags[c.src] = 1;
    flags[c.dst] = 1;
    expand[c.src] = 1;
    if (!directed) expand[c.dst] = 1;
  }
}

/// Vertices first .. n - 1 (a batch's new ones) into both `flags` and `expand`.
__global__ void seed_new_vertices(long long first, long long n, unsigned char* flags,
                                  unsigned char* expand) {
  for (long long v = first + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    flags[v] = 1;
    expand[v] = 1;
  }
}

/// Appends the flagged vertices to `list` (in no particular order: each listed rank is computed
/// on its own) and clears their flags; counts them, and with `in` their in-slots, in `counters`.
template <class vid_t, class eid_t>
__global__ void collect_flagged(unsigned char* flags, long long n,
                                const adjacency_view_t<vid_t, eid_t> in, bool count_slots,
                                vid_t* list, round_counters_t* counters) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  // Every lane runs the same rounds, so the warp-wide append sees all 32 lanes.
  const long long rounds = (n + stride - 1) / stride;
  unsigned long long slots = 0;
  for (long long r = 0; r < rounds; ++r) {
    const long long v = first + r * stride;
    const bool flagged = v < n && flags[v] != 0;
    if (flagged) {
      flags[v] = 0;
      if (count_slots) slots += static_cast<unsigned long long>(in.row_end[v] - in.row_begin[v]);
    }
    ::dyng::cuda::warp_append(flagged, static_cast<vid_t>(v), list, &counters->listed,
                              static_cast<unsigned long long>(n), &counters->status, 1);
  }
  slots = ::dyng::cuda::warp_sum(slots);
  if ((threadIdx.x & 31u) == 0 && slots > 0) atomicAdd(&counters->slots, slots);
}

/// flags[w] = 1 for every out-neighbour w of the *count listed vertices, a warp per vertex (so
/// a hub's row is read coalesced).
template <class vid_t, class eid_t>
__global__ void flag_out_neighbours(const adjacency_view_t<vid_t, eid_t> out, const vid_t* list,
                                    const unsigned long long* count, unsigned char* flags) {
  const unsigned lane = threadIdx.x & 31u;
  const long long warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
  const long long listed = static_cast<long long>(*count);
  for (long long i = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32;
       i < listed; i += warps) {
    const vid_t u = list[i];
    const long long end = out.row_end[u];
    for (long long s = out.row_begin[u] + lane; s < end; s += 32) flags[out.col[s]] = 1;
  }
}

/// What frontier_round() and apply_round() read and write.
template <class vid_t, class eid_t>
struct round_args_t {
  adjacency_view_t<vid_t, eid_t> in;
  const vid_t* list;
  long long rows;  ///< Listed vertices.
  double alpha;
  jump_t jump;
  const double* inverse;
  const double* dangling_mass;  ///< D of x (device scalar)
  double* x;
  double* share;
  double* next;  ///< Per listed vertex, its new rank.
};

/// next[i] = the new rank of list[i], from the shares of the round before.
template <bool k_weighted, class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    frontier_round(const round_args_t<vid_t, eid_t> a) {
  __shared__ row_scratch_t scratch;
  const pull_value_t<k_weighted, vid_t, eid_t> value{a.in.col, a.in.weights, a.in.num_weights,
                                                     a.share};
  const double mass = *a.dangling_mass;
  for (long long tile = blockIdx.x; tile < tiles_of(a.rows); tile += gridDim.x) {
    const long long i = tile * k_block_threads + threadIdx.x;
    const bool active = i < a.rows;
    const long long v = active ? static_cast<long long>(a.list[i]) : 0;
    const long long b = active ? static_cast<long long>(a.in.row_begin[v]) : 0;
    const long long e = active ? static_cast<long long>(a.in.row_end[v]) : 0;
    const double sum = tile_row_sum(value, active, b, e, scratch);
    if (active) {
      a.next[i] = a.alpha * (sum + mass * a.jump.dangle(v)) + (1.0 - a.alpha) * a.jump.teleport(v);
    }
  }
}

/// Writes the round's ranks and shares; a vertex that moved by more than `threshold` is flagged
/// again and listed in `moved` (for flag_out_neighbours).
template <class vid_t, class eid_t>
__global__ void apply_round(const round_args_t<vid_t, eid_t> a, double threshold,
                            unsigned char* flags, vid_t* moved, unsigned long long capacity,
                            round_counters_t* counters) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long rounds = (a.rows + stride - 1) / stride;
  for (long long r = 0; r < rounds; ++r) {
    const long long i = first + r * stride;
    bool far = false;
    vid_t v = 0;
    if (i < a.rows) {
      v = a.list[i];
      const double x = a.next[i];
      far = fabs(x - a.x[v]) > threshold;
      a.x[v] = x;
      a.share[v] = x * a.inverse[v];
      if (far) flags[v] = 1;
    }
    ::dyng::cuda::warp_append(far, v, moved, &counters->moved, capacity, &counters->status, 1);
  }
}

}  // namespace dyng::pagerank::detail::cuda
