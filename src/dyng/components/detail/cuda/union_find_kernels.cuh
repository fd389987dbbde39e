// The GPU's union-find for weak components, after Afforest (Sutton, Ben-Nun, Bar, IPDPS 2018) and
// ECL-CC (Jaiganesh, Burtscher, HPDC 2018): every vertex points at a parent no larger than
// itself, a link hooks the larger of two roots under the smaller with one compare-and-swap, and a
// find halves the path it walks. Since a parent is never larger than its child, the root of a
// tree is its smallest vertex: the canonical label, with no relabelling pass.
//
// Afforest's order of work: link every vertex to its first neighbours only (a few rounds of one
// edge each), flatten, find the component most vertices already joined, then read the whole rows
// of the vertices outside it only. An edge (u, w) whose ends both joined that component is
// covered; one with an end outside is read from that end's row, which is why a directed graph
// reads its in-rows there too.
// Included by the components launch files only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/components/detail/cuda/vertex_bits.cuh"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::components::detail::cuda {

/// A read that sees other threads' writes (the parents change while a kernel runs).
template <class T>
__device__ __forceinline__ T load_fresh(const T* at) {
  return *const_cast<const volatile T*>(at);
}

template <class vid_t>
__device__ __forceinline__ bool swap_root(vid_t* parent, vid_t root, vid_t below) {
  if constexpr (sizeof(vid_t) == 4) {
    return atomicCAS(reinterpret_cast<int*>(parent + root), static_cast<int>(root),
                     static_cast<int>(below)) == static_cast<int>(root);
  } else {
    using word_t = unsigned long long;
    return atomicCAS(reinterpret_cast<word_t*>(parent + root), static_cast<word_t>(root),
                     static_cast<word_t>(below)) == static_cast<word_t>(root);
  }
}

/// The root of v's tree, halving the path on the way. A halving store writes an ancestor of v,
/// and links only write roots, so the races between them lose nothing.
template <class vid_t>
__device__ vid_t find_root(vid_t* parent, vid_t v) {
  vid_t up = load_fresh(parent + v);
  while (true) {
    const vid_t above = load_fresh(parent + up);
    if (above == up) return up;
    parent[v] = above;
    v = above;
    up = load_fresh(parent + v);
  }
}

/// The root of v in a forest that no kernel writes any more (after the linking), read through
/// the read-only cache and not shortened: most vertices of a skewed graph end at the same few
/// roots, and find_root()'s uncached loads of one root's entry queue on a single memory slice.
template <class vid_t>
__device__ vid_t settled_root(const vid_t* parent, vid_t v) {
  vid_t up = __ldg(parent + v);
  while (up != v) {
    v = up;
    up = __ldg(parent + v);
  }
  return v;
}

/// Joins the trees of u and w: the larger root is hooked under the smaller one.
template <class vid_t>
__device__ void link(vid_t* parent, vid_t u, vid_t w) {
  vid_t a = find_root(parent, u);
  vid_t b = find_root(parent, w);
  while (a != b) {
    const vid_t high = a > b ? a : b;
    const vid_t low = a > b ? b : a;
    if (swap_root(parent, high, low)) return;
    a = find_root(parent, high);  // someone hooked `high` first: retry from the new roots
    b = find_root(parent, low);
  }
}

/// The vertex of item i: list[i], or i itself without a list.
template <class vid_t>
__device__ __forceinline__ vid_t item_vertex(const vid_t* list, unsigned long long i) {
  return list != nullptr ? list[i] : static_cast<vid_t>(i);
}

template <class vid_t>
__global__ void start_trees(vid_t* parent, long long n) {
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    parent[v] = static_cast<vid_t>(v);
  }
}

/// Afforest's sampling: each item's vertex links to the neighbour in slot `round` of its row.
template <class vid_t, class eid_t>
__global__ void link_sampled(adjacency_view_t<vid_t, eid_t> rows, const vid_t* list,
                             unsigned long long items, int round, vid_t* parent) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < items; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const vid_t v = item_vertex(list, i);
    const eid_t slot = rows.row_begin[v] + round;
    if (slot < rows.row_end[v]) link(parent, v, rows.col[slot]);
  }
}

/// Points every item's vertex straight at its root.
template <class vid_t>
__global__ void flatten(vid_t* parent, const vid_t* list, unsigned long long items) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < items; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const vid_t v = item_vertex(list, i);
    parent[v] = find_root(parent, v);
  }
}

/// The roots of `samples` items spread evenly over the items (after flatten, one read each).
template <class vid_t>
__global__ void sample_roots(vid_t* parent, const vid_t* list, unsigned long long items,
                             int samples, vid_t* roots) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= samples) return;
  // A multiplicative hash spreads the picks over the whole range, not its first block.
  const unsigned long long pick =
      (static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull + 12345ull) % items;
  roots[i] = find_root(parent, item_vertex(list, pick));
}

