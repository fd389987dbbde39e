// Kernels of the hub trees (hub_trees.cuh): two breadth-first trees of one hub vertex, kept
// between strong updates, one along the edges (what the hub reaches) and one against them (what
// reaches the hub). A vertex's entry is its parent (-1 outside the tree, the hub its own parent)
// and its depth. A claim on a vertex is the key (depth << 40 | parent): the smallest key wins,
// whatever order the claims come in, so a tree is the same for the same graph and batch.
// Included by the components launch files only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::components::detail::cuda {

/// No claim yet.
inline constexpr unsigned long long k_no_claim = ~0ull;
/// Parents are below 2^40, depths below 2^24 (deeper trees report k_tree_too_deep).
inline constexpr int k_parent_bits = 40;
inline constexpr int32_t k_max_tree_depth = (1 << 23) - 1;
inline constexpr int k_tree_too_deep = 2;

/// One tree: parent and depth per vertex.
template <class vid_t>
struct tree_view_t {
  vid_t* parent;
  int32_t* depth;
};

/// Both trees, read-only, for the kernels that ask whether a vertex is in the hub's component
/// (in both trees); null parents: no trees, nothing is.
template <class vid_t>
struct giant_view_t {
  const vid_t* forward = nullptr;
  const vid_t* backward = nullptr;
  __device__ __forceinline__ bool holds(vid_t v) const {
    return forward != nullptr && forward[v] >= 0 && backward[v] >= 0;
  }
};

template <class vid_t, class eid_t>
__device__ __forceinline__ unsigned long long total_degree(
    const adjacency_view_t<vid_t, eid_t>& out, const adjacency_view_t<vid_t, eid_t>& in,
    long long v) {
  return static_cast<unsigned long long>(out.row_end[v] - out.row_begin[v] + in.row_end[v] -
                                         in.row_begin[v]);
}

__device__ __forceinline__ unsigned long long claim_key(int32_t parent_depth, long long parent) {
  return (static_cast<unsigned long long>(parent_depth + 1) << k_parent_bits) |
         static_cast<unsigned long long>(parent);
}

/// *best = the largest total degree (out + in) of the n vertices.
template <class vid_t, class eid_t>
__global__ void largest_degree(adjacency_view_t<vid_t, eid_t> out,
                               adjacency_view_t<vid_t, eid_t> in, long long n,
                               unsigned long long* best) {
  unsigned long long mine = 0;
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    mine = ::dyng::cuda::max_of(mine, total_degree(out, in, v));
  }
  if (mine > 0) atomicMax(best, mine);
}

/// *first = the smallest vertex of total degree `degree`.
template <class vid_t, class eid_t>
__global__ void first_of_degree(adjacency_view_t<vid_t, eid_t> out,
                                adjacency_view_t<vid_t, eid_t> in, long long n,
                                unsigned long long degree, unsigned long long* first) {
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (total_degree(out, in, v) == degree) {
      atomicMin(first, static_cast<unsigned long long>(v));
      return;
    }
  }
}

/// For each deleted edge that was a tree edge (in the tree's direction: `reversed` swaps the
/// ends), flags its lower end: the root of a subtree that lost its path.
template <class vid_t>
__global__ void flag_lost_edges(const edge_change_t<vid_t>* changes, unsigned long long count,
                                bool reversed, const vid_t* parent, unsigned char* cut, int* any) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const edge_change_t<vid_t> c = changes[i];
    if (c.kind != edge_change_kind_t::deleted) continue;
    const vid_t upper = reversed ? c.dst : c.src;
    const vid_t lower = reversed ? c.src : c.dst;
    if (parent[lower] == upper && lower != upper) {
      cut[lower] = 1;
      *any = 1;
    }
  }
}

/// below[v] = 1 when v or one of its ancestors is cut: a walk up v's parents, depth[v] steps (at
/// most `max_steps`; a walk that would take more marks v too, which only regrows it). One pass:
/// the trees are shallow, and a walk per vertex needs no round trips to the host. With *any
/// zero (no tree edge was deleted) nothing is cut and `below`, zeroed by the caller, stays so:
/// the flag is read here rather than by the host, which would wait for it.
template <class vid_t>
__global__ void mark_cut_subtrees(const unsigned char* cut, tree_view_t<vid_t> tree, long long n,
                                  int max_steps, const int* any, unsigned char* below) {
  if (*any == 0) return;
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    bool found = cut[v] != 0;
    if (!found && tree.parent[v] >= 0) {
      const int steps = tree.depth[v];
      found = steps > max_steps;
      vid_t u = tree.parent[v];
      for (int step = 1; step < steps && !found && u >= 0; ++step) {
        found = cut[u] != 0;
        u = tree.parent[u];
      }
    }
    below[v] = found ? 1 : 0;
  }
}

