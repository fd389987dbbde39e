// What a batch really changed in a graph, as seen by dynamic algorithms.
//
// Graph::apply fills it after the batch's semantics have been resolved (duplicates merged,
// ignored deletions dropped, self-loops handled), so an algorithm's update sees only effective
// edge changes. An undirected graph records both directions.
#pragma once

#include <cstdint>
#include <vector>

namespace dyng {

enum class edge_change_kind_t : uint8_t {
  inserted,    ///< A new (u, v) slot now exists.
  deleted,     ///< A (u, v) slot was removed (with parallel edges, another (u, v) may remain).
  reweighted,  ///< An existing (u, v) slot got new weights (possibly equal to the old ones).
};

template <class vid_t>
struct edge_change_t {
  vid_t src;
  vid_t dst;
  edge_change_kind_t kind;
};

template <class vid_t>
struct change_log_t {
  vid_t num_vertices_before = 0;
  vid_t num_vertices_after = 0;
  std::vector<edge_change_t<vid_t>> changes;

  void clear() {
    changes.clear();
    num_vertices_before = num_vertices_after = 0;
  }
};

}  // namespace dyng
