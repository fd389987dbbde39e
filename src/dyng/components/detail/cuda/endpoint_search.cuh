// The weak repair's cheap test of a deletion, a warp per end of each deleted edge inside a
// component: a breadth-first search from the end (along out- and in-rows) in the graph after
// the batch, bounded by k_search_vertices vertices and k_search_slots slots read, that ends as
//   - reached: it met the component's old label (its smallest vertex), so the end is still
//     joined to it;
//   - closed: it ran out of vertices first, so what it visited is a whole component of the new
//     graph (written out with its smallest vertex, the new label);
//   - open: past its bounds; the component is then re-linked whole (reopen_trees).
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
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::components::detail::cuda {

/// Vertices a search may visit, and slots it may read, before it gives up.
inline constexpr int k_search_vertices = 128;
inline constexpr int k_search_slots = 4096;
/// Warps per block of the search kernel (each with its visited list in shared memory).
inline constexpr int k_search_warps = 8;

enum search_outcome_t : int { k_reached = 0, k_closed = 1, k_open = 2 };

/// What the search from one end found; `visited` (k_search_vertices per end) holds a closed
/// search's vertices.
template <class vid_t>
struct end_search_t {
  int outcome;
  int count;       ///< Vertices visited (of a closed search: the component's size).
  vid_t smallest;  ///< A closed search's smallest vertex.
};

/// True when lane-held `w` is in the first `count` entries of `seen`.
template <class vid_t>
__device__ __forceinline__ bool seen_before(const vid_t* seen, int count, vid_t w) {
  for (int i = 0; i < count; ++i) {
    if (seen[i] == w) return true;
  }
  return false;
}

/// Adds each lane's `w` (when `fresh`) to `seen`, once per distinct value; returns the new
/// count, or -1 when it would pass k_search_vertices. All 32 lanes call it.
template <class vid_t>
__device__ int add_seen(vid_t* seen, int count, vid_t w, bool fresh) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned same =
      __match_any_sync(::dyng::cuda::k_full_mask, fresh ? static_cast<long long>(w) : -1ll);
  const bool first = fresh && (same & ::dyng::cuda::lanes_below(lane)) == 0;
  const unsigned adders = __ballot_sync(::dyng::cuda::k_full_mask, first);
  const int total = count + __popc(adders);
  if (total > k_search_vertices) return -1;
  if (first) seen[count + __popc(adders & ::dyng::cuda::lanes_below(lane))] = w;
  __syncwarp();
  return total;
}

/// Reads one row of `x` in the search; returns k_reached, k_open (bounds) or -1 (go on).
template <class vid_t, class eid_t>
__device__ int scan_row(const adjacency_view_t<vid_t, eid_t>& rows, vid_t x, vid_t target,
                        vid_t* seen, int& count, int& slots) {
  const unsigned lane = threadIdx.x & 31u;
  const eid_t begin = rows.row_begin[x], end = rows.row_end[x];
  for (eid_t base = begin; base < end; base += 32) {
    slots += 32;
    if (slots > k_search_slots) return k_open;
    const eid_t slot = base + static_cast<eid_t>(lane);
    const bool valid = slot < end;
    const vid_t w = valid ? rows.col[slot] : x;
    if (__any_sync(::dyng::cuda::k_full_mask, valid && w == target)) return k_reached;
    const bool fresh = valid && !seen_before(seen, count, w);
    count = add_seen(seen, count, w, fresh);
    if (count < 0) return k_open;
  }
  return -1;
}

/// One warp per end: ends[i] searches towards targets[i]; results and closed sets go to `out`
/// and `visited` (k_search_vertices per end).
template <class vid_t, class eid_t>
__global__ void search_ends(adjacency_view_t<vid_t, eid_t> out, adjacency_view_t<vid_t, eid_t> in,
                            bool directed, const vid_t* ends, const vid_t* targets,
                            unsigned long long count, end_search_t<vid_t>* results,
                            vid_t* visited) {
  __shared__ vid_t seen_of[k_search_warps][k_search_vertices];
  const unsigned warp = threadIdx.x / 32;
  const unsigned long long i = blockIdx.x * static_cast<unsigned long long>(k_search_warps) + warp;
  if (i >= count) return;
  vid_t* seen = seen_of[warp];
  const vid_t start = ends[i], target = targets[i];
  if ((threadIdx.x & 31u) == 0) seen[0] = start;
  __syncwarp();
  int seen_count = 1, slots = 0, outcome = start == target ? k_reached : -1;
  for (int head = 0; outcome < 0 && head < seen_count; ++head) {
    const vid_t x = seen[head];
    outcome = scan_row(out, x, target, seen, seen_count, slots);
    if (outcome < 0 && directed) outcome = scan_row(in, x, target, seen, seen_count, slots);
  }
  if (outcome < 0) outcome = k_closed;
  vid_t smallest = start;
  if (outcome == k_closed) {
    for (int k = threadIdx.x & 31u; k < seen_count; k += 32) {
      visited[i * k_search_vertices + k] = seen[k];
      smallest = seen[k] < smallest ? seen[k] : smallest;
    }
    smallest = ::dyng::cuda::group_min<32>(smallest);
  }
  if ((threadIdx.x & 31u) == 0) results[i] = end_search_t<vid_t>{outcome, seen_count, smallest};
}

/// The ends of the deleted edges that run inside a component (both share a label), each with
/// the label as its search's target; counts them in *listed.
template <class vid_t>
__global__ void list_deleted_ends(const edge_change_t<vid_t>* changes, unsigned long long count,
                                  const int64_t* labels, vid_t* ends, vid_t* targets,
                                  unsigned long long* listed) {
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) +
                              threadIdx.x;
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
/// or closed on a set that holds the old label.
template <class vid_t>
__global__ void cut_where_undecided(const end_search_t<vid_t>* results, const vid_t* targets,
                                    unsigned long long count, unsigned char* cut) {
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) +
                              threadIdx.x;
       i < count; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const end_search_t<vid_t> r = results[i];
    if (r.outcome == k_open || (r.outcome == k_closed && r.smallest <= targets[i])) {
      cut[targets[i]] = 1;
    }
  }
}

/// Gives the vertices of each closed search (of a component not re-linked whole) their new
/// component: the search's smallest vertex, as their parent in the repair's forest.
template <class vid_t>
__global__ void plant_closed(const end_search_t<vid_t>* results, const vid_t* targets,
                             const vid_t* visited, unsigned long long count,
                             const unsigned char* cut, vid_t* parent) {
  const unsigned warp = threadIdx.x / 32;
  const unsigned long long i = blockIdx.x * static_cast<unsigned long long>(k_search_warps) + warp;
  if (i >= count) return;
  const end_search_t<vid_t> r = results[i];
  if (r.outcome != k_closed || cut[targets[i]] != 0) return;
  for (int k = threadIdx.x & 31u; k < r.count; k += 32) {
    parent[visited[i * k_search_vertices + k]] = r.smallest;
  }
}

}  // namespace dyng::components::detail::cuda
