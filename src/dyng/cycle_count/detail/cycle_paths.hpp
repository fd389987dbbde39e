// Counting simple paths from s to t by length, the engine of both compute and update: a cycle is
// a path back to its root (compute: s = t = the cycle's smallest vertex, every other vertex
// larger) or a path closing a changed edge (update: s = v, t = u for the edge (u, v)).
//
// A bounded depth-first search (as in the bounded variants of Johnson's algorithm: D. B. Johnson,
// "Finding all the elementary circuits of a directed graph", SIAM J. Comput. 1975; J. Blanusa,
// K. Atasu, P. Ienne, "Fast parallel algorithms for enumeration of simple, temporal, and
// hop-constrained cycles", ACM TOPC 2023) with two savings that keep it exact:
//  - the last two edges are counted, not walked: c2[x] = the number of x -> w -> t with w an
//    allowed intermediate vertex, built once per search from t's in-rows; at a path vertex x
//    the paths of one more edge are c2[x] minus the w already on the path (a handful of edge
//    lookups), so the search walks paths two edges shorter than the cycles it counts;
//  - a reverse breadth-first search from t gives every vertex its distance to t through allowed
//    vertices, and the search never enters a vertex that cannot close within the bound.
// The stack is explicit (an unbounded count may go as deep as n) and its child lists share one
// array, the out-rows of the path's vertices: memory stays O(n + m) whatever the number of paths.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "dyng/backend/cancel.hpp"
#include "dyng/cycle_count/detail/histogram.hpp"

namespace dyng::cycle_count::detail {

template <class G>
class path_counter_t {
 public:
  using vid_t = decltype(std::declval<const G&>().num_vertices());

  /// A counter for a graph of n vertices; its searches stop early once `cancel` is requested.
  path_counter_t(int64_t n, cancel_token_t cancel)
      : cancel_(cancel),
        dist_(static_cast<size_t>(n), k_far),
        c2_(static_cast<size_t>(n), 0),
        closes_(static_cast<size_t>(n), 0),
        on_path_(static_cast<size_t>(n), 0) {}

  /// Adds the simple s -> t paths of 1..max_edges edges (at least 2 when s == t) into
  /// hist[edges + offset]. Intermediate vertices pass inner(w) and differ from s and t; edges
  /// pass edge_ok(x, y). Returns false, with hist partly filled, once the work (path vertices
  /// plus row slots read) passes `limit` or the caller asked to stop; work() then says how much
  /// was done.
  template <class inner_t, class edge_ok_t>
  bool count(const G& g, vid_t s, vid_t t, int64_t max_edges, int offset, inner_t&& inner,
             edge_ok_t&& edge_ok, std::vector<uint64_t>& hist, int64_t limit) {
    work_ = 0;
    limit_ = limit;
    if (max_edges < 1) return true;
    auto is_inner = [&](vid_t w) { return w != s && w != t && inner(w); };
    prepare(g, t, max_edges, is_inner, edge_ok);
    const bool done = search(g, s, t, max_edges, offset, is_inner, edge_ok, hist);
    reset();
    return done;
  }

  int64_t work() const { return work_; }

  /// count() for a cycle's root split into work items, so that a hub root's search is shared
  /// out instead of keeping one thread busy after the others are done: begin_root(root) once per
  /// root and thread, root_item() for the cycles through the root and one other vertex, and
  /// child_item(y) for those whose first edge is (root, y) (false, with hist partly filled, once
  /// the caller asked to stop); the counter stays prepared for its root until begin_root()
  /// moves it on or finish() clears it. work() adds up over the items.
  void begin_root(const G& g, vid_t root, int64_t bound) {
    if (prepared_ && root_ == root) return;
    finish();
    root_ = root;
    bound_ = bound;
    prepared_ = true;
    limit_ = std::numeric_limits<int64_t>::max();
    auto is_inner = [root](vid_t w) { return w > root; };
    auto any_edge = [](vid_t, vid_t) { return true; };
    prepare(g, root, bound, is_inner, any_edge);
  }

  bool root_item(const G& g, std::vector<uint64_t>& hist) {
    auto is_inner = [root = root_](vid_t w) { return w > root; };
    auto any_edge = [](vid_t, vid_t) { return true; };
    path_.assign(1, root_);
    on_path_[root_] = 1;
    const bool done = visit(g, root_, 0, bound_, 0, is_inner, any_edge, hist, false);
    on_path_[root_] = 0;
    path_.clear();
    return done;
  }

  bool child_item(const G& g, vid_t y, std::vector<uint64_t>& hist) {
    auto is_inner = [root = root_](vid_t w) { return w > root; };
    auto any_edge = [](vid_t, vid_t) { return true; };
    // The filter visit() applies to the root's children.
    if (bound_ < 3 || y == root_ || !is_inner(y) || dist_[y] > bound_ - 1) return true;
    path_.assign({root_, y});
    on_path_[root_] = on_path_[y] = 1;
    kids_.clear();
    const bool done = visit(g, y, 1, bound_, 0, is_inner, any_edge, hist) &&
                      descend(g, 2, bound_, 0, is_inner, any_edge, hist);
    for (const vid_t v : path_) on_path_[v] = 0;
    path_.clear();
    return done;
  }

  void finish() {
    if (prepared_) reset();
    prepared_ = false;
  }

 private:
  static constexpr int32_t k_far = std::numeric_limits<int32_t>::max();

