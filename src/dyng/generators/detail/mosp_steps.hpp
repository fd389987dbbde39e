// The graph walks of mospPrep's `changes`, on a compact CSR copy of the graph: the local ball,
// reachability, the per-objective shortest-path trees and the reachability test of the safety
// filter. Their visiting orders are part of the random stream (the ball's order decides which
// vertex a draw picks), so each mirrors the tool's walk; only the trees take 0.2.0's canonical
// parents instead of the tool's first-found ones.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace dyng::generators::detail {

/// The graph's rows in CSR order with int ids (the tool's types).
struct rows_t {
  int n = 0;
  int num_weights = 0;
  std::vector<int64_t> row_ptr;
  std::vector<int> col;
  std::vector<int32_t> weights;  ///< K per edge, edge-major

  int64_t num_edges() const { return static_cast<int64_t>(col.size()); }
  int32_t weight(int64_t e, int k) const { return weights[e * num_weights + k]; }
};

template <class vid_t, class eid_t>
rows_t rows_of(const graph_t<vid_t, eid_t>& graph) {
  const auto csr = graph.to_csr();
  rows_t rows;
  rows.n = static_cast<int>(graph.num_vertices());
  rows.num_weights = csr.num_weights;
  rows.row_ptr.assign(csr.row_ptr.begin(), csr.row_ptr.end());
  rows.col.assign(csr.col.begin(), csr.col.end());
  rows.weights = csr.weights;
  return rows;
}

/// The transpose, each reversed row listing its sources in ascending row order.
inline rows_t transpose(const rows_t& g) {
  rows_t r;
  r.n = g.n;
  r.row_ptr.assign(static_cast<size_t>(g.n) + 1, 0);
  for (int v : g.col) ++r.row_ptr[static_cast<size_t>(v) + 1];
  for (int v = 0; v < g.n; ++v) r.row_ptr[v + 1] += r.row_ptr[v];
  r.col.resize(g.col.size());
  std::vector<int64_t> cursor(r.row_ptr.begin(), r.row_ptr.end() - 1);
  for (int u = 0; u < g.n; ++u) {
    for (int64_t e = g.row_ptr[u]; e < g.row_ptr[u + 1]; ++e) r.col[cursor[g.col[e]]++] = u;
  }
  return r;
}

/// Vertices within `hops` of `centre` ignoring direction, in breadth-first discovery order,
/// out-neighbours of a vertex before its in-neighbours.
inline std::vector<int> local_ball(const rows_t& g, const rows_t& reverse, int centre,
                                   int64_t hops) {
  std::vector<int64_t> level(static_cast<size_t>(g.n), -1);
  std::vector<int> ball{centre};
  level[centre] = 0;
  for (size_t i = 0; i < ball.size(); ++i) {
    const int u = ball[i];
    if (level[u] == hops) continue;
    for (const rows_t* side : {&g, &reverse}) {
      for (int64_t e = side->row_ptr[u]; e < side->row_ptr[u + 1]; ++e) {
        const int w = side->col[e];
        if (level[w] < 0) {
          level[w] = level[u] + 1;
          ball.push_back(w);
        }
      }
    }
  }
  return ball;
}

/// 1 for every vertex reachable from `source` along `adjacency` (rows of neighbour lists).
inline std::vector<char> reachable(const std::vector<std::vector<int>>& adjacency, int source) {
  std::vector<char> seen(adjacency.size(), 0);
  std::vector<int> queue{source};
  seen[source] = 1;
  for (size_t i = 0; i < queue.size(); ++i) {
    for (int w : adjacency[queue[i]]) {
      if (!seen[w]) {
        seen[w] = 1;
        queue.push_back(w);
      }
    }
  }
  return seen;
}

/// The rows as neighbour lists.
inline std::vector<std::vector<int>> adjacency_of(const rows_t& g) {
  std::vector<std::vector<int>> adj(static_cast<size_t>(g.n));
  for (int u = 0; u < g.n; ++u) {
    adj[u].assign(g.col.begin() + g.row_ptr[u], g.col.begin() + g.row_ptr[u + 1]);
  }
  return adj;
}

/// The rows after a batch as the tool's apply does it: each deletion removes the first
/// remaining copy of (u, v); an insertion of an absent edge appends it (of a present one, only
/// rewrites weights, which reachability ignores).
inline std::vector<std::vector<int>> adjacency_after(const rows_t& g,
                                                     const std::vector<int>& ins_src,
                                                     const std::vector<int>& ins_dst,
                                                     const std::vector<int>& del_src,
                                                     const std::vector<int>& del_dst) {
  std::vector<std::vector<int>> adj = adjacency_of(g);
  std::vector<std::vector<char>> alive(adj.size());
  for (size_t u = 0; u < adj.size(); ++u) alive[u].assign(adj[u].size(), 1);
  for (size_t i = 0; i < del_src.size(); ++i) {
    const auto& row = adj[del_src[i]];
    auto& flags = alive[del_src[i]];
    for (size_t j = 0; j < row.size(); ++j) {
      if (flags[j] && row[j] == del_dst[i]) {
        flags[j] = 0;
        break;
      }
    }
  }
  for (size_t i = 0; i < ins_src.size(); ++i) {
    auto& row = adj[ins_src[i]];
    auto& flags = alive[ins_src[i]];
    bool present = false;
    for (size_t j = 0; j < row.size() && !present; ++j) present = flags[j] && row[j] == ins_dst[i];
    if (!present) {
      row.push_back(ins_dst[i]);
      flags.push_back(1);
    }
  }
  for (size_t u = 0; u < adj.size(); ++u) {
    size_t out = 0;
    for (size_t j = 0; j < adj[u].size(); ++j) {
      if (alive[u][j]) adj[u][out++] = adj[u][j];
    }
    adj[u].resize(out);
  }
  return adj;
}

/// The shortest-path tree of objective `k` from `source`: the parent of each vertex (-1 for the
/// source and unreachable vertices). Parents are canonical, the lowest-id tight in-neighbour,
/// as dyng 0.2.0 picks them (the tool's own Dijkstra kept the first parent found, which
/// depends on its queue's pop order; 0.2.0's batches follow the canonical trees).
inline std::vector<int> shortest_path_tree(const rows_t& g, int k, int source) {
  constexpr int64_t inf = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> dist(static_cast<size_t>(g.n), inf);
  using node_t = std::pair<int64_t, int>;
  std::priority_queue<node_t, std::vector<node_t>, std::greater<node_t>> queue;
  dist[source] = 0;
  queue.push({0, source});
  while (!queue.empty()) {
    const auto [d, u] = queue.top();
    queue.pop();
    if (d != dist[u]) continue;
    for (int64_t e = g.row_ptr[u]; e < g.row_ptr[u + 1]; ++e) {
      const int v = g.col[e];
      const int64_t candidate = d + g.weight(e, k);
      if (candidate < dist[v]) {
        dist[v] = candidate;
        queue.push({candidate, v});
      }
    }
  }
  std::vector<int> parent(static_cast<size_t>(g.n), -1);
  for (int u = 0; u < g.n; ++u) {  // ascending, so the first tight u found is the lowest
    if (dist[u] == inf) continue;
    for (int64_t e = g.row_ptr[u]; e < g.row_ptr[u + 1]; ++e) {
      const int v = g.col[e];
      if (v != u && v != source && parent[v] < 0 && dist[u] + g.weight(e, k) == dist[v]) {
        parent[v] = u;
      }
    }
  }
  return parent;
}

}  // namespace dyng::generators::detail
