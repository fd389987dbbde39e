// Strongly connected components by Tarjan's algorithm (R. Tarjan, "Depth-first search and linear
// graph algorithms", SIAM J. Comput. 1972) in the space-saving form of D. Pearce ("A
// space-efficient algorithm for finding strongly connected components", IPL 2016): one rank per
// vertex serves as the DFS index and the low-link (0: not visited; k_done: in a finished
// component), and a root flag on the DFS frame replaces the on-stack array. The ranks take the
// width of a vertex id, so the array that every edge reads at random is half (int32 ids) the size
// of an int64 one. The DFS keeps an explicit stack of (vertex, next slot) frames instead of
// recursion, so a path of millions of vertices cannot overflow the call stack.
//
// One object serves the whole graph (compute) and the repair's restricted runs: search(start,
// eligible, emit) visits the vertices reachable from `start` through vertices that `eligible`
// accepts, and calls emit(first, last) with each finished component as a range of vertex ids.
// Vertices visited by an earlier search of the same object stay visited. It counts the edges it
// examines and the vertices it visits, and polls the caller's stop flag every
// k_cancel_poll_mask + 1 vertices.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/graph/adjacency_view.hpp"

namespace dyng::components::detail {

inline constexpr const char* k_tarjan_stopped = "components Tarjan search";

template <class vid_t, class eid_t>
class tarjan_t {
 public:
  tarjan_t(const adjacency_view_t<vid_t, eid_t>& out, cancel_token_t cancel)
      : out_(out), cancel_(cancel), rank_(static_cast<size_t>(out.num_vertices), 0) {}

  bool visited(vid_t v) const { return rank_[static_cast<size_t>(v)] != 0; }
  int64_t edges() const { return edges_; }
  int64_t vertices() const { return visits_; }

  /// Marks v as in a finished component that the caller has reported itself.
  void set_finished(vid_t v) {
    rank_[static_cast<size_t>(v)] = k_done;
    ++visits_;
  }

  template <class eligible_t, class emit_t>
  void search(vid_t start, const eligible_t& eligible, const emit_t& emit) {
    if (visited(start)) return;
    enter(start);
    while (!frames_.empty()) {
      frame_t& frame = frames_.back();
      const vid_t v = frame.vertex;
      rank_t& low = rank_[static_cast<size_t>(v)];
      const eid_t end = out_.end(v);
      eid_t slot = frame.slot;
      bool descended = false;
      while (slot < end) {
        const vid_t w = out_.neighbour(slot++);
        if (!eligible(w)) continue;
        const rank_t seen = rank_[static_cast<size_t>(w)];
        if (seen == 0) {
          descended = true;
          break;
        }
        if (seen < low) low = seen, frame.root = false;
      }
      edges_ += slot - frame.slot;
      frame.slot = slot;
      if (descended) {
        enter(out_.neighbour(slot - 1));  // invalidates `frame` and `low`
        continue;
      }
      const bool root = frame.root;
      frames_.pop_back();
      if (!frames_.empty()) {
        frame_t& parent = frames_.back();
        rank_t& parent_low = rank_[static_cast<size_t>(parent.vertex)];
        const rank_t own = rank_[static_cast<size_t>(v)];
        if (own < parent_low) parent_low = own, parent.root = false;
      }
      stack_.push_back(v);
      if (root) finish(v, emit);
    }
  }

 private:
  using rank_t = std::make_unsigned_t<vid_t>;
  static constexpr rank_t k_done = std::numeric_limits<rank_t>::max();

  struct frame_t {
    vid_t vertex;
    eid_t slot;
    bool root;
  };

  void enter(vid_t v) {
    if ((visits_ & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel_, k_tarjan_stopped);
    ++visits_;
    rank_[static_cast<size_t>(v)] = next_rank_++;
    frames_.push_back({v, out_.begin(v), true});
  }

  // v is the root of a component: it and the vertices above it on the stack, whose low-links
  // are at least its index, are that component (Pearce's invariant).
  template <class emit_t>
  void finish(vid_t v, const emit_t& emit) {
    const rank_t index = rank_[static_cast<size_t>(v)];
    size_t first = stack_.size() - 1;
    while (first > 0 && rank_[static_cast<size_t>(stack_[first - 1])] >= index) --first;
    for (size_t k = first; k < stack_.size(); ++k) rank_[static_cast<size_t>(stack_[k])] = k_done;
    emit(stack_.data() + first, stack_.data() + stack_.size());
    stack_.resize(first);
  }

  adjacency_view_t<vid_t, eid_t> out_;
  cancel_token_t cancel_;
  std::vector<rank_t> rank_;
  std::vector<vid_t> stack_;
  std::vector<frame_t> frames_;
  rank_t next_rank_ = 1;
  int64_t visits_ = 0;
  int64_t edges_ = 0;
};

}  // namespace dyng::components::detail
