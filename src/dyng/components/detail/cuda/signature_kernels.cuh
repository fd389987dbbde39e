// The GPU's strongly connected components, after ECL-SCC (Alabandi, Burtscher, 2022), with the
// smallest id where ECL-SCC propagates the largest: in a phase, every undecided vertex v starts
// with the signature (v, v); along each live edge u -> w, w's first half takes the smaller of the
// two first halves (the smallest vertex that reaches w) and u's second half the smaller of the
// second halves (the smallest vertex u reaches). Once nothing moves, a vertex whose halves are
// equal lies in the component of that vertex, and that vertex is the component's smallest (it
// reaches v and v reaches it, and every member of the component reaches and is reached by v):
// the canonical label, decided. The others keep their signature for the next phase, in which an
// edge is live only between vertices of equal signatures (a component never spans two), so each
// phase decides at least the smallest vertex of every group and the groups only shrink.
//
// A halving step (w's first half takes its first half's first half, which still reaches w) makes
// long paths converge in logarithmically many rounds. The updates of one round race, but every
// write lowers a value towards the same fixed point, so the labels do not depend on the order.
//
// Also here: the breadth-first reach of a set of vertices, which the strong update needs (the
// vertices on a cycle through an inserted edge are reachable from its head and reach its tail),
// around the hub's component when the hub trees (hub_trees.cuh) say which vertices are in it: a
// cycle through one of them lies in it, so the searches for the others skip them.
// Included by the components launch files only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/components/detail/cuda/hub_tree_kernels.cuh"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::components::detail::cuda {

inline constexpr int64_t k_undecided = -1;

template <class vid_t>
__device__ __forceinline__ bool lower_to(vid_t* at, vid_t value) {
  if (value >= *const_cast<const volatile vid_t*>(at)) return false;
  if constexpr (sizeof(vid_t) == 4) {
    atomicMin(reinterpret_cast<int*>(at), static_cast<int>(value));
  } else {
    atomicMin(reinterpret_cast<long long*>(at), static_cast<long long>(value));
  }
  return true;
}

/// The per-vertex arrays of the signature search.
template <class vid_t>
struct signatures_t {
  int64_t* labels;     ///< k_undecided until a phase decides the vertex.
  vid_t* first;        ///< Smallest vertex that reaches it in this phase.
  vid_t* second;       ///< Smallest vertex it reaches in this phase.
  vid_t* group_first;  ///< The signature of the previous phase (0 before the first).
  vid_t* group_second;
};

/// Decides the hub's component (`giant`, labelled `giant_label`) and the vertices no cycle can
/// pass (no in-edge or no out-edge), and lists the rest.
template <class vid_t, class eid_t>
__global__ void trim_and_list(adjacency_view_t<vid_t, eid_t> out, adjacency_view_t<vid_t, eid_t> in,
                              giant_view_t<vid_t> giant, int64_t giant_label, long long n,
                              signatures_t<vid_t> s, vid_t* list, unsigned long long* listed,
                              int* status) {
  ::dyng::cuda::for_each_in_uniform_rounds(n, [&](unsigned long long v, bool active) {
    bool open = false;
    if (active) {
      const bool in_giant = giant.holds(static_cast<vid_t>(v));
      open = !in_giant && out.row_end[v] > out.row_begin[v] && in.row_end[v] > in.row_begin[v];
      s.labels[v] = open ? k_undecided : in_giant ? giant_label : static_cast<int64_t>(v);
      s.group_first[v] = 0;
      s.group_second[v] = 0;
    }
    ::dyng::cuda::warp_append(open, static_cast<vid_t>(v), list, listed,
                              static_cast<unsigned long long>(n), status, 1);
  });
}

template <class vid_t>
__global__ void start_phase(const vid_t* list, unsigned long long items, signatures_t<vid_t> s) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < items; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const vid_t v = list[i];
    s.first[v] = v;
    s.second[v] = v;
  }
}

/// Rows longer than this go to a block of their own (propagate_heavy): a lane group would walk
/// a hub's row alone while the rest of the grid waits for it.
inline constexpr long long k_heavy_row = 2048;