/// Links every edge of the items' vertices that are not (yet) in the tree rooted at `giant`
/// (-1: none), a group of G lanes per vertex sharing its row; counts the edges read.
template <int G, class vid_t, class eid_t>
__global__ void link_rows_outside(adjacency_view_t<vid_t, eid_t> rows, const vid_t* list,
                                  unsigned long long items, long long giant, vid_t* parent,
                                  unsigned long long* edges_read) {
  const unsigned long long thread =
      blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  const unsigned lane = threadIdx.x % G;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x / G;
  unsigned long long read = 0;
  for (unsigned long long i = thread / G; i < items; i += stride) {
    const vid_t v = item_vertex(list, i);
    if (static_cast<long long>(find_root(parent, v)) == giant) continue;
    const eid_t end = rows.row_end[v];
    for (eid_t slot = rows.row_begin[v] + lane; slot < end; slot += G) {
      link(parent, v, rows.col[slot]);
      ++read;
    }
  }
  ::dyng::cuda::warp_add(read, edges_read);
}

/// Links the two ends of each edge the batch inserted.
template <class vid_t>
__global__ void link_inserted(const edge_change_t<vid_t>* changes, unsigned long long count,
                              vid_t* parent) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const edge_change_t<vid_t> c = changes[i];
    if (c.kind == edge_change_kind_t::inserted) link(parent, c.src, c.dst);
  }
}

/// Where a vertex's tree starts in the weak update's forest (weak_launch.cuh): at the vertex
/// itself where a closed search planted it (bit set in `planted`) or where it is new (label -1),
/// else at its label, the smallest vertex of its old component.
template <class vid_t>
__device__ __forceinline__ vid_t base_of(long long v, int64_t label, const unsigned* planted) {
  const bool own = label < 0 || bit_of(planted, v);
  return static_cast<vid_t>(own ? v : label);
}

/// Links the bases (base_of) of the two ends of each edge the batch inserted, and sets their
/// bits in `linked`.
template <class vid_t>
__global__ void link_inserted_bases(const edge_change_t<vid_t>* changes, unsigned long long count,
                                    const int64_t* labels, const unsigned* planted, vid_t* parent,
                                    unsigned* linked) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const edge_change_t<vid_t> c = changes[i];
    if (c.kind != edge_change_kind_t::inserted) continue;
    const vid_t a = base_of<vid_t>(c.src, labels[c.src], planted);
    const vid_t b = base_of<vid_t>(c.dst, labels[c.dst], planted);
    set_bit(linked, a);
    set_bit(linked, b);
    link(parent, a, b);
  }
}

/// now_of (relabel_kernels.cuh) of the weak update's forest: the root of a vertex's base. Only a
/// planted vertex or a linked base can have a parent other than itself (a tree's members are
/// planted or linked, so are the roots that link() hooks and the paths it shortens): any other
/// base is its own root, known from two bits instead of a walk up `parent`.
template <class vid_t>
struct forest_label_t {
  const vid_t* parent;
  const unsigned* planted;
  const unsigned* linked;
  __device__ int64_t operator()(long long v, int64_t label) const {
    const vid_t base = base_of<vid_t>(v, label, planted);
    if (!bit_of(planted, base) && !bit_of(linked, base)) return static_cast<int64_t>(base);
    return static_cast<int64_t>(settled_root(parent, base));
  }
};

/// The update's starting forest: a vertex of a component a deletion may have cut (`cut` flags by
/// label) or new (label -1) starts a tree of its own and is listed; any other keeps its
/// component, as a child of the label (a root: its own label is itself and not cut).
template <class vid_t>
__global__ void reopen_trees(const int64_t* labels, const unsigned char* cut, long long n,
                             vid_t* parent, vid_t* list, unsigned long long* listed, int* status) {
  ::dyng::cuda::for_each_in_uniform_rounds(n, [&](unsigned long long v, bool active) {
    bool open = false;
    if (active) {
      const int64_t label = labels[v];
      open = label < 0 || cut[label] != 0;
      parent[v] = static_cast<vid_t>(open ? static_cast<int64_t>(v) : label);
    }
    ::dyng::cuda::warp_append(open, static_cast<vid_t>(v), list, listed,
                              static_cast<unsigned long long>(n), status, 1);
  });
}

/// labels[v] = root of v, for every vertex.
template <class vid_t>
__global__ void roots_as_labels(const vid_t* parent, long long n, int64_t* labels) {
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    labels[v] = static_cast<int64_t>(settled_root(parent, static_cast<vid_t>(v)));
  }
}

}  // namespace dyng::components::detail::cuda
