// Every simple cycle through a root, by Johnson's algorithm with blocking sets (D. B. Johnson,
// "Finding all the elementary circuits of a directed graph", SIAM J. Comput. 4(1), 1975): the
// search from the root blocks each vertex it enters and unblocks it only once a path through it
// has closed a cycle, remembering in B[w] which blocked vertices wait on w. So no dead end is
// walked twice and the cost per root is O((n + m)(c + 1)) for its c cycles, where the bounded
// search of cycle_paths.hpp may revisit the same dead ends exponentially often. Used when the
// bound covers every length (no limit, or one >= n), where blocking is exact.
//
// Vertices other than the root must be larger than it (each cycle counted from its smallest
// vertex) and able to reach it (from a reverse search), which keeps the walk inside the root's
// strongly connected part as Johnson's does by taking components.
//
// Memory is O(n + m) whatever the number of cycles: the recursion is an explicit stack of at
// most n frames, each a cursor into its vertex's stored out-row, each B list holds distinct
// vertices with an edge into its owner, and the vertices to clear afterwards are listed once.
//
// A root's search is split by its first edge (root, y), so that a team can share out a hub's
// cycles: once the path is back to the root alone, Johnson's search has unblocked every vertex
// that reaches the root and emptied every B list, so each first edge starts from the state it
// would have found after the ones before it.
#pragma once

#include <cstdint>
#include <span>
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

  /// Prepares the counter for the cycles whose smallest vertex is `root` (nothing to do when it
  /// is prepared for it already); it stays prepared until another root or finish(). Every
  /// length counts: the bound is path_counter_t's, unused here.
  void begin_root(const G& g, vid_t root, int64_t /*bound*/) {
    if (prepared_ && root_ == root) return;
    finish();
    root_ = root;
    prepared_ = true;
    state_[root] = k_root;
    work_ += mark_reaching(g);
  }

  /// Nothing: every cycle of the root starts with one of its out-edges (child_item()).
  bool root_item(const G&, std::vector<uint64_t>&) { return true; }

  /// Adds the cycles of the prepared root whose first edge is (root, y) into hist[length].
  /// False, with hist partly filled, once the caller asked to stop.
  bool child_item(const G& g, vid_t y, std::vector<uint64_t>& hist) {
    if (state_[y] != k_free) return true;
    const bool done = walk(g, y, hist);
    clear_search();
    return done;
  }

  /// Work so far (vertices entered plus row slots read), over every root.
  int64_t work() const { return work_; }

  void finish() {
    if (!prepared_) return;
    for (const vid_t w : reaching_) state_[w] = k_outside;
    state_[root_] = k_outside;
    reaching_.clear();
    prepared_ = false;
  }

 private:
  /// A vertex's part in the prepared root's search. One byte read per row slot tells the walk
  /// what to do with the slot's vertex.
  enum : uint8_t {
    k_outside = 0,  // smaller than the root, or unable to reach it
    k_free = 1,     // may be entered
    k_blocked = 2,  // on the path, or waiting in some B list
    k_root = 3,
  };

  struct frame_t {
    vid_t vertex;
    const vid_t* next;  // the next slot of its out-row
    const vid_t* end;
    bool closed;
  };

  /// Johnson's CIRCUIT from root -> y, as a loop; the path is the root and the frames. The top
  /// frame's cursor lives in locals (`next`, `end`) while its row is scanned, and goes back to
  /// the frame when a child is entered.
  bool walk(const G& g, vid_t y, std::vector<uint64_t>& hist) {
    const uint8_t* const state = state_.data();
    enter(g, y);
    const vid_t* next = frames_.back().next;
    const vid_t* end = frames_.back().end;
    while (true) {
      while (next != end) {
        const vid_t w = *next++;
        const uint8_t s = state[w];
        if (s == k_free) {
          // One relaxed load per vertex entered, beside a row scan: no measurable cost.
          if (cancel_.requested()) return false;
          frames_.back().next = next;
          enter(g, w);
          next = frames_.back().next;
          end = frames_.back().end;
        } else if (s == k_root) {
          add_count(hist, static_cast<int64_t>(frames_.size()) + 1, 1);
          frames_.back().closed = true;
        }
      }
      leave(g);
      if (frames_.empty()) return true;
      next = frames_.back().next;
      end = frames_.back().end;
    }
  }

  void enter(const G& g, vid_t v) {
    state_[v] = k_blocked;
    if (!listed_[v]) {
      listed_[v] = 1;
      touched_.push_back(v);
    }
    const std::span<const vid_t> row = g.stored_out_row(v);
    work_ += 1 + static_cast<int64_t>(row.size());
    frames_.push_back({v, row.data(), row.data() + row.size(), false});
  }

  /// The top frame is done: unblock its vertex if some path through it closed, else make it
  /// wait on its successors in the search; then report to the frame below.
  void leave(const G& g) {
    const frame_t f = frames_.back();
    frames_.pop_back();
    if (f.closed) {
      unblock(f.vertex);
      if (!frames_.empty()) frames_.back().closed = true;
      return;
    }
    for (const vid_t w : g.stored_out_row(f.vertex)) {
      if (w != f.vertex && (state_[w] == k_free || state_[w] == k_blocked)) wait_on(w, f.vertex);
    }
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

  /// After a first edge, done or abandoned: every vertex it blocked or gave a B list is one it
  /// entered (touched_), so clearing those leaves the state the next first edge starts from.
  void clear_search() {
    for (const vid_t v : touched_) {
      state_[v] = k_free;
      listed_[v] = 0;
      waiting_[v].clear();
    }
    touched_.clear();
    frames_.clear();
  }

  /// k_free for the vertices > root with a path to root through vertices > root.
  int64_t mark_reaching(const G& g) {
    int64_t work = 0;
    frontier_.assign(1, root_);
    while (!frontier_.empty()) {
      const vid_t z = frontier_.back();
      frontier_.pop_back();
      work += g.for_each_in(z, [&](vid_t w) {
        if (w <= root_ || state_[w] != k_outside) return;
        state_[w] = k_free;
        reaching_.push_back(w);
        frontier_.push_back(w);
      });
    }
    return work;
  }

  cancel_token_t cancel_;
  std::vector<uint8_t> state_;
  std::vector<uint8_t> listed_;              // in touched_
  std::vector<std::vector<vid_t>> waiting_;  // Johnson's B lists
  std::vector<frame_t> frames_;
  std::vector<vid_t> touched_, reaching_, frontier_, unblock_stack_;
  int64_t work_ = 0;
  bool prepared_ = false;
  vid_t root_ = 0;
};

}  // namespace dyng::cycle_count::detail
