// The weak repair's cheap test of a deletion, a warp per end of each deleted edge inside a
// component: a breadth-first search from the end (along out- and in-rows) in the graph after
// the batch, bounded by k_search_vertices vertices and k_search_slots slots read, that ends as
//   - reached: it met the component's old label (its smallest vertex), so the end is still
//     joined to it;
//   - closed: it ran out of vertices first, so what it visited is a whole component of the new
//     graph (written out with its smallest vertex, the new label);
//   - open: past its bounds; the component is then re-linked whole (reopen_trees).
// Each vertex a search queues is probed at once, a lane a vertex: the first slots of its out- and
// in-row. Sorted rows list the label first wherever they hold it (no vertex of the old
// component is smaller), so most searches reach it one vertex ahead of their queue, within the
// first rows they read; and an end that is a hub, whose rows fill the queue before any of its
// neighbours is read, still reaches the label through one of them.
// Why that suffices when no end is open: a vertex x of the old component reaches its old label
// along an old path; up to the first deleted edge (a, b) on it, x is joined to a in the new
// graph, and a's search either reached the label (so x did) or closed on a's whole component
// (which then holds x). A closed search that holds the old label leaves the rest without it, so
// that component is re-linked whole too.
// Included by weak_launch.cuh only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/components/detail/cuda/vertex_bits.cuh"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::components::detail::cuda {

/// Vertices a search may visit, and slots it may read, before it gives up. Chosen
/// with a host model of these searches (bench/gpu/components_search_model.py; bench/README.md
/// has what it found on R-MAT 20 and 22 with 1,000 mixed changes).
inline constexpr int k_search_vertices = 2048;
inline constexpr int k_search_slots = 4096;
/// Slots of a warp's hash set of visited vertices (in shared memory): twice the vertices, so a
/// probe ends soon.
inline constexpr int k_search_table = 2 * k_search_vertices;
/// Warps per block of the search kernel (each with its hash set in shared memory: 32 KiB for
/// 64-bit ids, within the 48 KiB a block may have without opting in).
inline constexpr int k_search_warps = 1;
/// Past this many ends a batch's components are re-linked without searches: each search keeps
/// k_search_vertices ids in device memory, and a batch this large touches most components.
inline constexpr unsigned long long k_max_searched_ends = 1ull << 14;

enum search_outcome_t : int { k_reached = 0, k_closed = 1, k_open = 2 };

/// What the search from one end found; `visited` (k_search_vertices per end) holds the
/// vertices a search visited, in order.
template <class vid_t>
struct end_search_t {
  int outcome;
  int count;       ///< Vertices visited (of a closed search: the component's size).
  vid_t smallest;  ///< A closed search's smallest vertex.
};

template <class vid_t>
inline constexpr vid_t k_no_vertex = static_cast<vid_t>(-1);

template <class vid_t>
__device__ __forceinline__ vid_t swap_if(vid_t* at, vid_t expected, vid_t desired) {
  if constexpr (sizeof(vid_t) == 4) {
    return static_cast<vid_t>(atomicCAS(reinterpret_cast<int*>(at), static_cast<int>(expected),
                                        static_cast<int>(desired)));
  } else {
    using word_t = unsigned long long;
    return static_cast<vid_t>(atomicCAS(reinterpret_cast<word_t*>(at),
                                        static_cast<word_t>(expected),
                                        static_cast<word_t>(desired)));
  }
}

/// Adds `w` to the warp's hash set; true for the one lane that added it (a value already there,
/// or added by another lane of the same chunk, gives false).
template <class vid_t>
__device__ bool add_new(vid_t* table, vid_t w) {
  // A multiplicative hash: vertex ids of one row are often close together.
  unsigned at =
      static_cast<unsigned>((static_cast<unsigned long long>(w) * 0x9E3779B97F4A7C15ull) >> 40) &
      (k_search_table - 1);
  while (true) {
    const vid_t held = swap_if(table + at, k_no_vertex<vid_t>, w);
    if (held == k_no_vertex<vid_t>) return true;
    if (held == w) return false;
    at = (at + 1) & (k_search_table - 1);
  }
}

