// Path costs along the MOSP tree: cost[v][i] = cost[p][i] + w_i(p, v) for v's MOSP parent p,
// cost[source] = 0, k_infinite_distance in every column for unreachable vertices.
//
// With parallel edges the weights of (p, v) are those of the first (p, v) slot in p's out-row
// (the edge an upsert rewrites, as in 0.2). The walk goes down the tree's child lists, not the
// graph's rows, so a leaf's row is never read; a child's slot is found by binary search in a
// sorted row, and in an append-order row by a scan, which a parent with many children does once
// for all of them (a hub's children would otherwise cost a scan each).
#pragma once

#include <algorithm>
#include <cstdint>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::mosp::detail {

/// Children per parent at most for which an append-order row is searched once per child.
inline constexpr size_t k_scan_children_separately = 4;

/// The graph's out-rows as path costs read them.
template <class vid_t, class eid_t>
struct cost_rows_t {
  adjacency_view_t<vid_t, eid_t> out;
  bool sorted = false;
  int k = 0;  ///< objectives: the first k weight columns

  /// The first slot of (p, w) in p's row, or -1.
  eid_t first_slot(vid_t p, vid_t w) const {
    const eid_t first = out.begin(p), last = out.end(p);
    if (sorted) {
      const vid_t* at = std::lower_bound(out.col + first, out.col + last, w);
      return at != out.col + last && *at == w ? static_cast<eid_t>(at - out.col) : eid_t{-1};
    }
    for (eid_t j = first; j < last; ++j) {
      if (out.neighbour(j) == w) return j;
    }
    return -1;
  }
};

/// Writes the costs of the children `kids` of p (all with parent p); on_changed(w) for each child
/// whose costs changed. `slot_of` (n entries, -1 on entry and on return) is scratch for the
/// scan of a row with many children.
template <class vid_t, class eid_t, class changed_fn>
void costs_of_children(const cost_rows_t<vid_t, eid_t>& rows, vid_t p,
                       std::span<const vid_t> kids, std::vector<eid_t>& slot_of, int64_t* costs,
                       changed_fn&& on_changed) {
  const int k = rows.k;
  const bool scan = !rows.sorted && kids.size() > k_scan_children_separately;
  if (scan) {
    for (const vid_t w : kids) slot_of[w] = -2;  // wanted, not found yet
    for (eid_t j = rows.out.begin(p); j < rows.out.end(p); ++j) {
      const vid_t w = rows.out.neighbour(j);
      if (slot_of[w] == -2) slot_of[w] = j;
    }
  }
  const int64_t* from = costs + static_cast<int64_t>(p) * k;
  for (const vid_t w : kids) {
    const eid_t j = scan ? slot_of[w] : rows.first_slot(p, w);
    if (scan) slot_of[w] = -1;
    int64_t* to = costs + static_cast<int64_t>(w) * k;
    bool changed = false;
    // A tree edge that is no graph edge (testing.mosp_path_costs checks for it), or a parent
    // without a path, leaves the child unreachable.
    const bool reached = j >= 0 && from[0] != sssp::k_infinite_distance;
    for (int i = 0; i < k; ++i) {
      const int64_t c = reached ? from[i] + rows.out.weight(j, i) : sssp::k_infinite_distance;
      changed = changed || to[i] != c;
      to[i] = c;
    }
    if (changed) on_changed(w);
  }
}

