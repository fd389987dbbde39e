// The graph a cycle search reads: the stored out- and in-rows (sorted out-rows, no parallel
// edges), optionally overlaid to show the graph as it was before a batch: the batch's insertions
// hidden, its deletions put back. Self-loops are never shown (no simple cycle uses one).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
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

  /// Shows the graph without `hidden` and with `extra` (both lists of (src, dst)); the lists
  /// must outlive this object.
  void set_overlay(const std::vector<edge_pair_t<vid_t>>& hidden,
                   const std::vector<edge_pair_t<vid_t>>& extra) {
    hidden_ = &hidden;
    extra_by_src_ = extra;
    std::sort(extra_by_src_.begin(), extra_by_src_.end());
    extra_by_dst_.clear();
    for (const auto& [u, v] : extra) extra_by_dst_.push_back({v, u});
    std::sort(extra_by_dst_.begin(), extra_by_dst_.end());
    hidden_sorted_ = hidden;
    std::sort(hidden_sorted_.begin(), hidden_sorted_.end());
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

  /// x's out-row as stored, self-loops included and any overlay ignored: for a search of the
  /// graph as stored that resumes a row where it left it (compute's Johnson search).
  std::span<const vid_t> stored_out_row(vid_t x) const {
    return {out_.col + out_.begin(x), static_cast<size_t>(out_.degree(x))};
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
  bool hidden(vid_t x, vid_t y) const {
    return hidden_ != nullptr && !hidden_sorted_.empty() &&
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
  const std::vector<edge_pair_t<vid_t>>* hidden_ = nullptr;
  std::vector<edge_pair_t<vid_t>> hidden_sorted_;
  std::vector<edge_pair_t<vid_t>> extra_by_src_;
  std::vector<edge_pair_t<vid_t>> extra_by_dst_;
};

}  // namespace dyng::cycle_count::detail
