// Weakly connected components of a whole graph by union-find (compute() and the recompute
// fallback). Every out-edge joins the trees of its endpoints, and a root is always linked under
// a smaller root, so parent[v] <= v holds throughout and the root of a tree is the smallest
// vertex id in it: the canonical label, whatever order the edges are joined in.
//
// The OpenMP kernel is the same union-find with the parent array read and written through
// atomic references (Shiloach-Vishkin style hooking, as in Sutton et al., "Optimizing Parallel
// Graph Connectivity Computation via Subgraph Sampling", IPDPS 2018, without the sampling): a
// link is a compare-and-swap of a root's parent from itself to the smaller root, and path
// halving writes only smaller values, so there is no data race and the labels are the same for
// any team size. Both count the edges they examine (the same count), and poll the caller's stop
// flag every k_cancel_poll_mask + 1 vertices (every 64 vertices of a thread's share).
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/components/components.hpp"
#include "dyng/graph/adjacency_view.hpp"

namespace dyng::components::detail {

inline constexpr const char* k_union_find_stopped = "components union-find";

/// The root of v, halving the path on the way (sequential).
inline int64_t find_root(std::vector<int64_t>& parent, int64_t v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]];
    v = parent[v];
  }
  return v;
}

/// The root of v while other threads link and halve (every access atomic).
inline int64_t find_root_shared(int64_t* parent, int64_t v) {
  while (true) {
    std::atomic_ref<int64_t> cell(parent[v]);
    int64_t up = cell.load(std::memory_order_relaxed);
    if (up == v) return v;
    const int64_t above = std::atomic_ref<int64_t>(parent[up]).load(std::memory_order_relaxed);
    if (above != up) cell.compare_exchange_weak(up, above, std::memory_order_relaxed);
    v = above;
  }
}

/// Joins the trees of u and v: the larger root is hooked under the smaller one.
inline void unite_shared(int64_t* parent, int64_t u, int64_t v) {
  while (true) {
    u = find_root_shared(parent, u);
    v = find_root_shared(parent, v);
    if (u == v) return;
    if (u < v) std::swap(u, v);
    int64_t expected = u;
    if (std::atomic_ref<int64_t>(parent[u]).compare_exchange_strong(expected, v)) return;
  }
}

/// Labels, sizes and count from the finished forest (each root is its tree's smallest id).
template <class vid_t>
void labels_from_roots(std::vector<int64_t>& parent, state_t<vid_t>& state) {
  const size_t n = parent.size();
  state.labels.assign(n, 0);
  state.sizes.assign(n, 0);
  state.count = 0;
  for (size_t v = 0; v < n; ++v) {
    const int64_t root = find_root(parent, static_cast<int64_t>(v));
    state.labels[v] = root;
    state.count += state.sizes[static_cast<size_t>(root)]++ == 0 ? 1 : 0;
  }
}

/// Weak components with `threads` threads (1: the sequential kernel); returns edges examined.
template <class vid_t, class eid_t>
int64_t union_find(const adjacency_view_t<vid_t, eid_t>& out, int threads, cancel_token_t cancel,
                   state_t<vid_t>& state) {
  const int64_t n = out.num_vertices;
  std::vector<int64_t> parent(static_cast<size_t>(n));
  for (int64_t v = 0; v < n; ++v) parent[static_cast<size_t>(v)] = v;
  int64_t edges = 0;
  if (threads <= 1) {
    for (int64_t u = 0; u < n; ++u) {
      if ((u & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel, k_union_find_stopped);
      for (eid_t slot = out.begin(static_cast<vid_t>(u)); slot < out.end(static_cast<vid_t>(u));
           ++slot) {
        const int64_t ru = find_root(parent, u);
        const int64_t rv = find_root(parent, static_cast<int64_t>(out.neighbour(slot)));
        if (ru != rv) parent[static_cast<size_t>(ru < rv ? rv : ru)] = ru < rv ? ru : rv;
      }
      edges += out.degree(static_cast<vid_t>(u));
    }
  } else {
    team_stop_t stop(cancel);
    int64_t* shared = parent.data();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64) reduction(+ : edges)
    for (int64_t u = 0; u < n; ++u) {
      if ((u & 63) == 0 && stop.poll()) continue;
      if (stop.stopped()) continue;
      for (eid_t slot = out.begin(static_cast<vid_t>(u)); slot < out.end(static_cast<vid_t>(u));
           ++slot) {
        unite_shared(shared, u, static_cast<int64_t>(out.neighbour(slot)));
      }
      edges += out.degree(static_cast<vid_t>(u));
    }
    throw_if_cancelled(stop, k_union_find_stopped);
  }
  labels_from_roots(parent, state);
  return edges;
}

}  // namespace dyng::components::detail
