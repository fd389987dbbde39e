// The CPU oracle of sssp_gpu_bench: textbook Dijkstra with a binary heap over the plain edge list
// (not the slotted CSR the GPU reads), then canonical parents found from the out-edges: each
// settled u offers itself to every out-neighbour v it is tight for (dist[u] + w == dist[v]) and
// the lowest id wins. Sharing no code or storage with the kernels is the point: a bug in the
// slotted layout, the in-edge mirror or the GPU parent pass shows up as a mismatch.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "graphs.hpp"

namespace bench {

inline constexpr int64_t k_unreached = (int64_t{1} << 61) - 1;

struct reference_t {
  std::vector<int64_t> dist;
  std::vector<int64_t> parent;
};

inline reference_t dijkstra(const edge_list_t& g, int64_t source) {
  const int64_t n = g.n;
  std::vector<int64_t> offset(n + 1, 0);
  for (int64_t u : g.src) ++offset[u + 1];
  for (int64_t v = 0; v < n; ++v) offset[v + 1] += offset[v];

  reference_t r;
  r.dist.assign(n, k_unreached);
  r.parent.assign(n, -1);
  using entry_t = std::pair<int64_t, int64_t>;
  std::priority_queue<entry_t, std::vector<entry_t>, std::greater<entry_t>> heap;
  r.dist[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > r.dist[u]) continue;
    for (int64_t i = offset[u]; i < offset[u + 1]; ++i) {
      const int64_t candidate = d + g.weight[i];
      if (candidate < r.dist[g.dst[i]]) {
        r.dist[g.dst[i]] = candidate;
        heap.push({candidate, g.dst[i]});
      }
    }
  }
  for (int64_t u = 0; u < n; ++u) {
    if (r.dist[u] == k_unreached) continue;
    for (int64_t i = offset[u]; i < offset[u + 1]; ++i) {
      const int64_t v = g.dst[i];
      if (v == u || v == source) continue;
      int64_t& p = r.parent[v];
      if (r.dist[u] + g.weight[i] == r.dist[v] && (p < 0 || u < p)) p = u;
    }
  }
  return r;
}

}  // namespace bench