/// Takes the cut vertices of the tree out of it (parent -1) and lists them; nothing to do when
/// *any is zero.
template <class vid_t>
__global__ void take_out_cut(const unsigned char* cut, long long n, const int* any, vid_t* parent,
                             vid_t* list, unsigned long long* listed, int* status) {
  if (*any == 0) return;
  ::dyng::cuda::for_each_in_uniform_rounds(n, [&](unsigned long long v, bool active) {
    const bool out = active && cut[v] != 0 && parent[v] >= 0;
    if (out) parent[v] = -1;
    ::dyng::cuda::warp_append(out, static_cast<vid_t>(v), list, listed,
                              static_cast<unsigned long long>(n), status, 1);
  });
}

/// Each of the *listed vertices (a group of G lanes) claims the smallest key among its
/// neighbours in `against` that are still in the tree. The count is read on the device, so no
/// wait comes before the launch.
template <int G, class vid_t, class eid_t>
__global__ void claim_from_kept(adjacency_view_t<vid_t, eid_t> against, const vid_t* list,
                                const unsigned long long* listed, tree_view_t<vid_t> tree,
                                unsigned long long* keys, unsigned long long* edges_read) {
  const unsigned long long items = *listed;
  const unsigned long long thread =
      blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  const unsigned lane = threadIdx.x % G;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x / G;
  const unsigned long long rounds = (items + stride - 1) / stride;
  unsigned long long read = 0;
  for (unsigned long long r = 0; r < rounds; ++r) {
    const unsigned long long i = thread / G + r * stride;
    unsigned long long best = k_no_claim;
    vid_t y = 0;
    if (i < items) {
      y = list[i];
      for (eid_t slot = against.row_begin[y] + lane; slot < against.row_end[y]; slot += G) {
        const vid_t z = against.col[slot];
        ++read;
        if (tree.parent[z] >= 0) {
          best = ::dyng::cuda::min_of(best, claim_key(tree.depth[z], static_cast<long long>(z)));
        }
      }
    }
    best = ::dyng::cuda::group_min<G>(best);
    if (i < items && lane == 0 && best != k_no_claim) atomicMin(keys + y, best);
  }
  ::dyng::cuda::warp_add(read, edges_read);
}

/// For each inserted edge from a tree vertex to one outside it (in the tree's direction), the
/// lower end claims the upper one; the first claim on a vertex that is not cut lists it (the
/// cut ones are listed already).
template <class vid_t>
__global__ void claim_from_insertions(const edge_change_t<vid_t>* changes, unsigned long long count,
                                      bool reversed, tree_view_t<vid_t> tree,
                                      const unsigned char* cut, unsigned long long* keys,
                                      vid_t* list, unsigned long long* listed) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const edge_change_t<vid_t> c = changes[i];
    if (c.kind != edge_change_kind_t::inserted) continue;
    const vid_t upper = reversed ? c.dst : c.src;
    const vid_t lower = reversed ? c.src : c.dst;
    if (tree.parent[upper] < 0 || tree.parent[lower] >= 0) continue;
    const auto key = claim_key(tree.depth[upper], static_cast<long long>(upper));
    const unsigned long long before = atomicMin(keys + lower, key);
    if (before == k_no_claim && cut[lower] == 0) list[atomicAdd(listed, 1ull)] = lower;
  }
}

/// The *listed vertices of `list` with a claim join the tree (parent and depth from the key) and
/// the frontier `next`. The count is read on the device, so that a level can follow the one
/// before it without a wait.
template <class vid_t>
__global__ void settle_claims(const vid_t* list, const unsigned long long* listed,
                              const unsigned long long* keys, tree_view_t<vid_t> tree, vid_t* next,
                              unsigned long long* next_items, int* status) {
  const unsigned long long items = *listed;
  ::dyng::cuda::for_each_in_uniform_rounds(items, [&](unsigned long long i, bool active) {
    bool joined = false;
    vid_t v = 0;
    if (active) {
      v = list[i];
      const unsigned long long key = keys[v];
      if (key != k_no_claim && tree.parent[v] < 0) {
        const auto depth = static_cast<int32_t>(key >> k_parent_bits);
        if (depth > k_max_tree_depth) *status = k_tree_too_deep;
        tree.parent[v] = static_cast<vid_t>(key & ((1ull << k_parent_bits) - 1));
        tree.depth[v] = depth;
        joined = true;
      }
    }
    ::dyng::cuda::warp_append(joined, v, next, next_items, items, status, 1);
  });
}

