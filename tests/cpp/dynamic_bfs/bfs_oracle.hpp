// The C++ oracle of the dynamic_bfs suites: levels by relaxing every edge until nothing changes
// (no queue, no frontier, nothing shared with the kernels), the set of vertices a batch must
// invalidate, from the definition (a vertex keeps its level only through a surviving supporter),
// and the random batches the host and GPU suites both draw.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
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

/// A batch aimed at the repair: a few insertions (sometimes with a new vertex id, so the graph
/// grows), deletions of supporting edges (u one level above v, by `levels`) and one random pair.
template <class vid_t>
struct bfs_batch_t {
  std::vector<vid_t> insert_src, insert_dst, delete_src, delete_dst;
  std::vector<int32_t> insert_weights;  // K per insertion, ignored by BFS
  int num_weights = 0;

  dyng::edge_batch_t<vid_t> view() const {
    return {insert_src, insert_dst, insert_weights, num_weights, delete_src, delete_dst};
  }
};

template <class vid_t, class eid_t>
bfs_batch_t<vid_t> random_bfs_batch(std::mt19937_64& rng, const dyng::graph_t<vid_t, eid_t>& g,
                                    const std::vector<int64_t>& levels) {
  bfs_batch_t<vid_t> b;
  b.num_weights = g.num_weights();
  const auto n = static_cast<uint64_t>(g.num_vertices());
  for (int i = static_cast<int>(rng() % 5); i > 0; --i) {
    const uint64_t limit = n + (rng() % 4 == 0 ? 2 : 0);
    b.insert_src.push_back(static_cast<vid_t>(rng() % limit));
    b.insert_dst.push_back(static_cast<vid_t>(rng() % limit));
    for (int c = 0; c < b.num_weights; ++c) {
      b.insert_weights.push_back(static_cast<int32_t>(1 + rng() % 9));
    }
  }
  const auto in = g.properties().directed ? g.in_view() : g.out_view();
  for (int i = static_cast<int>(rng() % 8); i > 0; --i) {
    const auto v = static_cast<vid_t>(rng() % n);
    for (auto s = in.begin(v); s < in.end(v); ++s) {
      const vid_t u = in.neighbour(s);
      if (levels[static_cast<size_t>(u)] + 1 == levels[static_cast<size_t>(v)]) {
        b.delete_src.push_back(u), b.delete_dst.push_back(v);
        break;
      }
    }
  }
  b.delete_src.push_back(static_cast<vid_t>(rng() % n));
  b.delete_dst.push_back(static_cast<vid_t>(rng() % n));
  return b;
}

}  // namespace dyng_test
