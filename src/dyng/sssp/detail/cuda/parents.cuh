// Canonical parents on the device: for every vertex v, the lowest-id in-neighbour u != v with
// dist[u] + w(u, v) == dist[v]; -1 for the source and for unreachable vertices. The same rule as
// detail::canonical_parent (sssp_common.hpp), written as dist[u] == dist[v] - w so that it cannot
// overflow, evaluated after the distances are final so that the answer depends on them alone.
//
// One pass over the in-edges, split by row length so that no row holds up the pass: rows of up
// to k_wide_in_degree slots are scanned by a group of G lanes with a shuffle-min at the end;
// longer rows (power-law in-hubs reach ~10^5 slots) are cut into pieces of k_piece_slots, listed,
// and scanned by one warp per piece in a second kernel, each piece folding its minimum into the
// parent with atomicMin. A third kernel turns "no tight in-neighbour" into -1 for those rows.
// Scans keep several slots' loads in flight per lane, since each step is a dependent pair of
// loads (the neighbour id, then its distance).
#pragma once

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/detail/cuda/device_common.cuh"

namespace dyng::sssp::detail::cuda {

inline constexpr long long k_wide_in_degree = 64;
inline constexpr long long k_piece_slots = 256;

/// Entries of the piece list for `in_edges` stored in-edges: a row longer than k_wide_in_degree
/// slots has ceil(len / k_piece_slots) <= len / k_piece_slots + 1 pieces, and fewer than
/// in_edges / k_wide_in_degree rows are that long.
__host__ __device__ constexpr unsigned long long piece_capacity(unsigned long long in_edges) {
  return in_edges / k_piece_slots + in_edges / k_wide_in_degree + 64;
}

/// The largest value of vid_t, the "no parent yet" marker of the min-reductions.
template <class vid_t>
__device__ __forceinline__ vid_t no_vertex() {
  return static_cast<vid_t>((static_cast<unsigned long long>(1) << (8 * sizeof(vid_t) - 1)) - 1);
}

__device__ __forceinline__ void atomic_min_vertex(int* address, int value) {
  atomicMin(address, value);
}
__device__ __forceinline__ void atomic_min_vertex(long* address, long value) {
  atomicMin(reinterpret_cast<long long*>(address), static_cast<long long>(value));
}
__device__ __forceinline__ void atomic_min_vertex(long long* address, long long value) {
  atomicMin(address, value);
}

/// Lowest tight in-neighbour of v among slots first, first + step, ... below end, with the
/// loads of k_unroll slots in flight at once.
template <int k_unroll, class vid_t, class eid_t>
__device__ __forceinline__ vid_t tight_in_neighbour(const adjacency_view_t<vid_t, eid_t>& in,
                                                    const int32_t* weights, const dist_t* dist,
                                                    vid_t v, dist_t dv, long long first,
                                                    long long end, long long step) {
  const vid_t none = no_vertex<vid_t>();
  const long long stride = in.num_weights;
  vid_t best = none;
  for (long long s = first; s < end; s += k_unroll * step) {
    vid_t u[k_unroll];
    dist_t w[k_unroll];
    dist_t du[k_unroll];
#pragma unroll
    for (int k = 0; k < k_unroll; ++k) {
      const long long t = s + k * step;
      u[k] = t < end ? __ldg(in.col + t) : none;
      w[k] = t < end ? static_cast<dist_t>(static_cast<long long>(__ldg(weights + t * stride))) : 0;
    }
#pragma unroll
    for (int k = 0; k < k_unroll; ++k) {
      du[k] = u[k] < best && u[k] != v ? __ldg(dist + u[k]) : k_infinity;
    }
#pragma unroll
    for (int k = 0; k < k_unroll; ++k) {
      if (u[k] < best && u[k] != v && du[k] == dv - w[k]) best = u[k];
    }
  }
  return best;
}

/// Parents of vertices 0..n-1, or (k_listed) of the `*list_length` vertices in `list`, which
/// update() uses to redo only the vertices whose parent can have changed.
template <int G, class vid_t, class eid_t, bool k_listed = false>
__global__ void __launch_bounds__(k_block_threads)
    parents_kernel(const adjacency_view_t<vid_t, eid_t> in, int objective, const dist_t* dist,
                   vid_t source, vid_t* parents, unsigned long long* pieces,
                   unsigned long long capacity, control_t* control, const vid_t* list,
                   const unsigned long long* list_length) {
  constexpr long long groups_per_warp = 32 / G;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned glane = lane % G;
  const unsigned gfirst = lane - glane;
  const long long n = in.num_vertices;
  const long long rows = k_listed ? min_of(static_cast<long long>(*list_length), n) : n;
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const long long num_warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
  const int32_t* weights = in.weights + objective;
  for (long long first = warp * groups_per_warp; first < rows;
       first += num_warps * groups_per_warp) {
    const long long position = first + lane / G;
    long long index = position;  // the vertex
    vid_t best = no_vertex<vid_t>();
    bool write = false;
    long long count = 0;  // pieces of a wide row (group-uniform)
    if (position < rows) {
      if constexpr (k_listed) index = static_cast<long long>(__ldg(list + position));
      const vid_t v = static_cast<vid_t>(index);
      const dist_t dv = __ldg(dist + v);
      write = true;
      if (v != source && dv < k_infinity / 2) {
        const long long b = __ldg(in.row_begin + v);
        const long long e = __ldg(in.row_end + v);
        if (e - b > k_wide_in_degree) {
          count = (e - b + k_piece_slots - 1) / k_piece_slots;  // best stays no_vertex()
        } else {
          // Short rows: two slots in flight is enough, four would mostly run predicated off.
          best = tight_in_neighbour<2>(in, weights, dist, v, dv, b + glane, e, G);
        }
      }
    }
    best = group_min<G>(best);
    if (__any_sync(k_full_mask, count > 0)) {
      unsigned long long slot = 0;
      if (glane == 0 && count > 0) slot = atomicAdd(&control->piece_count, count);
      slot = __shfl_sync(k_full_mask, slot, gfirst);
      for (long long p = glane; p < count; p += G) {
        if (slot + p < capacity) {
          pieces[slot + p] = static_cast<unsigned long long>(index) |
                             (static_cast<unsigned long long>(p) << k_vertex_bits);
        } else {
          atomicExch(&control->status, k_status_overflow);
        }
      }
    }
    // Wide rows keep no_vertex() here: the piece kernel lowers it, the last kernel fixes -1.
    if (write && glane == 0) {
      parents[index] = best == no_vertex<vid_t>() && count == 0 ? vid_t{-1} : best;
    }
  }
}

/// One warp per listed piece of a wide row.
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    piece_parents_kernel(const adjacency_view_t<vid_t, eid_t> in, int objective, const dist_t* dist,
                         vid_t* parents, const unsigned long long* pieces,
                         unsigned long long capacity, const control_t* control) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned long long count = min_of(control->piece_count, capacity);
  const unsigned long long warp =
      (static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned long long num_warps = static_cast<unsigned long long>(gridDim.x) * blockDim.x / 32;
  const int32_t* weights = in.weights + objective;
  for (unsigned long long t = warp; t < count; t += num_warps) {
    const unsigned long long entry = pieces[t];
    const vid_t v = static_cast<vid_t>(entry & k_vertex_mask);
    const long long piece = static_cast<long long>(entry >> k_vertex_bits);
    const long long b = __ldg(in.row_begin + v) + piece * k_piece_slots;
    const long long e = min_of(static_cast<long long>(__ldg(in.row_end + v)), b + k_piece_slots);
    vid_t best = tight_in_neighbour<4>(in, weights, dist, v, __ldg(dist + v), b + lane, e, 32);
    best = group_min<32>(best);
    if (lane == 0 && best != no_vertex<vid_t>()) atomic_min_vertex(parents + v, best);
  }
}

/// Wide rows without a tight in-neighbour (possible only for caller-supplied distances) get -1.
template <class vid_t>
__global__ void __launch_bounds__(k_block_threads)
    finish_parents_kernel(vid_t* parents, const unsigned long long* pieces,
                          unsigned long long capacity, const control_t* control) {
  const unsigned long long count = min_of(control->piece_count, capacity);
  for (unsigned long long t =
           static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       t < count; t += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const unsigned long long entry = pieces[t];
    if ((entry >> k_vertex_bits) == 0) {
      vid_t& parent = parents[entry & k_vertex_mask];
      if (parent == no_vertex<vid_t>()) parent = vid_t{-1};
    }
  }
}

}  // namespace dyng::sssp::detail::cuda
