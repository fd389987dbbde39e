// Helpers shared by the graph test suites: building small graphs from literals and reading rows
// back as plain vectors so that expectations read like the spec.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace graph_test {

using g32_t = dyng::graph_t<int32_t, int32_t>;

/// One edge of a literal: src, dst and its weights.
struct lit_edge_t {
  int64_t src;
  int64_t dst;
  std::vector<int32_t> w;
};

inline dyng::graph_properties_t props(bool directed = true, int k = 1,
                                      dyng::edge_order_t order = dyng::edge_order_t::sorted,
                                      bool parallel = false) {
  dyng::graph_properties_t p;
  p.directed = directed;
  p.num_weights = k;
  p.order = order;
  p.allow_parallel_edges = parallel;
  return p;
}

template <class G = g32_t>
G make(int64_t n, const std::vector<lit_edge_t>& edges, const dyng::graph_properties_t& p) {
  using vid_t = typename G::vertex_type;
  std::vector<vid_t> src, dst;
  std::vector<int32_t> w;
  for (const auto& e : edges) {
    src.push_back(static_cast<vid_t>(e.src));
    dst.push_back(static_cast<vid_t>(e.dst));
    w.insert(w.end(), e.w.begin(), e.w.end());
  }
  return G::from_edges(static_cast<vid_t>(n), std::span<const vid_t>(src),
                       std::span<const vid_t>(dst), std::span<const int32_t>(w), p);
}

/// Row v of a view as (neighbour, weights) pairs in slot order.
template <class V>
std::vector<std::pair<int64_t, std::vector<int32_t>>> row(const V& view, int64_t v) {
  std::vector<std::pair<int64_t, std::vector<int32_t>>> out;
  for (auto e = view.begin(v); e < view.end(v); ++e) {
    std::vector<int32_t> w;
    for (int k = 0; k < view.num_weights; ++k) w.push_back(view.weight(e, k));
    out.push_back({static_cast<int64_t>(view.neighbour(e)), w});
  }
  return out;
}

using row_t = std::vector<std::pair<int64_t, std::vector<int32_t>>>;

/// A batch built from literals; owns its arrays so the spans stay valid.
template <class vid_t = int32_t>
struct batch_t {
  std::vector<vid_t> is, id, ds, dd;
  std::vector<int32_t> iw;
  int k = 1;

  batch_t& ins(int64_t u, int64_t v, std::vector<int32_t> w = {}) {
    is.push_back(static_cast<vid_t>(u));
    id.push_back(static_cast<vid_t>(v));
    iw.insert(iw.end(), w.begin(), w.end());
    return *this;
  }
  batch_t& del(int64_t u, int64_t v) {
    ds.push_back(static_cast<vid_t>(u));
    dd.push_back(static_cast<vid_t>(v));
    return *this;
  }
  dyng::edge_batch_t<vid_t> view() const {
    dyng::edge_batch_t<vid_t> b;
    b.insert_src = is;
    b.insert_dst = id;
    b.insert_weights = iw;
    b.num_weights = k;
    b.delete_src = ds;
    b.delete_dst = dd;
    return b;
  }
};

inline bool same_summary(const dyng::apply_summary_t& a, const dyng::apply_summary_t& b) {
  return a.inserted_edges == b.inserted_edges && a.updated_edges == b.updated_edges &&
         a.deleted_edges == b.deleted_edges && a.ignored_deletions == b.ignored_deletions &&
         a.dropped_self_loops == b.dropped_self_loops && a.cancelled_pairs == b.cancelled_pairs &&
         a.inserted_vertices == b.inserted_vertices && a.deleted_vertices == b.deleted_vertices &&
         a.num_vertices_after == b.num_vertices_after &&
         a.ignored_insertions == b.ignored_insertions;
}

/// The same vertex counts and the same effective changes in the same order (row edits aside).
template <class vid_t>
bool same_changes(const dyng::change_log_t<vid_t>& a, const dyng::change_log_t<vid_t>& b) {
  if (a.num_vertices_before != b.num_vertices_before ||
      a.num_vertices_after != b.num_vertices_after || a.changes.size() != b.changes.size()) {
    return false;
  }
  for (size_t i = 0; i < a.changes.size(); ++i) {
    if (a.changes[i].src != b.changes[i].src || a.changes[i].dst != b.changes[i].dst ||
        a.changes[i].kind != b.changes[i].kind) {
      return false;
    }
  }
  return true;
}

template <class C>
bool same_csr(const C& a, const C& b) {
  return a.row_ptr == b.row_ptr && a.col == b.col && a.weights == b.weights &&
         a.num_weights == b.num_weights;
}

/// The same rows at the same offsets with the same slots.
template <class vid_t, class eid_t>
bool same_direction(const dyng::adjacency_view_t<vid_t, eid_t>& a,
                    const dyng::adjacency_view_t<vid_t, eid_t>& b) {
  if (a.num_vertices != b.num_vertices || a.num_weights != b.num_weights) return false;
  const int k = a.num_weights;
  for (vid_t v = 0; v < a.num_vertices; ++v) {
    if (a.row_begin[v] != b.row_begin[v] || a.row_end[v] != b.row_end[v]) return false;
    for (eid_t s = a.row_begin[v]; s < a.row_end[v]; ++s) {
      if (a.col[s] != b.col[s]) return false;
      for (int j = 0; j < k; ++j) {
        if (a.weights[s * k + j] != b.weights[s * k + j]) return false;
      }
    }
  }
  return true;
}

