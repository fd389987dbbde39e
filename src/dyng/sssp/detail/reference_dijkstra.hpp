// The test oracle: textbook Dijkstra with a binary heap (std::priority_queue of (distance, vertex)
// pairs, lazy deletion), then canonical parents found from the out-edges.
//
// It shares nothing with the fast kernels on purpose: no bucket queue, no in-edges (each settled
// u offers itself to every out-neighbour it is tight for and the lowest id wins), so a bug in the
// queues or in the graph's in-edge mirror shows up as a mismatch.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::sssp::detail {

template <class vid_t, class eid_t>
state_t<vid_t> reference_dijkstra_view(const adjacency_view_t<vid_t, eid_t>& out, vid_t source,
                                       int objective) {
  const vid_t n = out.num_vertices;
  state_t<vid_t> state;
  state.source = source;
  state.distances.assign(static_cast<size_t>(n), k_infinite_distance);
  state.parents.assign(static_cast<size_t>(n), vid_t{-1});
  std::vector<int64_t>& dist = state.distances;

  using item_t = std::pair<int64_t, vid_t>;
  std::priority_queue<item_t, std::vector<item_t>, std::greater<item_t>> heap;
  dist[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[u]) continue;
    for (eid_t slot = out.begin(u); slot < out.end(u); ++slot) {
      const vid_t v = out.neighbour(slot);
      const int64_t candidate = d + out.weight(slot, objective);
      if (candidate < dist[v]) {
        dist[v] = candidate;
        heap.push({candidate, v});
      }
    }
  }

  for (vid_t u = 0; u < n; ++u) {
    if (dist[u] == k_infinite_distance) continue;
    for (eid_t slot = out.begin(u); slot < out.end(u); ++slot) {
      const vid_t v = out.neighbour(slot);
      if (v == u || v == source) continue;
      vid_t& parent = state.parents[v];
      if (dist[u] + out.weight(slot, objective) == dist[v] && (parent < 0 || u < parent)) {
        parent = u;
      }
    }
  }
  return state;
}

}  // namespace dyng::sssp::detail