/// Whether the first slot of x's out-row (or, `directed`, of its in-row) is `target`.
template <class vid_t, class eid_t>
__device__ bool lists_first(const adjacency_view_t<vid_t, eid_t>& out,
                            const adjacency_view_t<vid_t, eid_t>& in, bool directed, vid_t x,
                            vid_t target) {
  const auto out_begin = out.row_begin[x], out_end = out.row_end[x];
  if (out_begin < out_end && out.col[out_begin] == target) return true;
  if (!directed) return false;
  const auto in_begin = in.row_begin[x], in_end = in.row_end[x];
  return in_begin < in_end && in.col[in_begin] == target;
}

/// Reads the row slots [begin, end) of `col` in the search, 32 at a time, appending new
/// vertices to `seen` (global memory, this end's slice of `visited`) and probing each
/// (lists_first()); returns k_reached, k_open (bounds) or -1 (go on).
template <class vid_t, class eid_t>
__device__ int scan_row(const adjacency_view_t<vid_t, eid_t>& out,
                        const adjacency_view_t<vid_t, eid_t>& in, bool directed, const vid_t* col,
                        long long begin, long long end, vid_t target, vid_t* table, vid_t* seen,
                        int& count, int& slots) {
  const unsigned lane = threadIdx.x & 31u;
  for (long long base = begin; base < end; base += 32) {
    slots += 32;
    if (slots > k_search_slots) return k_open;
    const long long slot = base + static_cast<long long>(lane);
    const bool valid = slot < end;
    const vid_t w = valid ? col[slot] : target;
    if (__any_sync(::dyng::cuda::k_full_mask, valid && w == target)) return k_reached;
    const bool fresh = valid && add_new(table, w);
    if (__any_sync(::dyng::cuda::k_full_mask, fresh && lists_first(out, in, directed, w, target))) {
      return k_reached;
    }
    const unsigned adders = __ballot_sync(::dyng::cuda::k_full_mask, fresh);
    const int total = count + __popc(adders);
    if (total > k_search_vertices) return k_open;
    if (fresh) seen[count + __popc(adders & ::dyng::cuda::lanes_below(lane))] = w;
    count = total;
    __syncwarp();
  }
  return -1;
}

/// One warp per end: ends[i] searches towards targets[i]; results go to `results`, the visited
/// vertices to `visited` (k_search_vertices per end).
template <class vid_t, class eid_t>
__global__ void search_ends(adjacency_view_t<vid_t, eid_t> out, adjacency_view_t<vid_t, eid_t> in,
                            bool directed, const vid_t* ends, const vid_t* targets,
                            unsigned long long count, end_search_t<vid_t>* results,
                            vid_t* visited) {
  __shared__ vid_t tables[k_search_warps][k_search_table];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const unsigned long long i = blockIdx.x * static_cast<unsigned long long>(k_search_warps) + warp;
  if (i >= count) return;
  vid_t* table = tables[warp];
  vid_t* seen = visited + i * k_search_vertices;
  for (int k = static_cast<int>(lane); k < k_search_table; k += 32) table[k] = k_no_vertex<vid_t>;
  const vid_t start = ends[i], target = targets[i];
  if (lane == 0) seen[0] = start;
  __syncwarp();
  if (lane == 0) add_new(table, start);
  __syncwarp();
  int seen_count = 1, slots = 0, outcome = start == target ? k_reached : -1;
  // Vertex by vertex in queue order, out-row then in-row; the row bounds of the next 32 queued
  // vertices are loaded together (a lane each), so a vertex waits on its slots only.
  for (int head = 0; outcome < 0 && head < seen_count;) {
    const int take = min(32, seen_count - head);
    long long bounds[4] = {0, 0, 0, 0};  // out begin, out end, in begin, in end
    if (static_cast<int>(lane) < take) {
      const vid_t x = seen[head + static_cast<int>(lane)];
      bounds[0] = static_cast<long long>(out.row_begin[x]);
      bounds[1] = static_cast<long long>(out.row_end[x]);
      if (directed) {
        bounds[2] = static_cast<long long>(in.row_begin[x]);
        bounds[3] = static_cast<long long>(in.row_end[x]);
      }
    }
    for (int k = 0; outcome < 0 && k < take; ++k) {
      long long at[4];
      for (int j = 0; j < 4; ++j) at[j] = __shfl_sync(::dyng::cuda::k_full_mask, bounds[j], k);
      outcome = scan_row(out, in, directed, out.col, at[0], at[1], target, table, seen, seen_count,
                         slots);
      if (outcome < 0 && directed) {
        outcome = scan_row(out, in, directed, in.col, at[2], at[3], target, table, seen, seen_count,
                           slots);
      }
    }
    head += take;
  }
  if (outcome < 0) outcome = k_closed;
  vid_t smallest = start;
  if (outcome == k_closed) {
    for (int k = static_cast<int>(lane); k < seen_count; k += 32) {
      smallest = seen[k] < smallest ? seen[k] : smallest;
    }
    smallest = ::dyng::cuda::group_min<32>(smallest);
  }
  if (lane == 0) results[i] = end_search_t<vid_t>{outcome, seen_count, smallest};
}

