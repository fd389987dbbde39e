// Edge-change batches for the update benchmark: bench/changes.py's "uniform" recipe in C++.
//
// count / 2 deletions of distinct existing edges drawn uniformly (an edge index in [0, m), found
// through the prefix sums of the out-degrees), and count - count / 2 insertions of distinct new
// edges between uniformly random vertex pairs (never an existing edge, a self-loop or a repeat),
// with weights uniform in 1..100. So every change changes the graph. Like graphs.hpp, the
// parameters match the Python recipe but the random stream does not.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <unordered_set>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace bench {

template <class vid_t>
struct change_batch_t {
  std::vector<vid_t> insert_src, insert_dst, delete_src, delete_dst;
  std::vector<int32_t> insert_weights;

  dyng::edge_batch_t<vid_t> view() const {
    return {insert_src, insert_dst, insert_weights, 1, delete_src, delete_dst};
  }
};

template <class vid_t, class eid_t>
bool has_edge(const dyng::adjacency_view_t<vid_t, eid_t>& out, vid_t u, vid_t v) {
  for (eid_t s = out.begin(u); s < out.end(u); ++s) {
    if (out.neighbour(s) == v) return true;
  }
  return false;
}

/// The batch that undoes `batch` on the graph it was drawn from (K = 1): the deleted edges back
/// with the weights they have in `g` now, the inserted ones deleted. Call before applying.
template <class vid_t, class eid_t>
change_batch_t<vid_t> inverse_of(const change_batch_t<vid_t>& batch,
                                 const dyng::graph_t<vid_t, eid_t>& g) {
  const dyng::adjacency_view_t<vid_t, eid_t> out = g.out_view();
  change_batch_t<vid_t> inverse;
  inverse.insert_src = batch.delete_src;
  inverse.insert_dst = batch.delete_dst;
  for (size_t i = 0; i < batch.delete_src.size(); ++i) {
    const vid_t u = batch.delete_src[i];
    for (eid_t s = out.begin(u); s < out.end(u); ++s) {
      if (out.neighbour(s) == batch.delete_dst[i]) {
        inverse.insert_weights.push_back(out.weight(s, 0));
        break;
      }
    }
  }
  inverse.delete_src = batch.insert_src;
  inverse.delete_dst = batch.insert_dst;
  return inverse;
}

template <class vid_t, class eid_t>
change_batch_t<vid_t> uniform_changes(const dyng::graph_t<vid_t, eid_t>& g, int64_t count,
                                      uint64_t seed) {
  const dyng::adjacency_view_t<vid_t, eid_t> out = g.out_view();
  const int64_t n = g.num_vertices();
  std::vector<int64_t> prefix(static_cast<size_t>(n) + 1, 0);
  for (int64_t v = 0; v < n; ++v) prefix[v + 1] = prefix[v] + out.degree(static_cast<vid_t>(v));
  const int64_t m = prefix[n];
  std::mt19937_64 rng(seed);
  change_batch_t<vid_t> batch;
  std::unordered_set<uint64_t> taken;
  const auto key = [n](int64_t u, int64_t v) { return static_cast<uint64_t>(u * n + v); };

  const int64_t deletions = std::min<int64_t>(count / 2, m);
  while (static_cast<int64_t>(batch.delete_src.size()) < deletions) {
    const int64_t e = static_cast<int64_t>(rng() % static_cast<uint64_t>(m));
    const int64_t u = std::upper_bound(prefix.begin(), prefix.end(), e) - prefix.begin() - 1;
    const vid_t v =
        out.neighbour(out.begin(static_cast<vid_t>(u)) + static_cast<eid_t>(e - prefix[u]));
    if (!taken.insert(key(u, v)).second) continue;
    batch.delete_src.push_back(static_cast<vid_t>(u));
    batch.delete_dst.push_back(v);
  }
  const int64_t insertions = count - count / 2;
  while (static_cast<int64_t>(batch.insert_src.size()) < insertions) {
    const vid_t u = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    const vid_t v = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    if (u == v || has_edge(out, u, v) || !taken.insert(key(u, v)).second) continue;
    batch.insert_src.push_back(u);
    batch.insert_dst.push_back(v);
    batch.insert_weights.push_back(static_cast<int32_t>(1 + rng() % 100));
  }
  return batch;
}

}  // namespace bench
