// The argument checks every backend's components entry points make, with one wording: a strong
// kind needs a directed graph, a directed graph needs its in-edges (the searches read them), and
// an update keeps the kind its result was computed with.
#pragma once

#include <string>

#include "dyng/components/components.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::components::detail {

inline const char* kind_name(kind_t kind) { return kind == kind_t::strong ? "strong" : "weak"; }

template <class vid_t, class eid_t>
void check_graph(const graph_t<vid_t, eid_t>& graph, const options_t& options, const char* fn) {
  if (options.kind == kind_t::strong && !graph.properties().directed) {
    throw invalid_argument_error(std::string(fn) +
                                 ": kind \"strong\" needs a directed graph, and this one is "
                                 "undirected; use kind=\"weak\" (its connected components)");
  }
  require_in_edges(graph, fn, "components");
}

/// Refuses an update whose options ask for another kind than the result holds.
inline void check_kind(kind_t held, const options_t& options, const char* fn) {
  if (options.kind == held) return;
  throw invalid_argument_error(std::string(fn) + ": the result holds " + kind_name(held) +
                               " components, the options ask for " + kind_name(options.kind) +
                               "; pass the kind the result was computed with");
}

}  // namespace dyng::components::detail
