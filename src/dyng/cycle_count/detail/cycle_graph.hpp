// The graph a cycle search reads: the stored out- and in-rows (sorted out-rows, no parallel
// edges), optionally overlaid to show the graph as it was before a batch: the batch's insertions
// hidden, its deletions put back. Self-loops are never shown (no simple cycle uses one).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/changed_pairs.hpp"

namespace dyng::cycle_count::detail {

using ::dyng::edge_pair_t;

template <class vid_t, class eid_t>
class cycle_graph_t {
 public:
  cycle_graph_t(const adjacency_view_t<vid_t, eid_t>& out, const adjacency_view_t<vid_t, eid_t>& in)
      : out_(out), in_(in) {}

  /// Shows the graph without `hidden` and with `extra` (both lists of (src, dst), copied).
  void set_overlay(const std::vector<edge_pair_t<vid_t>>& hidden,
                   const std::vector<edge_pair_t<vid_t>>& extra) {
    extra_by_src_ = extra;
    std::sort(extra_by_src_.begin(), extra_by_src_.end());
    extra_by_dst_.clear();
    for (const auto& [u, v] : extra) extra_by_dst_.push_back({v, u});
    std::sort(extra_by_dst_.begin(), extra_by_dst_.end());
    hidden_sorted_ = hidden;
    std::sort(hidden_sorted_.begin(), hidden_sorted_.end());
    // Most rows hide nothing: a flag spares their slots the binary search.
    changed_from_.assign(static_cast<size_t>(out_.num_vertices), 0);
    for (const auto& [u, v] : hidden) {
      if (u < out_.num_vertices) changed_from_[u] |= k_hides;
    }
    for (const auto& [u, v] : extra) {
      if (u < out_.num_vertices) changed_from_[u] |= k_adds;
    }
  }

  vid_t num_vertices() const { return out_.num_vertices; }

  /// f(y) for every out-neighbour y != x; returns the slots read.
  template <class F>
  int64_t for_each_out(vid_t x, F&& f) const {
    int64_t slots = 0;
    if (x < out_.num_vertices) {
      for (eid_t j = out_.begin(x); j < out_.end(x); ++j, ++slots) {
        const vid_t y = out_.neighbour(j);
        if (y != x && !hidden(x, y)) f(y);
      }
    }
    for_each_extra(extra_by_src_, x, f);
    return slots;
  }

  /// f(w) for every in-neighbour w != x; returns the slots read.
  template <class F>
  int64_t for_each_in(vid_t x, F&& f) const {
    int64_t slots = 0;
    if (x < in_.num_vertices) {
      for (eid_t j = in_.begin(x); j < in_.end(x); ++j, ++slots) {
        const vid_t w = in_.neighbour(j);
        if (w != x && !hidden(w, x)) f(w);
      }
    }
    for_each_extra(extra_by_dst_, x, f);
    return slots;
  }

  /// Whether the out-row shown for x (< num_vertices()) is the stored one: the overlay neither
  /// hides nor adds an edge out of x.
  bool shows_stored_row(vid_t x) const { return changed_from_.empty() || changed_from_[x] == 0; }

  /// The stored out-rows, self-loops included and any overlay ignored: x's row is
  /// stored_out_col()[first, last) for {first, last} = stored_out_slots(x). For a search that
  /// resumes a row where it left it (Johnson's), on rows that show as stored.
  const vid_t* stored_out_col() const { return out_.col; }
  std::pair<size_t, size_t> stored_out_slots(vid_t x) const {
    return {static_cast<size_t>(out_.begin(x)), static_cast<size_t>(out_.end(x))};
  }

  /// Whether (x, y) is an edge (x != y): a binary search of x's sorted out-row.
  bool has_edge(vid_t x, vid_t y) const {
    if (x == y) return false;
    if (x < out_.num_vertices) {
      const vid_t* first = out_.col + out_.begin(x);
      const vid_t* last = out_.col + out_.end(x);
      const vid_t* at = std::lower_bound(first, last, y);
      if (at != last && *at == y) return !hidden(x, y);
    }
    return !extra_by_src_.empty() &&
           std::binary_search(extra_by_src_.begin(), extra_by_src_.end(), edge_pair_t<vid_t>{x, y});
  }

 private:
  /// x < num_vertices().
  bool hidden(vid_t x, vid_t y) const {
    return !hidden_sorted_.empty() && (changed_from_[x] & k_hides) != 0 &&
           std::binary_search(hidden_sorted_.begin(), hidden_sorted_.end(),
                              edge_pair_t<vid_t>{x, y});
  }

  template <class F>
  static void for_each_extra(const std::vector<edge_pair_t<vid_t>>& extra, vid_t x, F&& f) {
    if (extra.empty()) return;
    auto at = std::lower_bound(extra.begin(), extra.end(), edge_pair_t<vid_t>{x, vid_t{0}});
    for (; at != extra.end() && at->first == x; ++at) {
      if (at->second != x) f(at->second);
    }
  }

  adjacency_view_t<vid_t, eid_t> out_;
  adjacency_view_t<vid_t, eid_t> in_;
  std::vector<edge_pair_t<vid_t>> hidden_sorted_;
  // Per vertex: whether the overlay hides (k_hides) or adds (k_adds) an edge out of it.
  static constexpr uint8_t k_hides = 1, k_adds = 2;
  std::vector<uint8_t> changed_from_;
  std::vector<edge_pair_t<vid_t>> extra_by_src_;
  std::vector<edge_pair_t<vid_t>> extra_by_dst_;
};

}  // namespace dyng::cycle_count::detail
