// Every simple path from s to a target t, by Johnson's algorithm with blocking sets (D. B.
// Johnson, "Finding all the elementary circuits of a directed graph", SIAM J. Comput. 4(1),
// 1975): the search blocks each vertex it enters and unblocks it only once a path through it has
// reached t, remembering in B[w] which blocked vertices wait on w. So no dead end is walked twice
// and the cost is O((n + m)(c + 1)) for c paths, where the bounded search of cycle_paths.hpp may
// revisit the same dead ends exponentially often. Used when the bound covers every length (no
// limit, or one >= n), where blocking is exact, for both of cycle_count.hpp's searches:
//  - compute: the cycles of a root, the paths root -> ... -> root through vertices larger than
//    the root (each cycle counted from its smallest vertex), on the graph as stored;
//  - update: the cycles through a changed edge (u, v), the paths v -> ... -> u on the graph
//    before or after the batch, through edges that pass a filter (the changed edges before it).
// Only vertices that can reach t (a reverse search from t) are ever entered, which keeps the walk
// inside t's strongly connected part as Johnson's does by taking components.
//
// Memory is O(n + m) whatever the number of paths: the recursion is an explicit stack of at
// most n frames, each a cursor into its vertex's out-row (the stored row, or for the few rows
// that an update's overlay or filter changes a filtered copy on one shared stack), each B list
// holds distinct vertices with an edge into its owner, and the vertices to clear afterwards are
// listed once.
//
// A root's search is split by its first edge (root, y), so that a team can share out a hub's
// cycles: once the path is back to the root alone, Johnson's search has unblocked every vertex
// that reaches the root and emptied every B list, so each first edge starts from the state it
// would have found after the ones before it.
#pragma once

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "dyng/backend/cancel.hpp"
#include "dyng/cycle_count/detail/histogram.hpp"

namespace dyng::cycle_count::detail {

template <class G>
class johnson_counter_t {
 public:
  using vid_t = decltype(std::declval<const G&>().num_vertices());

  /// A counter for a graph of n vertices; its searches stop early once `cancel` is requested.
  johnson_counter_t(int64_t n, cancel_token_t cancel)
      : cancel_(cancel),
        state_(static_cast<size_t>(n), k_outside),
        listed_(static_cast<size_t>(n), 0),
        waiting_(static_cast<size_t>(n)) {}

  /// update: adds the simple s -> t paths (s != t) of every length into hist[edges + offset]
  /// (max_edges, path_counter_t's bound, must cover every length and is not read).
  /// Intermediate vertices pass inner(w) and differ from s and t; edges pass edge_ok(x, y), and
  /// edge_ok.restricts(x) says whether x has an edge that may not. Returns false, with hist
  /// partly filled, once the work (vertices entered plus row slots read) passes `limit` or the
  /// caller asked to stop; work() then says how much was done.
  template <class inner_t, class edge_ok_t>
  bool count(const G& g, vid_t s, vid_t t, int64_t /*max_edges*/, int offset, inner_t&& inner,
             edge_ok_t&& edge_ok, std::vector<uint64_t>& hist, int64_t limit) {
    work_ = 0;
    if (s == t) return true;
    limit_ = limit;
    lift_ = offset;
    state_[t] = k_root;
    state_[s] = k_blocked;  // the path's first vertex: no search reaches past it
    auto is_inner = [&](vid_t w) { return w != s && inner(w); };
    mark_reaching(g, t, is_inner, edge_ok);
    const bool done = walk<true>(g, s, edge_ok, hist);
    clear_search();
    clear_reaching(t);
    state_[s] = k_outside;
    return done;
  }

  /// compute: prepares the counter for the cycles whose smallest vertex is `root` (nothing to do
  /// when it is prepared for it already); it stays prepared until another root or finish().
  /// Every length counts: the bound is path_counter_t's, unused here.
  void begin_root(const G& g, vid_t root, int64_t /*bound*/) {
    if (prepared_ && root_ == root) return;
    finish();
    root_ = root;
    prepared_ = true;
    limit_ = std::numeric_limits<int64_t>::max();
    lift_ = 1;  // the root is on the path but not a frame
    state_[root] = k_root;
    mark_reaching(g, root, [root](vid_t w) { return w > root; }, any_edge_t{});
  }