/// Rows longer than this are claimed from by claim_heavy(), in slices of this many slots, many
/// blocks a row: a hub's row, walked by one lane group, would keep a level waiting for it.
inline constexpr long long k_tree_heavy_row = 4096;

/// The claims of frontier vertex x (key `key`) on the slots [begin, end) of its row, `step`
/// lanes apart; returns the slots read.
template <class vid_t, class eid_t>
__device__ __forceinline__ unsigned long long claim_slots(
    const adjacency_view_t<vid_t, eid_t>& expand, eid_t begin, eid_t end, unsigned step,
    unsigned long long key, tree_view_t<vid_t> tree, unsigned long long* keys, vid_t* next,
    unsigned long long* next_items) {
  unsigned long long read = 0;
  for (eid_t slot = begin; slot < end; slot += step) {
    const vid_t w = expand.col[slot];
    ++read;
    if (tree.parent[w] >= 0 || keys[w] <= key) continue;
    if (atomicMin(keys + w, key) == k_no_claim) next[atomicAdd(next_items, 1ull)] = w;
  }
  return read;
}

/// One level of growth: the neighbours in `expand` of the *frontier_items frontier vertices
/// (a count read on the device, so that the level follows settle_claims() without a wait)
/// outside the tree claim the frontier vertex; the first claim on each lists it into `next`.
/// Rows past k_tree_heavy_row are listed into `heavy` for claim_heavy() instead.
template <int G, class vid_t, class eid_t>
__global__ void claim_level(adjacency_view_t<vid_t, eid_t> expand, const vid_t* frontier,
                            const unsigned long long* frontier_items, tree_view_t<vid_t> tree,
                            unsigned long long* keys, vid_t* next, unsigned long long* next_items,
                            unsigned long long* edges_read, vid_t* heavy,
                            unsigned long long* heavy_items) {
  const unsigned long long items = *frontier_items;
  const unsigned long long thread =
      blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  const unsigned lane = threadIdx.x % G;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x / G;
  unsigned long long read = 0;
  for (unsigned long long i = thread / G; i < items; i += stride) {
    const vid_t x = frontier[i];
    const eid_t begin = expand.row_begin[x], end = expand.row_end[x];
    if (end - begin > k_tree_heavy_row) {
      if (lane == 0) heavy[atomicAdd(heavy_items, 1ull)] = x;
      continue;
    }
    const auto key = claim_key(tree.depth[x], static_cast<long long>(x));
    read += claim_slots<vid_t, eid_t>(expand, begin + static_cast<eid_t>(lane), end, G, key, tree,
                                      keys, next, next_items);
  }
  ::dyng::cuda::warp_add(read, edges_read);
}

/// claim_level() for the listed heavy rows: block (x, y) takes slices x, x + gridDim.x, ... of
/// rows y, y + gridDim.y, ... (the count is read on the device, so no wait comes before it).
template <class vid_t, class eid_t>
__global__ void claim_heavy(adjacency_view_t<vid_t, eid_t> expand, const vid_t* heavy,
                            const unsigned long long* heavy_items, tree_view_t<vid_t> tree,
                            unsigned long long* keys, vid_t* next, unsigned long long* next_items,
                            unsigned long long* edges_read) {
  const unsigned long long rows = *heavy_items;
  unsigned long long read = 0;
  for (unsigned long long r = blockIdx.y; r < rows; r += gridDim.y) {
    const vid_t x = heavy[r];
    const auto key = claim_key(tree.depth[x], static_cast<long long>(x));
    const eid_t row_end = expand.row_end[x];
    for (eid_t first = expand.row_begin[x] + static_cast<eid_t>(blockIdx.x) * k_tree_heavy_row;
         first < row_end; first += static_cast<eid_t>(gridDim.x) * k_tree_heavy_row) {
      const eid_t last = first + k_tree_heavy_row < row_end ? first + k_tree_heavy_row : row_end;
      read += claim_slots<vid_t, eid_t>(expand, first + static_cast<eid_t>(threadIdx.x), last,
                                        blockDim.x, key, tree, keys, next, next_items);
    }
  }
  ::dyng::cuda::warp_add(read, edges_read);
}

/// *smallest = the smallest vertex in both trees (the label of the hub's component).
template <class vid_t>
__global__ void smallest_in_both(giant_view_t<vid_t> giant, long long n,
                                 unsigned long long* smallest) {
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (giant.holds(static_cast<vid_t>(v))) {
      atomicMin(smallest, static_cast<unsigned long long>(v));
      return;
    }
  }
}

}  // namespace dyng::components::detail::cuda
