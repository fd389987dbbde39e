// The checks of a batch that need no graph content (spec section 3): list shapes, weight counts,
// id ranges, self-loops under on_self_loop='error', and ids the vertex type cannot grow to. The
// host resolve (batch_resolve.hpp) and the device graph's apply (cuda/device_apply.cu) both run
// them first, so a batch is refused with the same message wherever it is applied.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "dyng/core/errors.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::detail {

/// Checks shapes, weights and ids; throws invalid_argument_error / capacity_error naming the
/// first offending entry. Returns the vertex count after growth.
template <class vid_t>
int64_t validate_batch(const edge_batch_t<vid_t>& batch, const graph_properties_t& props,
                       int64_t n) {
  const std::string fn = "Graph.apply(): ";
  const auto& sem = props.semantics;
  if (batch.insert_src.size() != batch.insert_dst.size()) {
    throw invalid_argument_error(fn + "insert_src has " + std::to_string(batch.insert_src.size()) +
                                 " ids but insert_dst has " +
                                 std::to_string(batch.insert_dst.size()) +
                                 "; pass one destination per source");
  }
  if (batch.delete_src.size() != batch.delete_dst.size()) {
    throw invalid_argument_error(fn + "delete_src has " + std::to_string(batch.delete_src.size()) +
                                 " ids but delete_dst has " +
                                 std::to_string(batch.delete_dst.size()) +
                                 "; pass one destination per source");
  }
  const int64_t ni = static_cast<int64_t>(batch.insert_src.size());
  const int k = props.num_weights;
  if (ni > 0) {
    if (batch.num_weights != k) {
      throw invalid_argument_error(fn + "the insertions carry " +
                                   std::to_string(batch.num_weights) +
                                   " weights per edge but the graph has " + std::to_string(k) +
                                   "; pass exactly num_weights weights per insertion");
    }
  }
  if (static_cast<int64_t>(batch.insert_weights.size()) != ni * k &&
      !(ni == 0 && batch.insert_weights.empty())) {
    throw invalid_argument_error(fn + "got " + std::to_string(batch.insert_weights.size()) +
                                 " insertion weights for " + std::to_string(ni) +
                                 " insertions with num_weights " + std::to_string(k) +
                                 "; pass insertions * num_weights values");
  }
  if (ni == 0 && !batch.insert_weights.empty()) {
    throw invalid_argument_error(fn + "got " + std::to_string(batch.insert_weights.size()) +
                                 " insertion weights but no insertions; pass no weights");
  }

  int64_t max_id = -1;
  auto check = [&](std::span<const vid_t> ids, const char* what, const char* end) {
    for (size_t i = 0; i < ids.size(); ++i) {
      const int64_t id = ids[i];
      if (id < 0) {
        throw invalid_argument_error(fn + what + " " + std::to_string(i) + " has " + end +
                                     " id " + std::to_string(id) + "; vertex ids must be >= 0");
      }
      if (id >= n && !sem.allow_vertex_growth) {
        throw invalid_argument_error(fn + what + " " + std::to_string(i) + " has " + end +
                                     " id " + std::to_string(id) + " but the graph has " +
                                     std::to_string(n) +
                                     " vertices and allow_vertex_growth is off; use ids below " +
                                     std::to_string(n) + " or allow vertex growth");
      }
    }
  };
  check(batch.delete_src, "deletion", "source");
  check(batch.delete_dst, "deletion", "destination");
  check(batch.insert_src, "insertion", "source");
  check(batch.insert_dst, "insertion", "destination");
  for (int64_t i = 0; i < ni; ++i) {
    const vid_t u = batch.insert_src[i];
    const vid_t v = batch.insert_dst[i];
    if (u == v) {
      if (sem.on_self_loop == on_self_loop_t::error) {
        throw invalid_argument_error(fn + "insertion " + std::to_string(i) + " is a self-loop (" +
                                     std::to_string(u) + ", " + std::to_string(u) +
                                     ") and on_self_loop is 'error'; remove it or use "
                                     "on_self_loop='keep' or 'drop'");
      }
      if (sem.on_self_loop == on_self_loop_t::drop) continue;  // dropped: does not grow n
    }
    max_id = std::max<int64_t>(max_id, std::max<int64_t>(u, v));
  }
  if (max_id >= static_cast<int64_t>(std::numeric_limits<vid_t>::max())) {
    // 0.2 reports this as a bad argument (the id is one the graph's type cannot grow to).
    throw invalid_argument_error(fn + "insertion id " + std::to_string(max_id) +
                                 " would give the graph " + std::to_string(max_id) +
                                 " + 1 vertices, more than its " +
                                 std::to_string(sizeof(vid_t) * 8) +
                                 "-bit vertex ids can number; build the graph with "
                                 "vertex_dtype='int64' to use such ids");
  }
  return std::max(n, max_id + 1);
}

/// One more than the largest id the batch names, and at least `n_after`: the bound of the keys
/// a resolve sorts. Deletions may name ids at or past the vertex count (they are ignored, and do
/// not grow the graph), so the vertex count alone does not bound them.
template <class vid_t>
int64_t batch_id_bound(const edge_batch_t<vid_t>& batch, int64_t n_after) {
  int64_t bound = n_after;
  for (size_t i = 0; i < batch.delete_src.size(); ++i) {
    const int64_t larger = std::max<int64_t>(batch.delete_src[i], batch.delete_dst[i]);
    bound = std::max<int64_t>(bound, larger + 1);
  }
  return bound;
}

}  // namespace dyng::detail
