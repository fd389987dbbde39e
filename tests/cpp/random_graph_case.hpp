// A random small weighted graph for the update suites (sssp and dynamic_bfs, host and GPU), drawn
// so that one seed always gives the same case: storage choices (directed two times in three,
// K = 1 or 2, sorted or append order, parallel edges half the time), light (1..5) or heavy
// (1..100000) weights, and 3n edges on n vertices. Callers keep drawing from the same generator for
// their batches.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "dyng/graph/properties.hpp"

namespace dyng_test {

template <class vid_t>
struct random_graph_case_t {
  dyng::graph_properties_t props;
  vid_t n = 0;
  std::vector<vid_t> src, dst;
  std::vector<int32_t> weights;                   // K per edge
  std::uniform_int_distribution<int32_t> weight;  // the case's weight range, for batches
};

/// Draws a case with 2 <= n < 2 + vertex_spread.
template <class vid_t>
random_graph_case_t<vid_t> random_graph_case(std::mt19937_64& rng, uint64_t vertex_spread) {
  random_graph_case_t<vid_t> c;
  c.props.directed = rng() % 3 != 0;
  c.props.num_weights = 1 + static_cast<int>(rng() % 2);
  c.props.order = rng() % 2 ? dyng::edge_order_t::sorted : dyng::edge_order_t::append;
  c.props.allow_parallel_edges = rng() % 2 == 0;
  const int k = c.props.num_weights;
  const int32_t max_w = rng() % 2 ? 5 : 100000;
  c.weight = std::uniform_int_distribution<int32_t>(1, max_w);
  c.n = static_cast<vid_t>(2 + rng() % vertex_spread);
  for (int64_t e = 0; e < 3 * static_cast<int64_t>(c.n); ++e) {
    c.src.push_back(static_cast<vid_t>(rng() % static_cast<uint64_t>(c.n)));
    c.dst.push_back(static_cast<vid_t>(rng() % static_cast<uint64_t>(c.n)));
    for (int j = 0; j < k; ++j) c.weights.push_back(c.weight(rng));
  }
  return c;
}

}  // namespace dyng_test
