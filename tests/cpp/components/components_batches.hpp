// The random graphs and adversarial batches of the components tests, host and GPU alike: graphs
// of about one edge per vertex; batches of existing edges deleted (of random vertices, and along
// a random walk, which cuts paths and bridges), a few random insertions (some to new vertices,
// self-loops, parallel edges) and a few random vertices joined to one hub (many components
// merged at once).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "dyng/graph/graph.hpp"
#include "random_graph_case.hpp"

namespace dyng_test {

/// A random graph case (random_graph_case.hpp) cut to about one edge per vertex: sparse graphs
/// have many components to split and merge.
template <class vid_t, class eid_t>
dyng::graph_t<vid_t, eid_t> sparse_graph(std::mt19937_64& rng) {
  auto rc = random_graph_case<vid_t>(rng, 30);
  const size_t m = static_cast<size_t>(rc.n) + rng() % 4;
  rc.src.resize(m), rc.dst.resize(m);
  rc.weights.resize(m * static_cast<size_t>(rc.props.num_weights));
  return dyng::graph_t<vid_t, eid_t>::from_edges(rc.n, rc.src, rc.dst, rc.weights, rc.props);
}

template <class vid_t>
struct batch_t {
  std::vector<vid_t> insert_src, insert_dst, delete_src, delete_dst;
  std::vector<int32_t> insert_weights;
  int num_weights = 0;
  dyng::edge_batch_t<vid_t> view() const {
    return {insert_src, insert_dst, insert_weights, num_weights, delete_src, delete_dst};
  }
  void insert(vid_t u, vid_t v) {
    insert_src.push_back(u), insert_dst.push_back(v);
    for (int k = 0; k < num_weights; ++k) insert_weights.push_back(1);
  }
};

/// One such batch for `g`.
template <class vid_t, class eid_t>
batch_t<vid_t> random_batch(std::mt19937_64& rng, const dyng::graph_t<vid_t, eid_t>& g) {
  batch_t<vid_t> b;
  b.num_weights = g.num_weights();
  const auto n = static_cast<uint64_t>(g.num_vertices());
  const auto out = g.out_view();
  auto first_edge = [&](vid_t v, vid_t& to) {
    if (out.degree(v) == 0) return false;
    const auto pick = rng() % static_cast<uint64_t>(out.degree(v));
    to = out.neighbour(out.begin(v) + static_cast<eid_t>(pick));
    return true;
  };
  for (int i = static_cast<int>(rng() % 4); i > 0; --i) {
    vid_t v = static_cast<vid_t>(rng() % n), to;
    if (first_edge(v, to)) b.delete_src.push_back(v), b.delete_dst.push_back(to);
  }
  vid_t at = static_cast<vid_t>(rng() % n), to;
  for (int step = static_cast<int>(rng() % 6); step > 0 && first_edge(at, to); --step) {
    b.delete_src.push_back(at), b.delete_dst.push_back(to);
    at = to;
  }
  for (int i = static_cast<int>(rng() % 4); i > 0; --i) {
    const uint64_t limit = n + (rng() % 4 == 0 ? 2 : 0);
    const auto u = static_cast<vid_t>(rng() % limit);
    b.insert(u, rng() % 5 == 0 ? u : static_cast<vid_t>(rng() % limit));
  }
  if (rng() % 3 == 0) {
    const auto hub = static_cast<vid_t>(rng() % n);
    for (int i = static_cast<int>(rng() % 5); i > 0; --i) {
      b.insert(static_cast<vid_t>(rng() % n), hub);
    }
  }
  return b;
}

}  // namespace dyng_test
