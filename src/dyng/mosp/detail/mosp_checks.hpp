// The graph check every mosp entry point makes, host and device alike, in mosp's words.
#pragma once

#include "dyng/graph/graph.hpp"
#include "dyng/sssp/detail/sssp_checks.hpp"

namespace dyng::mosp::detail {

/// sssp's graph requirements (weighted, in-edges stored), worded for mosp.
template <class vid_t, class eid_t>
void check_graph(const graph_t<vid_t, eid_t>& graph, const char* fn) {
  sssp::detail::check_graph(graph, fn, "mosp",
                            "one weight column per objective (weights of shape (m, K))");
}

}  // namespace dyng::mosp::detail
