// A components oracle that shares nothing with the kernels: from every vertex, a breadth-first
// search along the edges, against them, or both ways; v's label is the smallest w that it reaches
// both ways (weak) or that it reaches and that reaches it (strong).
#pragma once

#include <cstdint>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace dyng_test {

enum class direction_t { forward, backward, both };

template <class vid_t, class eid_t>
std::vector<std::vector<bool>> reachable(const dyng::graph_t<vid_t, eid_t>& g, direction_t d) {
  const auto n = static_cast<size_t>(g.num_vertices());
  const auto view = g.out_view();
  const bool undirected = !g.properties().directed;
  std::vector<std::vector<size_t>> next(n);
  for (size_t u = 0; u < n; ++u) {
    for (auto s = view.begin(static_cast<vid_t>(u)); s < view.end(static_cast<vid_t>(u)); ++s) {
      const auto v = static_cast<size_t>(view.neighbour(s));
      if (d != direction_t::backward || undirected) next[u].push_back(v);
      if (d != direction_t::forward || undirected) next[v].push_back(u);
    }
  }
  std::vector<std::vector<bool>> seen(n, std::vector<bool>(n, false));
  for (size_t s = 0; s < n; ++s) {
    std::vector<size_t> queue{s};
    seen[s][s] = true;
    for (size_t head = 0; head < queue.size(); ++head) {
      for (const size_t y : next[queue[head]]) {
        if (!seen[s][y]) seen[s][y] = true, queue.push_back(y);
      }
    }
  }
  return seen;
}

/// Oracle labels: weak (`strong` false) or strong components, smallest id per component.
template <class vid_t, class eid_t>
std::vector<int64_t> oracle_labels(const dyng::graph_t<vid_t, eid_t>& g, bool strong) {
  const auto n = static_cast<size_t>(g.num_vertices());
  const auto ahead = reachable(g, strong ? direction_t::forward : direction_t::both);
  const auto behind = reachable(g, strong ? direction_t::backward : direction_t::both);
  std::vector<int64_t> labels(n, -1);
  for (size_t v = 0; v < n; ++v) {
    size_t w = 0;
    while (!(ahead[v][w] && behind[v][w])) ++w;
    labels[v] = static_cast<int64_t>(w);
  }
  return labels;
}

/// Sizes per label and the count, from labels.
inline std::vector<int64_t> oracle_sizes(const std::vector<int64_t>& labels, int64_t& count) {
  std::vector<int64_t> sizes(labels.size(), 0);
  count = 0;
  for (const int64_t label : labels) count += sizes[static_cast<size_t>(label)]++ == 0 ? 1 : 0;
  return sizes;
}

}  // namespace dyng_test