/// The ends of the deleted edges that run inside a component (both share a label), each with
/// the label as its search's target; counts them in *listed.
template <class vid_t>
__global__ void list_deleted_ends(const edge_change_t<vid_t>* changes, unsigned long long count,
                                  const int64_t* labels, vid_t* ends, vid_t* targets,
                                  unsigned long long* listed) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const edge_change_t<vid_t> c = changes[i];
    if (c.kind != edge_change_kind_t::deleted) continue;
    const int64_t label = labels[c.src];
    if (label < 0 || label != labels[c.dst]) continue;
    const unsigned long long at = atomicAdd(listed, 2ull);
    ends[at] = c.src, ends[at + 1] = c.dst;
    targets[at] = targets[at + 1] = static_cast<vid_t>(label);
  }
}

/// A component is re-linked whole (cut[label] = 1) when one of its ends' searches stayed open
/// or closed on a set that holds the old label; *any_cut counts the ends that cut.
template <class vid_t>
__global__ void cut_where_undecided(const end_search_t<vid_t>* results, const vid_t* targets,
                                    unsigned long long count, unsigned char* cut,
                                    unsigned long long* any_cut) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const end_search_t<vid_t> r = results[i];
    if (r.outcome == k_open || (r.outcome == k_closed && r.smallest <= targets[i])) {
      cut[targets[i]] = 1;
      atomicAdd(any_cut, 1ull);
    }
  }
}

/// Gives the vertices of each closed search (of a component not re-linked whole) their new
/// component: the search's smallest vertex, as their parent in the repair's forest; with
/// `planted`, also sets their bits there.
template <class vid_t>
__global__ void plant_closed(const end_search_t<vid_t>* results, const vid_t* targets,
                             const vid_t* visited, unsigned long long count,
                             const unsigned char* cut, vid_t* parent, unsigned* planted) {
  const unsigned warp = threadIdx.x / 32;
  const unsigned long long i = blockIdx.x * static_cast<unsigned long long>(k_search_warps) + warp;
  if (i >= count) return;
  const end_search_t<vid_t> r = results[i];
  if (r.outcome != k_closed || cut[targets[i]] != 0) return;
  for (int k = threadIdx.x & 31u; k < r.count; k += 32) {
    const vid_t x = visited[i * k_search_vertices + k];
    parent[x] = r.smallest;
    if (planted != nullptr) set_bit(planted, x);
  }
}

}  // namespace dyng::components::detail::cuda
