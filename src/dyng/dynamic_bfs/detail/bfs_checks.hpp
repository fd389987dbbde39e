// The graph shape dynamic_bfs needs, checked with one wording by the host and the device entry
// points.
#pragma once

#include <string>

#include "dyng/core/errors.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::dynamic_bfs::detail {

template <class vid_t, class eid_t>
void check_graph(const graph_t<vid_t, eid_t>& graph, const char* fn) {
  if (graph.properties().directed && !graph.has_transposed()) {
    throw invalid_argument_error(std::string(fn) + ": the graph keeps no in-edges, which "
                                 "dynamic_bfs reads to repair levels; build it with "
                                 "store_transposed=True");
  }
}

}  // namespace dyng::dynamic_bfs::detail