/// What one vertex u's row offers in a round: lanes `lane`, `lane + step`, ... of it.
template <class vid_t, class eid_t>
__device__ __forceinline__ bool offer_row(const adjacency_view_t<vid_t, eid_t>& out,
                                          const signatures_t<vid_t>& s, vid_t u, unsigned lane,
                                          unsigned step) {
  bool lowered = false;
  if (lane == 0) {  // halving
    lowered |= lower_to(s.first + u, s.first[s.first[u]]);
    lowered |= lower_to(s.second + u, s.second[s.second[u]]);
  }
  const vid_t group_first = s.group_first[u];
  const vid_t group_second = s.group_second[u];
  const eid_t end = out.row_end[u];
  for (eid_t slot = out.row_begin[u] + lane; slot < end; slot += step) {
    const vid_t w = out.col[slot];
    if (s.labels[w] != k_undecided || s.group_first[w] != group_first ||
        s.group_second[w] != group_second) {
      continue;
    }
    lowered |= lower_to(s.first + w, *const_cast<const volatile vid_t*>(s.first + u));
    lowered |= lower_to(s.second + u, *const_cast<const volatile vid_t*>(s.second + w));
  }
  return lowered;
}

/// One round of the phase over the listed vertices' out-rows, a group of G lanes per vertex
/// (rows past k_heavy_row are left to propagate_heavy); sets *moved when a signature went down.
template <int G, class vid_t, class eid_t>
__global__ void propagate(adjacency_view_t<vid_t, eid_t> out, const vid_t* list,
                          unsigned long long items, signatures_t<vid_t> s, int* moved) {
  const unsigned long long thread =
      blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x / G;
  bool lowered = false;
  for (unsigned long long i = thread / G; i < items; i += stride) {
    const vid_t u = list[i];
    if (out.row_end[u] - out.row_begin[u] > k_heavy_row) continue;
    lowered |= offer_row(out, s, u, threadIdx.x % G, G);
  }
  if (lowered) *moved = 1;
}

/// propagate() for the listed heavy rows, a block per row.
template <class vid_t, class eid_t>
__global__ void propagate_heavy(adjacency_view_t<vid_t, eid_t> out, const vid_t* heavy,
                                unsigned long long items, signatures_t<vid_t> s, int* moved) {
  bool lowered = false;
  for (unsigned long long i = blockIdx.x; i < items; i += gridDim.x) {
    lowered |= offer_row(out, s, heavy[i], threadIdx.x, blockDim.x);
  }
  if (lowered) *moved = 1;
}

/// Lists the listed vertices whose rows are past k_heavy_row.
template <class vid_t, class eid_t>
__global__ void list_heavy(adjacency_view_t<vid_t, eid_t> out, const vid_t* list,
                           unsigned long long items, vid_t* heavy, unsigned long long* count) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < items; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const vid_t u = list[i];
    if (out.row_end[u] - out.row_begin[u] > k_heavy_row) heavy[atomicAdd(count, 1ull)] = u;
  }
}

/// Decides the listed vertices whose halves agree; the rest keep their signature as their group
/// and go to the next list.
template <class vid_t>
__global__ void finish_phase(const vid_t* list, unsigned long long items, signatures_t<vid_t> s,
                             vid_t* next, unsigned long long* next_items, int* status) {
  ::dyng::cuda::for_each_in_uniform_rounds(items, [&](unsigned long long i, bool active) {
    bool open = false;
    vid_t v = 0;
    if (active) {
      v = list[i];
      const vid_t a = s.first[v];
      const vid_t b = s.second[v];
      open = a != b;
      if (open) {
        s.group_first[v] = a;
        s.group_second[v] = b;
      } else {
        s.labels[v] = a;
      }
    }
    ::dyng::cuda::warp_append(open, v, next, next_items, items, status, 1);
  });
}

