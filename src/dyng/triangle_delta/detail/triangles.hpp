// Host triangle counting on sorted, simple, undirected rows.
//
// compute: for every edge (u, v) with u < v, the common neighbours w > v, by merging the two
// sorted rows from their first entries above v (each triangle u < v < w is found once, from its
// two smallest vertices); the row slots read are its work. A team shares the vertices out in
// small dynamic chunks (R-MAT's low ids are hubs).
//
// update: the triangles through a list of changed edges e_0 < e_1 < ... (pairs u < v, sorted),
// each counted at the first changed edge it holds, on either the graph as it is (insertions) or
// the graph before the batch, seen through an overlay that hides the batch's insertions and
// shows its deletions again. The candidates w for e_i = (u, v) are the neighbours of the
// lower-degree end; each is tested against the other end's row by binary search.
//
// Stopping (backend/cancel.hpp): both take a team_stop_t, which the caller polls per edge and
// triangles_from() per vertex and every 64 edges of a row, and return early once it records a
// stop; they run inside OpenMP regions too, so the caller throws afterwards.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dyng/backend/cancel.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/changed_pairs.hpp"

namespace dyng::triangle_delta::detail {

using ::dyng::edge_pair_t;

/// Triangles u < v < w found from the rows of vertices [first, last); adds the row slots read
/// to `work`. Returns early, with part of them, once `stop` records a stop.
template <class vid_t, class eid_t>
uint64_t triangles_from(const adjacency_view_t<vid_t, eid_t>& g, vid_t first, vid_t last,
                        int64_t& work, team_stop_t& stop) {
  uint64_t found = 0;
  for (vid_t u = first; u < last; ++u) {
    if (stop.poll()) return found;
    const vid_t* ub = g.col + g.begin(u);
    const vid_t* ue = g.col + g.end(u);
    // Only neighbours above u start an edge (u, v); the rest of u's row is above v. A dense
    // neighbourhood makes a single row long work: it is polled too.
    const vid_t* above = std::upper_bound(ub, ue, u);
    for (const vid_t* pv = above; pv < ue; ++pv) {
      if (((pv - above) & 63) == 63 && stop.poll()) return found;
      const vid_t v = *pv;
      const vid_t* a = pv + 1;
      const vid_t* ve = g.col + g.end(v);
      const vid_t* b = std::upper_bound(g.col + g.begin(v), ve, v);
      work += (ue - a) + (ve - b) + 1;
      while (a < ue && b < ve) {
        if (*a < *b) {
          ++a;
        } else if (*b < *a) {
          ++b;
        } else {
          ++found;
          ++a;
          ++b;
        }
      }
    }
  }
  return found;
}

/// The changed edges of a batch, and the adjacency among them, to see the graph before it.
template <class vid_t>
class overlay_t {
 public:
  overlay_t(const std::vector<edge_pair_t<vid_t>>& hidden,
            const std::vector<edge_pair_t<vid_t>>& shown)
      : hidden_(hidden), shown_(shown) {
    for (const auto& [u, v] : shown) {
      shown_rows_[u].push_back(v);
      shown_rows_[v].push_back(u);
    }
  }
  /// Is {x, y} an edge of the graph seen through the overlay, given whether it is stored?
  bool edge(vid_t x, vid_t y, bool stored) const {
    const edge_pair_t<vid_t> e = x < y ? edge_pair_t<vid_t>{x, y} : edge_pair_t<vid_t>{y, x};
    if (stored) return !std::binary_search(hidden_.begin(), hidden_.end(), e);
    return std::binary_search(shown_.begin(), shown_.end(), e);
  }
  bool hides(vid_t x, vid_t y) const {
    const edge_pair_t<vid_t> e = x < y ? edge_pair_t<vid_t>{x, y} : edge_pair_t<vid_t>{y, x};
    return std::binary_search(hidden_.begin(), hidden_.end(), e);
  }
  /// Neighbours of x only the overlay shows.
  const std::vector<vid_t>* shown_row(vid_t x) const {
    const auto it = shown_rows_.find(x);
    return it == shown_rows_.end() ? nullptr : &it->second;
  }

 private:
  const std::vector<edge_pair_t<vid_t>>& hidden_;
  const std::vector<edge_pair_t<vid_t>>& shown_;
  std::unordered_map<vid_t, std::vector<vid_t>> shown_rows_;
};

/// The triangles through edges[i] = (u, v) that hold none of edges[0..i), on the stored graph
/// or, with `overlay`, on the graph it shows. Adds the row slots read to `work`.
template <class vid_t, class eid_t>
uint64_t triangles_through(const adjacency_view_t<vid_t, eid_t>& g,
                           const std::vector<edge_pair_t<vid_t>>& edges, size_t i,
                           const overlay_t<vid_t>* overlay, int64_t& work) {
  auto [u, v] = edges[i];
  if (g.degree(v) < g.degree(u)) std::swap(u, v);  // walk the shorter row
  const vid_t* vb = g.col + g.begin(v);
  const vid_t* ve = g.col + g.end(v);
  const auto earlier = edges.begin() + static_cast<std::ptrdiff_t>(i);
  auto changed_before = [&](vid_t x, vid_t y) {
    const edge_pair_t<vid_t> e = x < y ? edge_pair_t<vid_t>{x, y} : edge_pair_t<vid_t>{y, x};
    return std::binary_search(edges.begin(), earlier, e);
  };
  uint64_t found = 0;
  auto consider = [&](vid_t w) {
    if (w == u || w == v) return;
    const bool stored_vw = std::binary_search(vb, ve, w);
    const bool vw = overlay != nullptr ? overlay->edge(v, w, stored_vw) : stored_vw;
    if (!vw || changed_before(u, w) || changed_before(v, w)) return;
    ++found;
  };
  const eid_t ub = g.begin(u), ue = g.end(u);
  work += (ue - ub) + 1;
  for (eid_t j = ub; j < ue; ++j) {
    const vid_t w = g.neighbour(j);
    if (overlay != nullptr && overlay->hides(u, w)) continue;
    consider(w);
  }
  if (overlay != nullptr) {
    if (const auto* extra = overlay->shown_row(u)) {
      work += static_cast<int64_t>(extra->size());
      for (const vid_t w : *extra) consider(w);
    }
  }
  return found;
}

}  // namespace dyng::triangle_delta::detail
