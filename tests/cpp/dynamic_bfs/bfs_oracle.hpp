// The C++ oracle of the dynamic_bfs suites: levels by relaxing every edge until nothing changes
// (no queue, no frontier, nothing shared with the kernels), and the set of vertices a batch must
// invalidate, from the definition (a vertex keeps its level only through a surviving supporter).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace dyng_test {

template <class vid_t, class eid_t>
std::vector<int64_t> oracle_levels(const dyng::graph_t<vid_t, eid_t>& g, vid_t source) {
  const auto out = g.out_view();
  const size_t n = static_cast<size_t>(g.num_vertices());
  std::vector<int64_t> level(n, INT64_MAX);
  level[static_cast<size_t>(source)] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (vid_t u = 0; u < out.num_vertices; ++u) {
      if (level[static_cast<size_t>(u)] == INT64_MAX) continue;
      for (eid_t s = out.begin(u); s < out.end(u); ++s) {
        int64_t& lv = level[static_cast<size_t>(out.neighbour(s))];
        const int64_t offer = level[static_cast<size_t>(u)] + 1;
        if (offer < lv) lv = offer, changed = true;
      }
    }
  }
  for (int64_t& l : level) l = l == INT64_MAX ? -1 : l;
  return level;
}

/// Vertices reached before the batch that have no path of their old length in the graph after
/// it: valid(v) iff v is the source or an in-neighbour w (now) has old[w] == old[v] - 1 and is
/// valid. Decided in increasing old level, so every supporter is decided first.
template <class vid_t, class eid_t>
int64_t expected_invalidated(const dyng::graph_t<vid_t, eid_t>& g, const std::vector<int64_t>& old,
                             vid_t source) {
  const auto in = g.in_view();
  std::vector<size_t> order(old.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return static_cast<uint64_t>(old[a]) < static_cast<uint64_t>(old[b]);
  });
  std::vector<char> valid(old.size(), 0);
  int64_t invalid = 0;
  for (const size_t v : order) {
    if (old[v] < 0) break;
    bool ok = v == static_cast<size_t>(source);
    const auto vv = static_cast<vid_t>(v);
    for (eid_t s = in.begin(vv); !ok && s < in.end(vv); ++s) {
      const auto w = static_cast<size_t>(in.neighbour(s));
      ok = w < old.size() && old[w] == old[v] - 1 && valid[w];
    }
    valid[v] = ok;
    invalid += ok ? 0 : 1;
  }
  return invalid;
}

}  // namespace dyng_test