/// One breadth-first level: the unmarked neighbours of the frontier outside the hub's component
/// get `bit` and join `next`.
template <int G, class vid_t, class eid_t>
__global__ void reach_level(adjacency_view_t<vid_t, eid_t> rows, giant_view_t<vid_t> giant,
                            const vid_t* frontier, unsigned long long items, unsigned* marks,
                            unsigned bit, vid_t* next, unsigned long long* next_items,
                            unsigned long long* edges_read) {
  const unsigned long long thread =
      blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  const unsigned lane = threadIdx.x % G;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x / G;
  unsigned long long read = 0;
  for (unsigned long long i = thread / G; i < items; i += stride) {
    const vid_t v = frontier[i];
    const eid_t end = rows.row_end[v];
    for (eid_t slot = rows.row_begin[v] + lane; slot < end; slot += G) {
      const vid_t w = rows.col[slot];
      ++read;
      if ((marks[w] & bit) != 0 || giant.holds(w) || (atomicOr(marks + w, bit) & bit) != 0) {
        continue;
      }
      next[atomicAdd(next_items, 1ull)] = w;
    }
  }
  ::dyng::cuda::warp_add(read, edges_read);
}

/// For each inserted edge u -> w between two components (or touching a new vertex) that may
/// close a cycle outside the hub's component: marks w with bit 1 into `heads` and u with bit 2
/// into `tails`, each vertex listed once per bit. With the trees, w ~> u needs u in the forward
/// tree when w is, and w in the backward tree when u is.
template <class vid_t>
__global__ void mark_crossing_ends(const edge_change_t<vid_t>* changes, unsigned long long count,
                                   const int64_t* labels, giant_view_t<vid_t> giant,
                                   unsigned* marks, vid_t* heads, unsigned long long* head_count,
                                   vid_t* tails, unsigned long long* tail_count) {
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const edge_change_t<vid_t> c = changes[i];
    if (c.kind != edge_change_kind_t::inserted) continue;
    const int64_t a = labels[c.src];
    if (a >= 0 && a == labels[c.dst]) continue;
    if (giant.forward != nullptr) {
      const bool head_forward = giant.forward[c.dst] >= 0, tail_forward = giant.forward[c.src] >= 0;
      const bool head_backward = giant.backward[c.dst] >= 0;
      const bool tail_backward = giant.backward[c.src] >= 0;
      if ((head_forward && head_backward && tail_forward && tail_backward) ||
          (head_forward && !tail_forward) || (tail_backward && !head_backward)) {
        continue;
      }
    }
    if ((atomicOr(marks + c.dst, 1u) & 1u) == 0) heads[atomicAdd(head_count, 1ull)] = c.dst;
    if ((atomicOr(marks + c.src, 2u) & 2u) == 0) tails[atomicAdd(tail_count, 1ull)] = c.src;
  }
}

/// The update's undecided vertices: new ones, those of a component a deletion cut inside
/// (`cut` flags by label), those both reached from an inserted edge's head and reaching its
/// tail (marks 3), and those that left the hub's component (labelled `giant_was`, now outside
/// `giant`). They are listed and undecided; the hub's component takes `giant_label`, the rest
/// keep their labels.
template <class vid_t>
__global__ void open_affected(const int64_t* labels, const unsigned char* cut,
                              const unsigned* marks, giant_view_t<vid_t> giant, int64_t giant_was,
                              int64_t giant_label, long long n, signatures_t<vid_t> s, vid_t* list,
                              unsigned long long* listed, int* status) {
  ::dyng::cuda::for_each_in_uniform_rounds(n, [&](unsigned long long v, bool active) {
    bool open = false;
    if (active) {
      const int64_t label = labels[v];
      const bool in_giant = giant.holds(static_cast<vid_t>(v));
      open = !in_giant && (label < 0 || label == giant_was || cut[label] != 0 ||
                           (marks != nullptr && marks[v] == 3u));
      s.labels[v] = open ? k_undecided : in_giant ? giant_label : label;
      s.group_first[v] = 0;
      s.group_second[v] = 0;
    }
    ::dyng::cuda::warp_append(open, static_cast<vid_t>(v), list, listed,
                              static_cast<unsigned long long>(n), status, 1);
  });
}

}  // namespace dyng::components::detail::cuda
