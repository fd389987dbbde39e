// Random simple graphs and adversarial batches for the cycle_count suites (host and GPU): sorted
// rows without parallel edges, directed or undirected, with or without stored in-edges.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace dyng_test {

using dyng::edge_order_t;
using dyng::graph_properties_t;
using dyng::graph_t;

inline graph_properties_t props_of(bool directed, bool transposed) {
  graph_properties_t props;
  props.directed = directed;
  props.store_transposed = transposed;
  props.num_weights = 0;
  props.order = edge_order_t::sorted;
  props.allow_parallel_edges = false;
  return props;
}

template <class eid_t>
graph_t<int32_t, eid_t> random_graph(std::mt19937_64& rng, int32_t n, int64_t m, bool directed,
                                     bool transposed) {
  std::vector<int32_t> src, dst;
  for (int64_t e = 0; e < m; ++e) {
    src.push_back(static_cast<int32_t>(rng() % n));
    dst.push_back(static_cast<int32_t>(rng() % n));
  }
  return graph_t<int32_t, eid_t>::from_edges(n, src, dst, {}, props_of(directed, transposed));
}

/// Random batch: deletions of stored edges (cycle edges often), both directions of a pair,
/// insert and delete of one edge, self-loops, new vertices, missing deletions; fewer than
/// `insert_draws` insertion draws and `delete_draws` deletions.
template <class eid_t>
void random_batch(std::mt19937_64& rng, const graph_t<int32_t, eid_t>& g, std::vector<int32_t>& is,
                  std::vector<int32_t>& id, std::vector<int32_t>& ds, std::vector<int32_t>& dd,
                  int insert_draws = 6, int delete_draws = 5) {
  std::vector<int32_t> src, dst, w;
  g.edges(src, dst, w);
  const uint64_t n = static_cast<uint64_t>(g.num_vertices());
  const int inserts = static_cast<int>(rng() % static_cast<uint64_t>(insert_draws));
  const int deletes = static_cast<int>(rng() % static_cast<uint64_t>(delete_draws));
  for (int i = 0; i < inserts; ++i) {
    const int32_t u = static_cast<int32_t>(rng() % (n + 2)),
                  v = static_cast<int32_t>(rng() % (n + 2));
    is.push_back(u);
    id.push_back(rng() % 8 == 0 ? u : v);                  // a self-loop now and then
    if (rng() % 3 == 0) is.push_back(v), id.push_back(u);  // both directions
  }
  for (int i = 0; i < deletes; ++i) {
    if (!src.empty() && rng() % 4 != 0) {
      const size_t e = rng() % src.size();
      ds.push_back(src[e]);
      dd.push_back(dst[e]);
    } else if (!is.empty() && rng() % 2 == 0) {
      ds.push_back(is.back());  // insert and delete of one edge
      dd.push_back(id.back());
    } else {
      ds.push_back(static_cast<int32_t>(rng() % n));
      dd.push_back(static_cast<int32_t>(rng() % n));
    }
  }
}

}  // namespace dyng_test
