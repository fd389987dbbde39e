// The combined graph's edges, derived from the K tree parents.
//
// Vertex v's combined in-edges come from its parent tuple (parent_0[v], ..., parent_{K-1}[v]):
// one edge (u, v) per distinct parent u, weighing L*(K+1) minus L/pref_i for every tree i whose
// parent of v is u. So a vertex whose tuple did not change keeps its in-edges exactly, and an
// update only has to diff the tuples that did.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/errors.hpp"
#include "dyng/mosp/mosp.hpp"

namespace dyng::mosp::detail {

/// L = lcm(preferences) (1 when empty), or -1 once it passes k_max_preference_scale.
inline int64_t preference_scale_of(const std::vector<int64_t>& preferences) {
  int64_t scale = 1;
  for (const int64_t p : preferences) {
    scale = scale / std::gcd(scale, p) * p;
    if (scale > k_max_preference_scale) return -1;
  }
  return scale;
}

/// What membership in tree i takes off an edge's weight: L / pref_i (all L without preferences).
inline std::vector<int64_t> tree_weights_of(const std::vector<int64_t>& preferences, int k,
                                            int64_t scale) {
  std::vector<int64_t> weights(static_cast<size_t>(k), scale);
  for (size_t i = 0; i < preferences.size(); ++i) weights[i] = scale / preferences[i];
  return weights;
}

template <class vid_t>
struct combined_in_edge_t {
  vid_t from;
  int32_t weight;
  bool operator==(const combined_in_edge_t&) const = default;
};

/// v's combined in-edges from its parents parent(i) for i < k, ordered by source; empty for a
/// vertex no tree reaches (and for the source, whose parents are all -1).
template <class vid_t, class parent_fn>
void combined_in_edges(parent_fn&& parent, int k, const std::vector<int64_t>& tree_weights,
                       int64_t scale, std::vector<combined_in_edge_t<vid_t>>& out) {
  out.clear();
  const int64_t full = scale * (k + 1);
  for (int i = 0; i < k; ++i) {
    const vid_t u = parent(i);
    if (u < 0) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.from == u; });
    if (it == out.end()) {
      out.push_back({u, static_cast<int32_t>(full - tree_weights[i])});
    } else {
      it->weight = static_cast<int32_t>(it->weight - tree_weights[i]);
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.from < b.from; });
}

/// The combined graph's edge list, vertex by vertex (v ascending, sources ascending).
template <class vid_t>
void combined_edge_list(const std::vector<const vid_t*>& parents, int64_t n,
                        const std::vector<int64_t>& tree_weights, int64_t scale,
                        std::vector<vid_t>& src, std::vector<vid_t>& dst,
                        std::vector<int32_t>& weights) {
  const int k = static_cast<int>(parents.size());
  std::vector<combined_in_edge_t<vid_t>> in;
  for (int64_t v = 0; v < n; ++v) {
    combined_in_edges<vid_t>([&](int i) { return parents[i][v]; }, k, tree_weights, scale, in);
    for (const auto& e : in) {
      src.push_back(e.from);
      dst.push_back(static_cast<vid_t>(v));
      weights.push_back(e.weight);
    }
  }
}

/// The properties of every combined graph.
inline graph_properties_t combined_graph_properties() {
  graph_properties_t props;
  props.directed = true;
  props.store_transposed = true;  // sssp reads in-edges
  props.num_weights = 1;
  props.order = edge_order_t::sorted;
  return props;
}

/// The combined graph of the trees (their parents, n entries each).
template <class vid_t>
combined_graph_t<vid_t> build_combined_graph(const std::vector<const vid_t*>& parents, int64_t n,
                                             const std::vector<int64_t>& tree_weights,
                                             int64_t scale) {
  std::vector<vid_t> src, dst;
  std::vector<int32_t> weights;
  combined_edge_list(parents, n, tree_weights, scale, src, dst, weights);
  return combined_graph_t<vid_t>::from_edges(static_cast<vid_t>(n), src, dst, weights,
                                             combined_graph_properties());
}

}  // namespace dyng::mosp::detail
