// Path costs along the MOSP tree: cost[v][i] = cost[p][i] + w_i(p, v) for v's MOSP parent p,
// cost[source] = 0, k_infinite_distance in every column for unreachable vertices.
//
// With parallel edges the weights of (p, v) are those of the first (p, v) slot in p's out-row
// (the edge an upsert rewrites, as in 0.2). Costs are computed by scanning the out-rows of tree
// vertices: each scan finds, for every child w of p, the first slot to it, so a row is read
// once however many children it has (a hub's children would otherwise cost a search each).
#pragma once

#include <cstdint>
#include <queue>
#include <utility>
#include <vector>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::mosp::detail {

/// Writes the costs of p's tree children from p's out-row: every child w when `all`, else the
/// children marked in `dirty`. `on_changed(w)` is called for each child whose costs changed
/// (every reached child when the costs start out infinite).
/// `seen` (n entries, all false on entry and on return) skips the parallel copies of a child.
template <class vid_t, class eid_t, class changed_fn>
void costs_of_children(const adjacency_view_t<vid_t, eid_t>& out, vid_t p, int k,
                       const vid_t* parents, bool all, const std::vector<uint8_t>& dirty,
                       std::vector<uint8_t>& seen, int64_t* costs, changed_fn&& on_changed) {
  const int64_t* from = costs + static_cast<int64_t>(p) * k;
  const eid_t first = out.begin(p), last = out.end(p);
  for (eid_t j = first; j < last; ++j) {
    const vid_t w = out.neighbour(j);
    if (w == p || parents[w] != p || seen[w]) continue;
    seen[w] = 1;
    if (!all && !dirty[w]) continue;
    int64_t* to = costs + static_cast<int64_t>(w) * k;
    bool changed = false;
    for (int i = 0; i < k; ++i) {
      const int64_t c = from[i] + out.weight(j, i);
      changed = changed || to[i] != c;
      to[i] = c;
    }
    if (changed) on_changed(w);
  }
  for (eid_t j = first; j < last; ++j) seen[out.neighbour(j)] = 0;
}

/// Every vertex's costs from scratch, breadth-first down the tree from the source.
template <class vid_t, class eid_t>
void compute_path_costs(const adjacency_view_t<vid_t, eid_t>& out, int k, const vid_t* parents,
                        vid_t source, std::vector<int64_t>& costs) {
  const int64_t n = out.num_vertices;
  costs.assign(static_cast<size_t>(n * k), sssp::k_infinite_distance);
  for (int i = 0; i < k; ++i) costs[static_cast<int64_t>(source) * k + i] = 0;
  std::vector<uint8_t> seen(static_cast<size_t>(n), 0), unused;
  std::vector<vid_t> queue{source};
  for (size_t head = 0; head < queue.size(); ++head) {
    costs_of_children(out, queue[head], k, parents, true, unused, seen, costs.data(),
                      [&](vid_t w) { queue.push_back(w); });
  }
}

/// Recomputes the costs below the vertices in `roots` (those whose MOSP parent changed, or whose
/// parent edge's weights may have): rows are scanned in order of MOSP distance, so a parent's
/// costs are final before its children read them, and a row is scanned once. Vertices that lost
/// their MOSP path get infinite costs (their old subtree lost it too, so they are all roots).
/// Returns the rows scanned (the work done).
template <class vid_t, class eid_t>
int64_t repair_path_costs(const adjacency_view_t<vid_t, eid_t>& out, int k, const vid_t* parents,
                          const int64_t* distances, vid_t source, const std::vector<vid_t>& roots,
                          std::vector<int64_t>& costs) {
  const int64_t n = out.num_vertices;
  std::vector<uint8_t> dirty(static_cast<size_t>(n), 0), queued(static_cast<size_t>(n), 0),
      seen(static_cast<size_t>(n), 0);
  using entry_t = std::pair<int64_t, vid_t>;  // (MOSP distance, row)
  std::priority_queue<entry_t, std::vector<entry_t>, std::greater<>> rows;
  auto schedule = [&](vid_t p) {
    if (queued[p]) return;
    queued[p] = 1;
    rows.push({distances[p], p});
  };
  for (const vid_t v : roots) {
    int64_t* c = costs.data() + static_cast<int64_t>(v) * k;
    if (v == source) {
      for (int i = 0; i < k; ++i) c[i] = 0;
      schedule(v);
    } else if (parents[v] < 0) {
      for (int i = 0; i < k; ++i) c[i] = sssp::k_infinite_distance;
    } else {
      dirty[v] = 1;
      schedule(parents[v]);
    }
  }
  int64_t scanned = 0;
  while (!rows.empty()) {
    const vid_t p = rows.top().second;
    rows.pop();
    ++scanned;
    // A row scheduled because its own costs changed recomputes all its children; one scheduled
    // for a root below it, only the roots.
    const bool all = dirty[p] == 2;
    costs_of_children(out, p, k, parents, all, dirty, seen, costs.data(), [&](vid_t w) {
      dirty[w] = 2;
      schedule(w);
    });
  }
  return scanned;
}

}  // namespace dyng::mosp::detail