/// The same storage slot for slot (offsets, capacities, relayouts, version), both directions.
template <class vid_t, class eid_t>
bool same_graph(const dyng::graph_t<vid_t, eid_t>& a, const dyng::graph_t<vid_t, eid_t>& b) {
  bool same = a.num_vertices() == b.num_vertices() && a.num_edges() == b.num_edges() &&
              a.slot_capacity() == b.slot_capacity() &&
              a.in_slot_capacity() == b.in_slot_capacity() &&
              a.relayout_count() == b.relayout_count() && a.version() == b.version() &&
              same_direction(a.out_view(), b.out_view());
  if (a.properties().directed && a.has_transposed()) {
    same = same && same_direction(a.in_view(), b.in_view());
  }
  return same;
}

/// Properties over every storage and semantics switch.
inline dyng::graph_properties_t random_props(std::mt19937_64& rng) {
  dyng::graph_properties_t p;
  p.directed = rng() % 4 != 0;
  p.store_transposed = rng() % 4 != 0;
  p.num_weights = static_cast<int>(rng() % 3);
  p.order = rng() % 2 ? dyng::edge_order_t::sorted : dyng::edge_order_t::append;
  p.allow_parallel_edges = rng() % 3 == 0;
  p.headroom = rng() % 3 == 0 ? 0.0 : 0.25;
  auto& sem = p.semantics;
  sem.as_sets = !p.allow_parallel_edges && rng() % 4 == 0;
  sem.deletions_first = rng() % 2 == 0;
  sem.allow_vertex_growth = rng() % 2 == 0;
  sem.on_existing_insert = rng() % 8 == 0 ? dyng::on_existing_insert_t::error
                           : rng() % 2    ? dyng::on_existing_insert_t::upsert
                                          : dyng::on_existing_insert_t::ignore;
  sem.on_missing_delete =
      rng() % 8 == 0 ? dyng::on_missing_delete_t::error : dyng::on_missing_delete_t::ignore;
  sem.on_self_loop = rng() % 8 == 0 ? dyng::on_self_loop_t::error
                     : rng() % 2    ? dyng::on_self_loop_t::keep
                                    : dyng::on_self_loop_t::drop;
  return p;
}

/// A random edge list for properties `p`: n vertices, m edges with hub columns (every seventh
/// edge ends in vertex 0..4), weights 1..9, no self-loop where `p` refuses them.
template <class vid_t>
struct random_edges_t {
  std::vector<vid_t> src, dst;
  std::vector<int32_t> w;
};

template <class vid_t>
random_edges_t<vid_t> random_edges(std::mt19937_64& rng, const dyng::graph_properties_t& p, vid_t n,
                                   int64_t m) {
  random_edges_t<vid_t> e;
  for (int64_t i = 0; i < m; ++i) {
    e.src.push_back(static_cast<vid_t>(rng() % n));
    e.dst.push_back(static_cast<vid_t>(rng() % (i % 7 == 0 ? 5 : n)));
    if (e.src.back() == e.dst.back() && p.semantics.on_self_loop == dyng::on_self_loop_t::error) {
      e.dst.back() = static_cast<vid_t>((e.dst.back() + 1) % n);
    }
    for (int j = 0; j < p.num_weights; ++j) e.w.push_back(static_cast<int32_t>(1 + rng() % 9));
  }
  return e;
}

/// The arrays of a drawn batch; batch() views them (edge_batch_t holds spans, so these must
/// outlive it).
template <class vid_t>
struct random_batch_t {
  std::vector<vid_t> is, id, ds, dd;
  std::vector<int32_t> iw;
  int k = 0;
  dyng::edge_batch_t<vid_t> batch() const { return {is, id, iw, k, ds, dd}; }
};

/// A mixed batch of `size` insertions (ids below `limit`, every fifth towards a hub) and as many
/// deletions, two in three of an edge of `edges` (which may be gone by now), the rest of random
/// pairs below `num_vertices`.
template <class vid_t>
random_batch_t<vid_t> random_batch(std::mt19937_64& rng, const random_edges_t<vid_t>& edges, int k,
                                   int64_t size, vid_t limit, vid_t num_vertices) {
  random_batch_t<vid_t> b;
  b.k = k;
  for (int64_t i = 0; i < size; ++i) {
    b.is.push_back(static_cast<vid_t>(rng() % limit));
    b.id.push_back(static_cast<vid_t>(rng() % (i % 5 == 0 ? 5 : limit)));
    for (int j = 0; j < k; ++j) b.iw.push_back(static_cast<int32_t>(1 + rng() % 9));
    const size_t e = rng() % edges.src.size();
    b.ds.push_back(rng() % 3 ? edges.src[e] : static_cast<vid_t>(rng() % num_vertices));
    b.dd.push_back(rng() % 3 ? edges.dst[e] : static_cast<vid_t>(rng() % num_vertices));
  }
  return b;
}

}  // namespace graph_test
