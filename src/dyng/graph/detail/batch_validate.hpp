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
#include "dyng/graph/weight_fault.hpp"

namespace dyng::detail {

/// An entry a check refuses: its index in its array (-1: none) and the id there.
struct id_fault_t {
  int64_t index = -1;
  int64_t id = 0;
};

/// The id arrays of a batch in the order their checks report: deletion sources, deletion
/// destinations, insertion sources, insertion destinations.
enum : int { k_delete_src, k_delete_dst, k_insert_src, k_insert_dst, k_id_arrays };

/// What the id checks of a batch read from its ids, found in one pass: by scan_batch_ids() for a
/// host batch and by the staging kernel for one in device memory (cuda/device_batch.hpp), then
/// judged by check_batch_ids(), so that both are refused with the same message.
struct batch_id_facts_t {
  /// Per id array, the first id < 0, or >= n when vertex growth is off.
  id_fault_t bad[k_id_arrays];
  id_fault_t first_self_loop;  ///< The first insertion (u, u); id = u.
  int64_t self_loops = 0;      ///< Insertions (u, u).
  int64_t max_insert_id = -1;  ///< Largest id of an insertion not dropped as a self-loop.
  int64_t max_delete_id = -1;  ///< Largest id a deletion names.
};

/// Whether id `id` is refused in a graph of `n` vertices (negative, or new without growth).
inline bool refused_id(int64_t id, int64_t n, bool growth) {
  return id < 0 || (id >= n && !growth);
}

template <class vid_t>
batch_id_facts_t scan_batch_ids(const edge_batch_t<vid_t>& batch, const graph_properties_t& props,
                                int64_t n) {
  const auto& sem = props.semantics;
  const bool growth = sem.allow_vertex_growth;
  batch_id_facts_t facts;
  const std::span<const vid_t> arrays[k_id_arrays] = {batch.delete_src, batch.delete_dst,
                                                      batch.insert_src, batch.insert_dst};
  for (int a = 0; a < k_id_arrays; ++a) {
    for (size_t i = 0; i < arrays[a].size(); ++i) {
      if (refused_id(arrays[a][i], n, growth)) {
        facts.bad[a] = {static_cast<int64_t>(i), static_cast<int64_t>(arrays[a][i])};
        break;
      }
    }
  }
  for (size_t i = 0; i < batch.delete_src.size(); ++i) {
    facts.max_delete_id = std::max<int64_t>(
        facts.max_delete_id, std::max<int64_t>(batch.delete_src[i], batch.delete_dst[i]));
  }
  const bool drop = sem.on_self_loop == on_self_loop_t::drop;
  for (size_t i = 0; i < batch.insert_src.size(); ++i) {
    const vid_t u = batch.insert_src[i];
    const vid_t v = batch.insert_dst[i];
    if (u == v) {
      if (facts.first_self_loop.index < 0) facts.first_self_loop = {static_cast<int64_t>(i), u};
      ++facts.self_loops;
      if (drop) continue;  // dropped: does not grow n
    }
    facts.max_insert_id = std::max<int64_t>(facts.max_insert_id, std::max<int64_t>(u, v));
  }
  return facts;
}

/// Throws for the first refused id (in the order of batch_id_facts_t::bad), a self-loop under
/// on_self_loop='error', or an id the vertex type cannot grow to; returns the vertex count after
/// growth. `vertex_bits` is the width of the graph's ids.
inline int64_t check_batch_ids(const batch_id_facts_t& facts, const graph_properties_t& props,
                               int64_t n, int vertex_bits) {
  const std::string fn = "Graph.apply(): ";
  const auto& sem = props.semantics;
  static const char* const what[k_id_arrays] = {"deletion", "deletion", "insertion", "insertion"};
  static const char* const end[k_id_arrays] = {"source", "destination", "source", "destination"};
  for (int a = 0; a < k_id_arrays; ++a) {
    const id_fault_t& f = facts.bad[a];
    if (f.index < 0) continue;
    const std::string at = fn + what[a] + " " + std::to_string(f.index) + " has " + end[a] +
                           " id " + std::to_string(f.id);
    if (f.id < 0) throw invalid_argument_error(at + "; vertex ids must be >= 0");
    throw invalid_argument_error(at + " but the graph has " + std::to_string(n) +
                                 " vertices and allow_vertex_growth is off; use ids below " +
                                 std::to_string(n) + " or allow vertex growth");
  }
  if (sem.on_self_loop == on_self_loop_t::error && facts.first_self_loop.index >= 0) {
    const std::string u = std::to_string(facts.first_self_loop.id);
    throw invalid_argument_error(fn + "insertion " + std::to_string(facts.first_self_loop.index) +
                                 " is a self-loop (" + u + ", " + u +
                                 ") and on_self_loop is 'error'; remove it or use "
                                 "on_self_loop='keep' or 'drop'");
  }
  const int64_t max_id = facts.max_insert_id;
  const int64_t id_max = vertex_bits >= 64 ? std::numeric_limits<int64_t>::max()
                                           : (int64_t{1} << (vertex_bits - 1)) - 1;
  if (max_id >= id_max) {
    // 0.2 reports this as a bad argument (the id is one the graph's type cannot grow to).
    throw invalid_argument_error(fn + "insertion id " + std::to_string(max_id) +
                                 " would give the graph " + std::to_string(max_id) +
                                 " + 1 vertices, more than its " + std::to_string(vertex_bits) +
                                 "-bit vertex ids can number; build the graph with "
                                 "vertex_dtype='int64' to use such ids");
  }
  return std::max(n, max_id + 1);
}

template <class vid_t>
int64_t check_batch_ids(const batch_id_facts_t& facts, const graph_properties_t& props, int64_t n) {
  return check_batch_ids(facts, props, n, static_cast<int>(sizeof(vid_t) * 8));
}

/// The first insertion whose weight in `column` is below 1 (weight_fault.hpp).
template <class vid_t>
weight_fault_t first_weight_below_one(const edge_batch_t<vid_t>& batch, int column) {
  const auto k = static_cast<size_t>(batch.num_weights);
  const size_t insertions = k == 0 ? 0 : batch.insert_weights.size() / k;
  for (size_t i = 0; i < insertions; ++i) {
    const int32_t w = batch.insert_weights[i * k + static_cast<size_t>(column)];
    if (w >= 1) continue;
    weight_fault_t f{static_cast<int64_t>(i), -1, -1, w};
    if (i < batch.insert_src.size() && i < batch.insert_dst.size()) {
      f.u = batch.insert_src[i];
      f.v = batch.insert_dst[i];
    }
    return f;
  }
  return {};
}

/// The checks of a batch's shapes: list lengths and the weights' count.
inline void check_batch_shapes(int64_t insert_src, int64_t insert_dst, int64_t delete_src,
                               int64_t delete_dst, int batch_weights, int64_t weight_values,
                               const graph_properties_t& props) {
  const std::string fn = "Graph.apply(): ";
  if (insert_src != insert_dst) {
    throw invalid_argument_error(fn + "insert_src has " + std::to_string(insert_src) +
                                 " ids but insert_dst has " + std::to_string(insert_dst) +
                                 "; pass one destination per source");
  }
  if (delete_src != delete_dst) {
    throw invalid_argument_error(fn + "delete_src has " + std::to_string(delete_src) +
                                 " ids but delete_dst has " + std::to_string(delete_dst) +
                                 "; pass one destination per source");
  }
  const int64_t ni = insert_src;
  const int k = props.num_weights;
  if (ni > 0 && batch_weights != k) {
    throw invalid_argument_error(fn + "the insertions carry " + std::to_string(batch_weights) +
                                 " weights per edge but the graph has " + std::to_string(k) +
                                 "; pass exactly num_weights weights per insertion");
  }
  if (weight_values != ni * k && !(ni == 0 && weight_values == 0)) {
    throw invalid_argument_error(fn + "got " + std::to_string(weight_values) +
                                 " insertion weights for " + std::to_string(ni) +
                                 " insertions with num_weights " + std::to_string(k) +
                                 "; pass insertions * num_weights values");
  }
  if (ni == 0 && weight_values != 0) {
    throw invalid_argument_error(fn + "got " + std::to_string(weight_values) +
                                 " insertion weights but no insertions; pass no weights");
  }
}

/// A batch that passed validate_batch(): the vertex count after growth, and what the id scan
/// found (for the key bound of its sort and the self-loops a 'drop' removes).
struct validated_batch_t {
  int64_t num_vertices_after = 0;
  batch_id_facts_t ids;
};

/// Checks shapes, weights and ids; throws invalid_argument_error / capacity_error naming the
/// first offending entry.
template <class vid_t>
validated_batch_t validate_batch(const edge_batch_t<vid_t>& batch, const graph_properties_t& props,
                                 int64_t n) {
  check_batch_shapes(
      static_cast<int64_t>(batch.insert_src.size()), static_cast<int64_t>(batch.insert_dst.size()),
      static_cast<int64_t>(batch.delete_src.size()), static_cast<int64_t>(batch.delete_dst.size()),
      batch.num_weights, static_cast<int64_t>(batch.insert_weights.size()), props);
  validated_batch_t out;
  out.ids = scan_batch_ids(batch, props, n);
  out.num_vertices_after = check_batch_ids<vid_t>(out.ids, props, n);
  return out;
}

/// One more than the largest id the batch names, and at least `n_after`: the bound of the keys
/// a resolve sorts. Deletions may name ids at or past the vertex count (they are ignored, and do
/// not grow the graph), so the vertex count alone does not bound them.
inline int64_t batch_id_bound(const batch_id_facts_t& facts, int64_t n_after) {
  return std::max<int64_t>(n_after, facts.max_delete_id + 1);
}

}  // namespace dyng::detail