  /// Distances to t (up to max_edges - 1) and c2, from t's in-rows.
  template <class inner_t, class edge_ok_t>
  void prepare(const G& g, vid_t t, int64_t max_edges, inner_t& is_inner, edge_ok_t& edge_ok) {
    // c2 and the vertices that close to t in one edge.
    if (max_edges >= 2) {
      work_ += g.for_each_in(t, [&](vid_t w) {
        if (!is_inner(w) || !edge_ok(w, t)) return;
        closes_[w] = 1;
        closers_.push_back(w);
      });
      for (const vid_t w : closers_) {
        work_ += g.for_each_in(w, [&](vid_t x) {
          if (!edge_ok(x, w)) return;
          if (c2_[x]++ == 0) touched_.push_back(x);
        });
      }
    }
    // Breadth-first from t backwards, through allowed intermediates.
    frontier_.assign(1, t);
    for (int64_t level = 1; level <= max_edges - 1 && !frontier_.empty(); ++level) {
      next_.clear();
      for (const vid_t z : frontier_) {
        work_ += g.for_each_in(z, [&](vid_t w) {
          if (dist_[w] != k_far || !is_inner(w) || !edge_ok(w, z)) return;
          dist_[w] = static_cast<int32_t>(level);
          reached_.push_back(w);
          next_.push_back(w);
        });
      }
      frontier_.swap(next_);
    }
  }

  template <class inner_t, class edge_ok_t>
  bool search(const G& g, vid_t s, vid_t t, int64_t max_edges, int offset, inner_t& is_inner,
              edge_ok_t& edge_ok, std::vector<uint64_t>& hist) {
    if (s != t && edge_ok(s, t) && g.has_edge(s, t)) add_count(hist, 1 + offset, 1);
    path_.assign(1, s);
    on_path_[s] = 1;
    kids_.clear();
    if (!visit(g, s, 0, max_edges, offset, is_inner, edge_ok, hist)) return false;
    return descend(g, 1, max_edges, offset, is_inner, edge_ok, hist);
  }

  /// The depth-first loop over the children visit() collected, until the path is back to
  /// `floor` vertices (which stay on it). False once past the work limit or asked to stop.
  template <class inner_t, class edge_ok_t>
  bool descend(const G& g, size_t floor, int64_t max_edges, int offset, inner_t& is_inner,
               edge_ok_t& edge_ok, std::vector<uint64_t>& hist) {
    while (path_.size() >= floor) {
      const size_t d = path_.size() - 1;
      // The children of the path's last vertex are the top of kids_, above kids_from_[d].
      if (kids_.size() == kids_from_[d]) {
        if (path_.size() == floor) break;
        on_path_[path_.back()] = 0;
        path_.pop_back();
        continue;
      }
      const vid_t y = kids_.back();
      kids_.pop_back();
      path_.push_back(y);
      on_path_[y] = 1;
      if (!visit(g, y, static_cast<int64_t>(d + 1), max_edges, offset, is_inner, edge_ok, hist)) {
        return false;
      }
    }
    return true;
  }

  /// At path vertex x (path_.back(), d edges from s): the paths of d + 2 edges through it, then
  /// (with `collect`) its children worth entering, pushed onto kids_. False once past the work
  /// limit or asked to stop.
  template <class inner_t, class edge_ok_t>
  bool visit(const G& g, vid_t x, int64_t d, int64_t max_edges, int offset, inner_t& is_inner,
             edge_ok_t& edge_ok, std::vector<uint64_t>& hist, bool collect = true) {
    if (kids_from_.size() <= static_cast<size_t>(d)) kids_from_.resize(static_cast<size_t>(d) + 1);
    kids_from_[d] = kids_.size();
    // One relaxed load per path vertex, beside a row scan: no measurable cost.
    if (++work_ > limit_ || cancel_.requested()) return false;
    if (d + 2 > max_edges) return true;
    int64_t paths = c2_[x];
    if (paths > 0) {
      // c2 counted every closer; those already on the path (not s, not x) make no simple path.
      for (size_t i = 1; i + 1 < path_.size(); ++i) {
        const vid_t p = path_[i];
        if (closes_[p] && edge_ok(x, p) && g.has_edge(x, p)) --paths;
      }
      if (paths > 0) add_count(hist, d + 2 + offset, static_cast<uint64_t>(paths));
    }
    if (d + 3 > max_edges || !collect) return true;
    work_ += g.for_each_out(x, [&](vid_t y) {
      if (on_path_[y] || !is_inner(y) || dist_[y] > max_edges - d - 1 || !edge_ok(x, y)) return;
      kids_.push_back(y);
    });
    return work_ <= limit_;
  }

  void reset() {
    for (const vid_t w : closers_) closes_[w] = 0;
    for (const vid_t x : touched_) c2_[x] = 0;
    for (const vid_t w : reached_) dist_[w] = k_far;
    for (const vid_t v : path_) on_path_[v] = 0;
    closers_.clear();
    touched_.clear();
    reached_.clear();
    path_.clear();
  }

  cancel_token_t cancel_;
  std::vector<int32_t> dist_;
  std::vector<int64_t> c2_;
  std::vector<uint8_t> closes_;
  std::vector<uint8_t> on_path_;
  std::vector<vid_t> closers_, touched_, reached_, frontier_, next_, path_;
  std::vector<vid_t> kids_;        // children still to enter, of every path vertex in turn
  std::vector<size_t> kids_from_;  // kids_from_[d]: where the children of path_[d] start
  int64_t work_ = 0;
  int64_t limit_ = 0;
  // The root begin_root() prepared for.
  bool prepared_ = false;
  vid_t root_ = 0;
  int64_t bound_ = 0;
};

}  // namespace dyng::cycle_count::detail
