// update()'s parent repair: canonical parents redone only where they can have changed, the rule
// of incremental_repair.hpp's repair_parents on the GPU. After the search, with the snapshot of
// repair_cut.cuh:
//
// - classify_kernel (one pass over n): a vertex is "full" when its distance changed, it was cut,
//   or it heads a changed edge; full vertices are listed for a full in-row scan (parents_kernel
//   in listed mode, then the piece kernels of parents.cuh for long rows). Each vertex whose
//   distance changed and is finite lists its out-row, cut into pieces of k_merge_piece_slots.
// - merge_kernel: for those out-rows, an out-neighbour y that is not full kept its distance and
//   its in-edges, and so did its old parent p (had p dropped, y would have; had p risen, p was cut
//   and y with it; the edge (p, y) is unchanged, else y heads a change). So p is still tight, any
//   other tight in-neighbour that kept its distance was tight before and is above p, and the new
//   parent is min(p, changed in-neighbours tight now): an atomicMin of u into parents[y]. The same
//   kernel counts `affected`: full vertices whose distance or parent differs from the snapshot,
//   plus vertices whose parent the merge lowered (k_flag_lowered, counted once).
// - count_differences_kernel: the fallback's `affected` (every vertex against the snapshot).
#pragma once

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/detail/cuda/device_common.cuh"
#include "dyng/sssp/detail/cuda/repair_cut.cuh"

namespace dyng::sssp::detail::cuda {

inline constexpr long long k_merge_piece_slots = 64;
inline constexpr int k_merge_group = 8;

__device__ __forceinline__ int atomic_min_returning(int* address, int value) {
  return atomicMin(address, value);
}
__device__ __forceinline__ long atomic_min_returning(long* address, long value) {
  return static_cast<long>(
      atomicMin(reinterpret_cast<long long*>(address), static_cast<long long>(value)));
}
__device__ __forceinline__ long long atomic_min_returning(long long* address, long long value) {
  return atomicMin(address, value);
}

template <class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    classify_kernel(const adjacency_view_t<vid_t, eid_t> out, const dist_t* dist,
                    const dist_t* old_dist, unsigned* flags, vid_t* full_list,
                    unsigned long long* merge_pieces, unsigned long long merge_capacity,
                    repair_control_t* repair) {
  const long long n = out.num_vertices;
  const unsigned lane = threadIdx.x & 31u;
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const long long num_warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
  for (long long first = warp * 32; first < n; first += num_warps * 32) {
    const long long v = first + lane;
    bool full = false;
    unsigned long long pieces = 0;
    if (v < n) {
      const dist_t d = dist[v];
      const bool changed = d != old_dist[v];
      const unsigned f = flags[v];
      full = changed || (f & (k_flag_head | k_flag_cut)) != 0;
      if (full) flags[v] = f | k_flag_full;
      if (changed && d < k_infinity) {
        const long long degree = out.row_end[v] - out.row_begin[v];
        pieces = static_cast<unsigned long long>((degree + k_merge_piece_slots - 1) /
                                                 k_merge_piece_slots);
      }
    }
    // Lists hold at most n vertices: no overflow possible, the capacity is n.
    warp_append(full, static_cast<vid_t>(v), full_list, &repair->full_count,
                static_cast<unsigned long long>(n), &repair->overflow, 1);
    const unsigned long long base = warp_reserve(pieces, &repair->merge_pieces);
    for (unsigned long long k = 0; k < pieces; ++k) {
      if (base + k < merge_capacity) {
        merge_pieces[base + k] = static_cast<unsigned long long>(v) | (k << k_vertex_bits);
      } else {
        atomicExch(&repair->overflow, 1);
      }
    }
  }
}

/// Run after the parent pass over the full list (parents of full vertices final).
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    merge_kernel(const adjacency_view_t<vid_t, eid_t> out, int objective, vid_t source,
                 const dist_t* dist, const dist_t* old_dist, const vid_t* old_parents,
                 unsigned* flags, vid_t* parents, const unsigned long long* merge_pieces,
                 unsigned long long merge_capacity, const vid_t* full_list,
                 repair_control_t* repair) {
  constexpr int G = k_merge_group;
  constexpr long long groups_per_warp = 32 / G;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned glane = lane % G;
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long warp = thread / 32;
  const long long num_warps = threads / 32;
  const long long pieces =
      static_cast<long long>(min_of(repair->merge_pieces, merge_capacity));
  const int32_t* weights = out.weights + objective;
  const long long stride = out.num_weights;
  unsigned long long affected = 0;
  for (long long first = warp * groups_per_warp; first < pieces;
       first += num_warps * groups_per_warp) {
    const long long index = first + lane / G;
    if (index >= pieces) continue;
    const unsigned long long entry = merge_pieces[index];
    const vid_t u = static_cast<vid_t>(entry & k_vertex_mask);
    const dist_t du = dist[u];
    const long long b =
        out.row_begin[u] + static_cast<long long>(entry >> k_vertex_bits) * k_merge_piece_slots;
    const long long row_end = out.row_end[u];
    const long long e = b + k_merge_piece_slots < row_end ? b + k_merge_piece_slots : row_end;
    for (long long s = b + glane; s < e; s += G) {
      const vid_t y = out.col[s];
      if (y == u || y == source || (flags[y] & k_flag_full) != 0) continue;
      const long long w = weights[s * stride];
      if (dist[y] != du + static_cast<dist_t>(w)) continue;
      if (u < atomic_min_returning(parents + y, u) &&
          (atomicOr(flags + y, k_flag_lowered) & k_flag_lowered) == 0) {
        ++affected;
      }
    }
  }
  const long long full = static_cast<long long>(repair->full_count);
  for (long long i = thread; i < full; i += threads) {
    const vid_t v = full_list[i];
    affected += dist[v] != old_dist[v] || parents[v] != old_parents[v] ? 1 : 0;
  }
  affected = warp_sum(affected);
  if (lane == 0 && affected > 0) atomicAdd(&repair->affected, affected);
}

/// Vertices whose distance or parent differs from the snapshot, into *count.
template <class vid_t>
__global__ void __launch_bounds__(k_block_threads)
    count_differences_kernel(long long n, const dist_t* dist, const vid_t* parents,
                             const dist_t* old_dist, const vid_t* old_parents,
                             unsigned long long* count) {
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  unsigned long long differ = 0;
  for (long long v = thread; v < n; v += threads) {
    differ += dist[v] != old_dist[v] || parents[v] != old_parents[v] ? 1 : 0;
  }
  differ = warp_sum(differ);
  if ((threadIdx.x & 31u) == 0 && differ > 0) atomicAdd(count, differ);
}

}  // namespace dyng::sssp::detail::cuda