/// Every vertex's costs from scratch, level by level down the tree from the source; the child
/// lists come from the parents (one counting pass). With `threads` > 1 each level's parents are
/// shared out: they write disjoint children and read costs the level before finished.
template <class vid_t, class eid_t>
void compute_path_costs(const cost_rows_t<vid_t, eid_t>& rows, const vid_t* parents, vid_t source,
                        std::vector<int64_t>& costs, int threads = 1) {
  const int64_t n = rows.out.num_vertices;
  const int k = rows.k;
  costs.assign(static_cast<size_t>(n * k), sssp::k_infinite_distance);
  for (int i = 0; i < k; ++i) costs[static_cast<int64_t>(source) * k + i] = 0;
  std::vector<int64_t> start(static_cast<size_t>(n) + 1, 0);
  for (int64_t v = 0; v < n; ++v) {
    if (parents[v] >= 0 && parents[v] < n && parents[v] != v) ++start[parents[v] + 1];
  }
  for (int64_t v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<vid_t> children(static_cast<size_t>(start[n]));
  std::vector<int64_t> fill(start.begin(), start.end() - 1);
  for (int64_t v = 0; v < n; ++v) {
    if (parents[v] >= 0 && parents[v] < n && parents[v] != v) {
      children[fill[parents[v]]++] = static_cast<vid_t>(v);
    }
  }
  std::vector<eid_t> slot_of(static_cast<size_t>(n), -1);
  auto kids_of = [&](vid_t p) {
    return std::span<const vid_t>(children.data() + start[p],
                                  static_cast<size_t>(start[p + 1] - start[p]));
  };
  std::vector<vid_t> level{source}, next;
  while (!level.empty()) {
    next.clear();
    const int64_t width = static_cast<int64_t>(level.size());
    if (threads <= 1 || width < 1024) {
      for (const vid_t p : level) {
        costs_of_children(rows, p, kids_of(p), slot_of, costs.data(),
                          [&](vid_t w) { next.push_back(w); });
      }
    } else {
#pragma omp parallel num_threads(threads)
      {
        std::vector<vid_t> mine;
#pragma omp for schedule(dynamic, 256) nowait
        for (int64_t i = 0; i < width; ++i) {
          costs_of_children(rows, level[i], kids_of(level[i]), slot_of, costs.data(),
                            [&](vid_t w) { mine.push_back(w); });
        }
#pragma omp critical
        next.insert(next.end(), mine.begin(), mine.end());
      }
    }
    level.swap(next);
  }
}

/// Recomputes the costs below the vertices in `roots` (those whose MOSP parent changed, or whose
/// parent edge's weights may have). Children are read from the combined graph's out-rows
/// (`tree_out`: every MOSP tree edge is a combined edge); rows are taken in order of MOSP
/// distance, so a parent's costs are final before its children read them. Vertices that lost
/// their MOSP path get infinite costs (their old subtree lost it too, so they are all roots).
/// Returns the parents whose children were visited (the work done).
template <class vid_t, class eid_t, class tree_eid_t>
int64_t repair_path_costs(const cost_rows_t<vid_t, eid_t>& rows,
                          const adjacency_view_t<vid_t, tree_eid_t>& tree_out,
                          const vid_t* parents, const int64_t* distances, vid_t source,
                          const std::vector<vid_t>& roots, std::vector<int64_t>& costs) {
  const int64_t n = rows.out.num_vertices;
  const int k = rows.k;
  // 1: a root whose own costs may have changed; 2: costs changed, so all children follow.
  std::vector<uint8_t> dirty(static_cast<size_t>(n), 0), queued(static_cast<size_t>(n), 0);
  std::vector<eid_t> slot_of(static_cast<size_t>(n), -1);
  using entry_t = std::pair<int64_t, vid_t>;  // (MOSP distance, parent)
  std::priority_queue<entry_t, std::vector<entry_t>, std::greater<>> parents_due;
  auto schedule = [&](vid_t p) {
    if (queued[p]) return;
    queued[p] = 1;
    parents_due.push({distances[p], p});
  };
  for (const vid_t v : roots) {
    int64_t* c = costs.data() + static_cast<int64_t>(v) * k;
    if (v == source) {
      std::fill(c, c + k, 0);
    } else if (parents[v] < 0) {
      std::fill(c, c + k, sssp::k_infinite_distance);
    } else {
      dirty[v] = std::max<uint8_t>(dirty[v], 1);
      schedule(parents[v]);
    }
  }
  int64_t visited = 0;
  std::vector<vid_t> kids;
  while (!parents_due.empty()) {
    const vid_t p = parents_due.top().second;
    parents_due.pop();
    ++visited;
    kids.clear();
    for (tree_eid_t j = tree_out.begin(p); j < tree_out.end(p); ++j) {
      const vid_t w = tree_out.neighbour(j);
      if (parents[w] == p && (dirty[p] == 2 || dirty[w] != 0)) kids.push_back(w);
    }
    costs_of_children(rows, p, std::span<const vid_t>(kids), slot_of, costs.data(), [&](vid_t w) {
      dirty[w] = 2;
      schedule(w);
    });
  }
  return visited;
}

}  // namespace dyng::mosp::detail