  /// Nothing: every cycle of the root starts with one of its out-edges (child_item()).
  bool root_item(const G&, std::vector<uint64_t>&) { return true; }

  /// Adds the cycles of the prepared root whose first edge is (root, y) into hist[length].
  /// False, with hist partly filled, once the caller asked to stop.
  bool child_item(const G& g, vid_t y, std::vector<uint64_t>& hist) {
    if (state_[y] != k_free) return true;
    const bool done = walk<false>(g, y, any_edge_t{}, hist);
    clear_search();
    return done;
  }

  void finish() {
    if (!prepared_) return;
    clear_reaching(root_);
    prepared_ = false;
  }

  /// Work so far (vertices entered plus row slots read): of the last count(), or over every
  /// root's items.
  int64_t work() const { return work_; }

 private:
  /// A vertex's part in the search. One byte read per row slot tells the walk what to do with
  /// the slot's vertex.
  enum : uint8_t {
    k_outside = 0,  // cannot reach t through allowed vertices, or is not allowed
    k_free = 1,     // may be entered
    k_blocked = 2,  // on the path, or waiting in some B list
    k_root = 3,     // t: a slot holding it closes a path
  };

  struct frame_t {
    vid_t vertex;
    bool closed;
    bool copied;              // its row is on kids_, not the stored one
    size_t first, next, end;  // its row's slots in stored_out_col() or kids_
  };

  /// compute's filter: every edge.
  struct any_edge_t {
    bool operator()(vid_t, vid_t) const { return true; }
    bool restricts(vid_t) const { return false; }
  };

  /// The array the slots of `f` index (kids_ moves as it grows).
  template <bool k_may_copy>
  const vid_t* row_base(const G& g, const frame_t& f) const {
    if constexpr (k_may_copy) {
      if (f.copied) return kids_.data();
    }
    return g.stored_out_col();
  }

  /// Johnson's CIRCUIT from `first`, as a loop. The top frame's cursor lives in locals while
  /// its row is scanned. Without k_may_copy (compute) every frame reads its stored row, and
  /// the walk is spared the test per frame.
  template <bool k_may_copy, class edge_ok_t>
  bool walk(const G& g, vid_t first, const edge_ok_t& edge_ok, std::vector<uint64_t>& hist) {
    const uint8_t* const state = state_.data();
    enter<k_may_copy>(g, first, edge_ok);
    const vid_t* base = row_base<k_may_copy>(g, frames_.back());
    size_t next = frames_.back().next, end = frames_.back().end;
    while (true) {
      while (next != end) {
        const vid_t w = base[next++];
        const uint8_t s = state[w];
        if (s == k_free) {
          // One relaxed load per vertex entered, beside a row scan: no measurable cost.
          if (work_ > limit_ || cancel_.requested()) return false;
          frames_.back().next = next;
          enter<k_may_copy>(g, w, edge_ok);
          base = row_base<k_may_copy>(g, frames_.back());
          next = frames_.back().next;
          end = frames_.back().end;
        } else if (s == k_root) {
          add_count(hist, static_cast<int64_t>(frames_.size()) + lift_, 1);
          frames_.back().closed = true;
        }
      }
      leave<k_may_copy>(g);
      if (frames_.empty()) return true;
      base = row_base<k_may_copy>(g, frames_.back());
      next = frames_.back().next;
      end = frames_.back().end;
    }
  }

