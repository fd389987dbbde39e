// Checks that given distances and parents are exactly a shortest-path result (Result.from_arrays
// with validate_inputs): one pass over the in-edges, no search.
//
// With weights >= 1, distances d are the shortest distances from s exactly when
//   1. d[s] == 0;
//   2. no edge relaxes: d[v] <= d[u] + w(u, v) for every edge whose tail u is reachable, so no
//      vertex is farther than a path says (and none reachable is marked unreachable);
//   3. every reachable v != s has a tight in-edge, d[u] + w(u, v) == d[v]: following tight edges
//      strictly lowers d, so it ends at s, and d[v] is the length of a real path.
// The parents must then be a tight in-neighbour for each reachable v != s and -1 elsewhere; the
// tight in-edge of 3 is the parent's edge, so 3 is checked through the parents.
#pragma once

#include <cstdint>
#include <string>

#include "dyng/core/errors.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/detail/sssp_common.hpp"

namespace dyng::sssp::detail {

template <class vid_t, class eid_t>
void check_result_certificate(const adjacency_view_t<vid_t, eid_t>& in, weight_column_t w,
                              const int64_t* dist, const vid_t* parents, vid_t source,
                              bool canonicalized, const char* fn) {
  const std::string prefix = std::string(fn) + ": ";
  const std::string skip = " (validate_inputs=False skips this check)";
  const std::string hint = "; pass the shortest distances from the source" + skip;
  auto reachable = [&](vid_t v) { return dist[v] < k_infinite_distance / 2; };
  if (dist[source] != 0) {
    throw invalid_argument_error(prefix + "distances[" + std::to_string(source) +
                                 "] = " + std::to_string(dist[source]) + " but the source " +
                                 std::to_string(source) + " must be at distance 0" + hint);
  }
  // Why reachable v has no tight parent p: after canonicalize_parents, p == -1 means no in-edge
  // is tight at all, so the distance itself is wrong; otherwise the given parent is.
  auto untight_parent_text = [&](vid_t v, vid_t p) {
    const std::string sv = std::to_string(v), dv = std::to_string(dist[v]);
    if (p < 0 && canonicalized) {
      return "distances[" + sv + "] = " + dv + " is not the length of a path: no in-edge (u, " +
             sv + ") has distances[u] + weight == " + dv + hint;
    }
    if (p < 0) {
      return "vertex " + sv + " is at distance " + dv + " but parents[" + sv +
             "] = -1; a reachable vertex needs a tight in-neighbour as parent" + skip;
    }
    const std::string sp = std::to_string(p);
    return "parents[" + sv + "] = " + sp + " is not a tight in-neighbour (no edge (" + sp + ", " +
           sv + ") with distances[" + sp + "] + weight == distances[" + sv + "] = " + dv +
           "); pass a tight in-neighbour or canonicalize=True" + skip;
  };
  for (vid_t v = 0; v < in.num_vertices; ++v) {
    const vid_t p = parents[v];
    if ((v == source || !reachable(v)) && p != -1) {
      throw invalid_argument_error(prefix + "parents[" + std::to_string(v) +
                                   "] = " + std::to_string(p) + " but vertex " + std::to_string(v) +
                                   (v == source ? " is the source" : " is unreachable") +
                                   ", which has no parent; use -1" + skip);
    }
    bool parent_tight = false;
    for (eid_t slot = in.begin(v); slot < in.end(v); ++slot) {
      const vid_t u = in.neighbour(slot);
      if (!reachable(u)) continue;
      const int64_t through_u = dist[u] + w(slot);
      if (through_u < dist[v]) {
        throw invalid_argument_error(
            prefix + "distances[" + std::to_string(v) +
            "] = " + (reachable(v) ? std::to_string(dist[v]) : std::string("unreachable")) +
            " is not the shortest: the edge (" + std::to_string(u) + ", " + std::to_string(v) +
            ") gives " + std::to_string(through_u) + hint);
      }
      parent_tight = parent_tight || (u == p && through_u == dist[v]);
    }
    if (v != source && reachable(v) && !parent_tight) {
      throw invalid_argument_error(prefix + untight_parent_text(v, p));
    }
  }
}

}  // namespace dyng::sssp::detail
