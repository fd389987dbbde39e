// The input checks of sssp, one wording for every backend: the host entry points
// (host_entry.hpp), the device-graph layer (sssp_cuda_entry.cpp) and the raw GPU API
// (sssp_cuda*.cu) all throw from here, and the Python layer leaves these checks to them.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "dyng/core/argument_checks.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/sssp/detail/sssp_common.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::sssp::detail {

/// The graph shape sssp needs on any backend, and the algorithms built on its trees (mosp):
/// weights (not_supported_error: the unweighted types are another compiled type) and in-edges
/// (invalid_argument_error). `algorithm` and `weights` word the messages.
template <class vid_t, class eid_t>
void check_graph(const graph_t<vid_t, eid_t>& graph, const char* fn, const char* algorithm = "sssp",
                 const char* weights = "a weighted graph (num_weights >= 1)") {
  if (graph.num_weights() == 0) {
    throw not_supported_error(std::string(fn) + ": the graph is unweighted; " + algorithm +
                              " needs " + weights + ", so build it with weights");
  }
  if (!graph.has_transposed()) {  // an argument error, as in 0.2 (undirected graphs too)
    throw invalid_argument_error(std::string(fn) + ": the graph keeps no in-edges, which " +
                                 algorithm +
                                 " needs for its parents; build the graph with "
                                 "store_transposed=True");
  }
}

inline void check_objective(int objective, int num_weights, const char* fn) {
  if (objective < 0 || objective >= num_weights) {
    throw invalid_argument_error(std::string(fn) + ": objective " + std::to_string(objective) +
                                 " is not a weight column of this graph, which has " +
                                 std::to_string(num_weights) + "; pass an objective in [0, " +
                                 std::to_string(num_weights) + ")");
  }
}

inline void check_options(const options_t& options, int num_weights, const char* fn) {
  if (options.delta < 0) {
    throw invalid_argument_error(std::string(fn) + ": delta " + std::to_string(options.delta) +
                                 " is negative; pass 0 to choose it from the weights or a "
                                 "positive bucket width");
  }
  check_objective(options.objective, num_weights, fn);
}

template <class vid_t>
void check_source(vid_t source, vid_t n, const char* fn) {
  check_vertex_id(static_cast<int64_t>(source), static_cast<int64_t>(n), fn, "source");
}

/// The message for an edge whose objective weight is below 1.
template <class vid_t>
[[noreturn]] void throw_bad_weight(const char* fn, vid_t src, vid_t dst, int64_t weight,
                                   int objective) {
  throw invalid_argument_error(
      std::string(fn) + ": edge (" + std::to_string(src) + ", " + std::to_string(dst) +
      ") has weight " + std::to_string(weight) + " in objective column " +
      std::to_string(objective) +
      "; sssp needs weights in [1, 2^31-1], so fix the weights or choose another objective");
}

/// Throws for a scanned range whose smallest weight is below 1, naming that edge.
template <class vid_t, class eid_t>
void check_weight_range(const weight_range_t<vid_t, eid_t>& range,
                        const adjacency_view_t<vid_t, eid_t>& out, int objective, const char* fn) {
  if (range.min_slot >= 0 && range.min_weight < 1) {
    throw_bad_weight(fn, range.min_src, out.neighbour(range.min_slot), range.min_weight, objective);
  }
}

/// Scans the objective column and throws for a weight < 1, naming the edge. Returns the range.
template <class vid_t, class eid_t>
weight_range_t<vid_t, eid_t> checked_weight_range(const adjacency_view_t<vid_t, eid_t>& out,
                                                  int objective, const char* fn) {
  weight_range_t<vid_t, eid_t> range;
  scan_weights(out, column_of(out, objective), vid_t{0}, out.num_vertices, range);
  check_weight_range(range, out, objective, fn);
  return range;
}

/// The first `k` columns checked in one pass over the slot-major weights (mosp's from_trees):
/// the same ranges, and the same error for the lowest bad column, as checked_weight_range() on
/// each column in turn, which would read every weight k times.
template <class vid_t, class eid_t>
void check_weight_columns(const adjacency_view_t<vid_t, eid_t>& out, int k, const char* fn) {
  std::vector<weight_range_t<vid_t, eid_t>> ranges(static_cast<size_t>(k));
  std::vector<int32_t> row_min(static_cast<size_t>(k));
  for (vid_t u = 0; u < out.num_vertices; ++u) {
    const eid_t begin = out.begin(u), end = out.end(u);
    if (begin == end) continue;
    std::fill(row_min.begin(), row_min.end(), INT32_MAX);
    for (eid_t slot = begin; slot < end; ++slot) {
      const int32_t* w = out.weights + static_cast<int64_t>(slot) * out.num_weights;
      for (int i = 0; i < k; ++i) row_min[i] = w[i] < row_min[i] ? w[i] : row_min[i];
    }
    for (int i = 0; i < k; ++i) {
      auto& range = ranges[static_cast<size_t>(i)];
      if (row_min[i] >= range.min_weight) continue;
      range.min_weight = row_min[i];
      range.min_src = u;
      range.min_slot = begin;
      while (out.weight(range.min_slot, i) != row_min[i]) ++range.min_slot;
    }
  }
  for (int i = 0; i < k; ++i) check_weight_range(ranges[static_cast<size_t>(i)], out, i, fn);
}

}  // namespace dyng::sssp::detail