  /// Pushes v's frame: a cursor into its stored row where the graph shows that row and the
  /// filter takes all of it, else into a filtered copy on kids_.
  template <bool k_may_copy, class edge_ok_t>
  void enter(const G& g, vid_t v, const edge_ok_t& edge_ok) {
    state_[v] = k_blocked;
    if (!listed_[v]) {
      listed_[v] = 1;
      touched_.push_back(v);
    }
    if (!k_may_copy || (g.shows_stored_row(v) && !edge_ok.restricts(v))) {
      const auto [first, last] = g.stored_out_slots(v);
      work_ += 1 + static_cast<int64_t>(last - first);
      frames_.push_back({v, false, false, first, first, last});
      return;
    }
    const size_t first = kids_.size();
    work_ += 1 + g.for_each_out(v, [&](vid_t w) {
      if (state_[w] != k_outside && edge_ok(v, w)) kids_.push_back(w);
    });
    frames_.push_back({v, false, true, first, first, kids_.size()});
  }

  /// The top frame is done: unblock its vertex if some path through it reached t, else make it
  /// wait on its successors in the search; then report to the frame below.
  template <bool k_may_copy>
  void leave(const G& g) {
    const frame_t f = frames_.back();
    frames_.pop_back();
    if (f.closed) {
      unblock(f.vertex);
      if (!frames_.empty()) frames_.back().closed = true;
    } else {
      const vid_t* base = row_base<k_may_copy>(g, f);
      for (size_t i = f.first; i < f.end; ++i) {
        const vid_t w = base[i];
        if (w != f.vertex && (state_[w] == k_free || state_[w] == k_blocked)) {
          wait_on(w, f.vertex);
        }
      }
    }
    if (k_may_copy && f.copied) kids_.resize(f.first);
  }

  void wait_on(vid_t w, vid_t v) {
    std::vector<vid_t>& list = waiting_[w];
    for (const vid_t x : list) {
      if (x == v) return;
    }
    list.push_back(v);
  }

  void unblock(vid_t u) {
    unblock_stack_.assign(1, u);
    while (!unblock_stack_.empty()) {
      const vid_t x = unblock_stack_.back();
      unblock_stack_.pop_back();
      state_[x] = k_free;
      for (const vid_t w : waiting_[x]) {
        if (state_[w] == k_blocked) unblock_stack_.push_back(w);
      }
      waiting_[x].clear();
    }
  }

  /// After a walk, done or abandoned: every vertex it blocked or gave a B list is one it entered
  /// (touched_), so freeing those leaves the state the next walk to the same t starts from.
  void clear_search() {
    for (const vid_t v : touched_) {
      state_[v] = k_free;
      listed_[v] = 0;
      waiting_[v].clear();
    }
    touched_.clear();
    frames_.clear();
    kids_.clear();
  }

  /// k_free for the vertices that pass inner(w) with a path to t through such vertices and
  /// edges that pass edge_ok (t is k_root already).
  template <class inner_t, class edge_ok_t>
  void mark_reaching(const G& g, vid_t t, inner_t&& inner, edge_ok_t&& edge_ok) {
    frontier_.assign(1, t);
    while (!frontier_.empty()) {
      const vid_t z = frontier_.back();
      frontier_.pop_back();
      work_ += g.for_each_in(z, [&](vid_t w) {
        if (state_[w] != k_outside || !inner(w) || !edge_ok(w, z)) return;
        state_[w] = k_free;
        reaching_.push_back(w);
        frontier_.push_back(w);
      });
    }
  }

  void clear_reaching(vid_t t) {
    for (const vid_t w : reaching_) state_[w] = k_outside;
    state_[t] = k_outside;
    reaching_.clear();
  }

  cancel_token_t cancel_;
  std::vector<uint8_t> state_;
  std::vector<uint8_t> listed_;              // in touched_
  std::vector<std::vector<vid_t>> waiting_;  // Johnson's B lists
  std::vector<frame_t> frames_;
  std::vector<vid_t> kids_;  // the copied rows of the frames, bottom frame first
  std::vector<vid_t> touched_, reaching_, frontier_, unblock_stack_;
  int64_t work_ = 0;
  int64_t limit_ = std::numeric_limits<int64_t>::max();
  int64_t lift_ = 1;  // a path of d frames and the edge to t make a cycle of d + lift_ edges
  bool prepared_ = false;
  vid_t root_ = 0;
};

}  // namespace dyng::cycle_count::detail
