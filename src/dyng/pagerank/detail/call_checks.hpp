// The checks of pagerank's own arguments, one wording for compute and update.
#pragma once

#include <cstdint>
#include <string>

#include "dyng/core/errors.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/pagerank/pagerank.hpp"

namespace dyng::pagerank::detail {

inline void check_options(const options_t& options, const char* fn) {
  const std::string f(fn);
  if (!(options.alpha >= 0.0 && options.alpha < 1.0)) {
    throw invalid_argument_error(f + ": alpha is " + std::to_string(options.alpha) +
                                 "; pass a damping factor in [0, 1)");
  }
  if (!(options.tol > 0.0)) {
    throw invalid_argument_error(f + ": tol is " + std::to_string(options.tol) +
                                 "; pass a positive tolerance");
  }
  if (options.max_iter < 1) {
    throw invalid_argument_error(f + ": max_iter is " + std::to_string(options.max_iter) +
                                 "; pass at least 1");
  }
}

/// Weighted PageRank reads the first weight column; the GPU checks its values on the device.
inline void require_weight_column(int num_weights, const options_t& options, const char* fn) {
  if (!options.weighted || num_weights >= 1) return;
  throw invalid_argument_error(std::string(fn) +
                               ": weighted is set but the graph has no edge weights; build it "
                               "with weights or pass weighted=False");
}

/// Weighted PageRank reads the first weight column, whose values must be non-negative (a negative
/// one is no transition probability).
template <class vid_t, class eid_t>
void check_weights(const graph_t<vid_t, eid_t>& graph, const options_t& options, const char* fn) {
  if (!options.weighted) return;
  require_weight_column(graph.num_weights(), options, fn);
  const auto out = graph.out_view();
  for (vid_t u = 0; u < out.num_vertices; ++u) {
    for (eid_t s = out.begin(u); s < out.end(u); ++s) {
      if (out.weight(s, 0) >= 0) continue;
      throw invalid_argument_error(std::string(fn) + ": edge " + std::to_string(u) + " -> " +
                                   std::to_string(out.neighbour(s)) + " has weight " +
                                   std::to_string(out.weight(s, 0)) +
                                   "; weighted PageRank needs non-negative weights");
    }
  }
}

template <class vid_t, class eid_t>
void check_call(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, const char* fn) {
  check_host_backend(exec, fn);
  check_options(options, fn);
  require_in_edges(graph, fn, "pagerank");
  check_weights(graph, options, fn);
}

}  // namespace dyng::pagerank::detail
