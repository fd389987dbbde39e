// update()'s parent repair: canonical parents redone only where they can have changed, the rule
// of incremental_repair.hpp's repair_parents on the GPU, and the clean-up that ends an update.
// After the search, with the mirror of the old state (repair_memory_t):
//
// Each kernel here does nothing when the cut kernel or the search gave up, so the host queues
// them all behind the search and waits once.
// - classify_kernel (one pass over the touched list, touched.cuh): a vertex is "full" when its
//   distance changed, it was cut, or it heads a changed edge; every vertex with any of these is
//   listed, so the list covers them all. Full vertices are listed again for a full in-row scan
//   (parents_kernel in listed mode, then the piece kernels of parents.cuh for long rows). Each
//   vertex whose distance changed and is finite lists its out-row, cut into pieces of
//   k_merge_piece_slots.
// - merge_kernel: for those out-rows, an out-neighbour y that is not full kept its distance and
//   its in-edges, and so did its old parent p (had p dropped, y would have; had p risen, p was cut
//   and y with it; the edge (p, y) is unchanged, else y heads a change). So p is still tight, any
//   other tight in-neighbour that kept its distance was tight before and is above p, and the new
//   parent is min(p, changed in-neighbours tight now): an atomicMin of u into parents[y], which
//   lists y. The same kernel counts `affected`: full vertices whose distance or parent differs
//   from the mirror, plus vertices whose parent the merge lowered (k_flag_lowered, counted once).
// - settle_kernel: for every listed vertex, the mirror takes its new distance and parent and its
//   flags and stamps go back to clean, so the next update starts from a clean memory.
// - mirror_kernel: the O(n) version for a memory that is not clean (the first update of a state,
//   after a fallback or a failure); with a counter, it also counts the fallback's `affected`
//   (every vertex against the mirror) on the way.
#pragma once

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/detail/cuda/device_common.cuh"
#include "dyng/sssp/detail/cuda/repair_cut.cuh"
#include "dyng/sssp/detail/cuda/touched.cuh"

namespace dyng::sssp::detail::cuda {

inline constexpr long long k_merge_piece_slots = 64;

/// The cut kernel and the search both finished their work (the host queues the parent repair
/// without waiting for their verdicts; with either given up, it does nothing).
__device__ __forceinline__ bool repair_went_through(const update_control_t* control) {
  return __ldcg(&control->repair.status) == k_repair_ok &&
         __ldcg(&control->search.status) == k_status_ok;
}
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
                    const dist_t* old_dist, touched_list_t<vid_t> touched, vid_t* full_list,
                    unsigned long long* merge_pieces, unsigned long long merge_capacity,
                    update_control_t* control) {
  if (!repair_went_through(control)) return;
  repair_control_t* repair = &control->repair;
  const unsigned lane = threadIdx.x & 31u;
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const long long num_warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
  const long long count = static_cast<long long>(min_of(*touched.count, touched.capacity));
  for (long long first = warp * 32; first < count; first += num_warps * 32) {
    const long long i = first + lane;
    bool full = false;
    long long v = 0;
    long long degree = 0;  // of the out-row to merge from: vertices whose distance changed
    if (i < count) {
      v = static_cast<long long>(touched.vertices[i]);
      const dist_t d = dist[v];
      const bool changed = d != old_dist[v];
      const unsigned f = touched.flags[v];
      full = changed || (f & (k_flag_head | k_flag_cut)) != 0;
      if (full) touched.flags[v] = f | k_flag_full;
      if (changed && d < k_infinity) degree = out.row_end[v] - out.row_begin[v];
    }
    // The full list is a part of the touched list: no overflow possible.
    warp_append(full, static_cast<vid_t>(v), full_list, &repair->full_count, touched.capacity,
                &repair->overflow, 1);
    append_row_pieces(v, degree, k_merge_piece_slots, merge_pieces, &repair->merge_pieces,
                      merge_capacity, &repair->overflow);
  }
}

/// Run after the parent pass over the full list (parents of full vertices final).
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    merge_kernel(const adjacency_view_t<vid_t, eid_t> out, int objective, vid_t source,
                 const dist_t* dist, const dist_t* old_dist, const vid_t* old_parents,
                 touched_list_t<vid_t> touched, vid_t* parents,
                 const unsigned long long* merge_pieces, unsigned long long merge_capacity,
                 const vid_t* full_list, repair_control_t* repair) {
  constexpr int G = k_merge_group;
  constexpr long long groups_per_warp = 32 / G;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned glane = lane % G;
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long warp = thread / 32;
  const long long num_warps = threads / 32;
  const long long pieces = static_cast<long long>(min_of(repair->merge_pieces, merge_capacity));
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
      if (y == u || y == source || (touched.flags[y] & k_flag_full) != 0) continue;
      const long long w = weights[s * stride];
      if (dist[y] != du + static_cast<dist_t>(w)) continue;
      if (u < atomic_min_returning(parents + y, u) &&
          (mark_touched(touched, y, k_flag_lowered, &repair->overflow, 1) & k_flag_lowered) == 0) {
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

/// The end of an incremental update: every listed vertex's distance and parent into the mirror,
/// its flags and stamps back to clean. Run after every other kernel of the update.
template <class vid_t>
__global__ void __launch_bounds__(k_block_threads)
    settle_kernel(const dist_t* dist, const vid_t* parents, touched_list_t<vid_t> touched,
                  dist_t* old_dist, vid_t* old_parents, int* near_stamp, int* far_stamp,
                  const update_control_t* control) {
  // A repair that gave up leaves the mirror as it was: the fallback counts against it.
  if (!repair_went_through(control)) return;
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long count = static_cast<long long>(min_of(*touched.count, touched.capacity));
  for (long long i = thread; i < count; i += threads) {
    const vid_t v = touched.vertices[i];
    old_dist[v] = dist[v];
    old_parents[v] = parents[v];
    touched.flags[v] = 0;
    near_stamp[v] = -1;
    far_stamp[v] = -1;
  }
}

/// Vertices [from, to) into the mirror, flags and stamps clean. With `differ`, also counts the
/// vertices whose distance or parent differs from the mirror before the copy (the fallback's
/// `affected`).
template <class vid_t>
__global__ void __launch_bounds__(k_block_threads)
    mirror_kernel(long long from, long long to, const dist_t* dist, const vid_t* parents,
                  dist_t* old_dist, vid_t* old_parents, unsigned* flags, int* near_stamp,
                  int* far_stamp, unsigned long long* differ) {
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  unsigned long long count = 0;
  for (long long v = from + thread; v < to; v += threads) {
    const dist_t d = dist[v];
    const vid_t parent = parents[v];
    if (differ != nullptr) count += d != old_dist[v] || parent != old_parents[v] ? 1 : 0;
    old_dist[v] = d;
    old_parents[v] = parent;
    flags[v] = 0;
    near_stamp[v] = -1;
    far_stamp[v] = -1;
  }
  if (differ != nullptr) {
    count = warp_sum(count);
    if ((threadIdx.x & 31u) == 0 && count > 0) atomicAdd(differ, count);
  }
}

}  // namespace dyng::sssp::detail::cuda
