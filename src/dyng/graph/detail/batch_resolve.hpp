// Resolves a batch against a graph without writing anything (spec section 3): validates every
// entry, then replays the batch's deletions and insertions per edge in processing order, only
// counting copies, to decide which operations take effect and what the summary says. The result
// is a list of effective operations that Graph.apply() then writes; an error found here leaves
// the graph untouched.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/errors.hpp"
#include "dyng/graph/detail/compose.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::detail {

/// An effective edge operation; (src, dst) as the batch gave it.
template <class vid_t>
struct edge_op_t {
  vid_t src;
  vid_t dst;
  int64_t seq;   ///< Processing order within the batch.
  int64_t widx;  ///< Insertion index whose weights an insert/reweight writes.
  op_kind_t kind;
};

template <class vid_t>
struct resolved_batch_t {
  std::vector<edge_op_t<vid_t>> ops;  ///< In processing order.
  apply_summary_t summary;
  int64_t num_vertices_after = 0;
  int64_t insert_ops = 0;
  int64_t erase_ops = 0;
};

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

/// Replays the batch per edge key. `copies(u, v)` counts the stored copies of (u, v) (only
/// called for existing vertices). Throws invalid_argument_error for the first operation (in
/// processing order) that an 'error' mode rejects.
template <class vid_t, class copies_fn>
resolved_batch_t<vid_t> resolve_batch(const edge_batch_t<vid_t>& batch,
                                      const graph_properties_t& props, int64_t n,
                                      copies_fn&& copies) {
  const auto& sem = props.semantics;
  resolved_batch_t<vid_t> out;
  out.num_vertices_after = validate_batch(batch, props, n);
  auto& sum = out.summary;
  sum.num_vertices_after = out.num_vertices_after;
  sum.inserted_vertices = out.num_vertices_after - n;

  struct rec_t {
    vid_t a, b;     // key: (u, v), or (min, max) for an undirected graph
    int64_t seq;
    int64_t index;  // position in its list
    bool insert;
  };
  const int64_t nd = static_cast<int64_t>(batch.delete_src.size());
  const int64_t ni = static_cast<int64_t>(batch.insert_src.size());
  const int64_t del_base = sem.deletions_first ? 0 : ni;
  const int64_t ins_base = sem.deletions_first ? nd : 0;
  auto key = [&](vid_t u, vid_t v) {
    return (!props.directed && v < u) ? std::pair{v, u} : std::pair{u, v};
  };
  std::vector<rec_t> recs;
  recs.reserve(static_cast<size_t>(nd + ni));
  for (int64_t i = 0; i < nd; ++i) {
    const auto [a, b] = key(batch.delete_src[i], batch.delete_dst[i]);
    recs.push_back({a, b, del_base + i, i, false});
  }
  for (int64_t i = 0; i < ni; ++i) {
    const vid_t u = batch.insert_src[i];
    const vid_t v = batch.insert_dst[i];
    if (u == v && sem.on_self_loop == on_self_loop_t::drop) {
      ++sum.dropped_self_loops;
      continue;
    }
    const auto [a, b] = key(u, v);
    recs.push_back({a, b, ins_base + i, i, true});
  }
  std::sort(recs.begin(), recs.end(), [](const rec_t& x, const rec_t& y) {
    return x.a != y.a ? x.a < y.a : x.b != y.b ? x.b < y.b : x.seq < y.seq;
  });

  int64_t error_seq = std::numeric_limits<int64_t>::max();
  std::string error_text;
  auto reject = [&](const rec_t& r, const std::string& text) {
    if (r.seq < error_seq) {
      error_seq = r.seq;
      error_text = text;
    }
  };
  auto edge_text = [&](const rec_t& r) {
    const vid_t u = r.insert ? batch.insert_src[r.index] : batch.delete_src[r.index];
    const vid_t v = r.insert ? batch.insert_dst[r.index] : batch.delete_dst[r.index];
    return "(" + std::to_string(u) + ", " + std::to_string(v) + ")";
  };

  for (size_t g = 0; g < recs.size();) {
    size_t h = g;
    while (h < recs.size() && recs[h].a == recs[g].a && recs[h].b == recs[g].b) ++h;
    const vid_t a = recs[g].a;
    const vid_t b = recs[g].b;
    // An undirected edge is two stored copies unless it is a self-loop: counters count both.
    const int64_t mult = (!props.directed && a != b) ? 2 : 1;
    int64_t count = (a < n && b < n) ? copies(a, b) : 0;
    bool seen_insert = false, seen_delete = false, erased = false, inserted = false;
    for (size_t j = g; j < h; ++j) {
      const rec_t& r = recs[j];
      const vid_t u = r.insert ? batch.insert_src[r.index] : batch.delete_src[r.index];
      const vid_t v = r.insert ? batch.insert_dst[r.index] : batch.delete_dst[r.index];
      if (!r.insert) {
        // Under set semantics repeats within the batch collapse before anything is counted
        // (0.2 counts two insertions of one existing edge as one ignored insertion).
        if (sem.as_sets && seen_delete) continue;
        seen_delete = true;
        if (count > 0) {
          --count;
          erased = true;
          sum.deleted_edges += mult;
          out.ops.push_back({u, v, r.seq, -1, op_kind_t::erase});
        } else {
          if (sem.on_missing_delete == on_missing_delete_t::error) {
            reject(r, "deletion " + std::to_string(r.index) + " removes edge " + edge_text(r) +
                          ", which does not exist at that point of the batch; remove it or use "
                          "on_missing_delete='ignore'");
          }
          sum.ignored_deletions += mult;
        }
        continue;
      }
      if (sem.as_sets && seen_insert) continue;
      seen_insert = true;
      if (count == 0) {
        ++count;
        inserted = true;
        sum.inserted_edges += mult;
        out.ops.push_back({u, v, r.seq, r.index, op_kind_t::insert});
        continue;
      }
      switch (sem.on_existing_insert) {
        case on_existing_insert_t::upsert:
          sum.updated_edges += mult;
          out.ops.push_back({u, v, r.seq, r.index, op_kind_t::reweight});
          break;
        case on_existing_insert_t::ignore:
          sum.ignored_insertions += mult;
          break;
        case on_existing_insert_t::error:
          reject(r, "insertion " + std::to_string(r.index) + " adds edge " + edge_text(r) +
                        ", which already exists at that point of the batch; remove it or use "
                        "on_existing_insert='upsert' or 'ignore'");
          break;
      }
    }
    if (sem.as_sets && erased && inserted) sum.cancelled_pairs += mult;
    g = h;
  }
  if (!error_text.empty()) throw invalid_argument_error("Graph.apply(): " + error_text);

  std::sort(out.ops.begin(), out.ops.end(),
            [](const edge_op_t<vid_t>& x, const edge_op_t<vid_t>& y) { return x.seq < y.seq; });
  for (const auto& op : out.ops) {
    out.insert_ops += op.kind == op_kind_t::insert ? 1 : 0;
    out.erase_ops += op.kind == op_kind_t::erase ? 1 : 0;
  }
  return out;
}

}  // namespace dyng::detail
