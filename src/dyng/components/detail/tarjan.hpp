// Strongly connected components by Tarjan's algorithm (R. Tarjan, "Depth-first search and linear
// graph algorithms", SIAM J. Comput. 1972), written with an explicit stack of (vertex, next slot)
// frames instead of recursion, so a path of millions of vertices cannot overflow the call stack.
//
// One object serves the whole graph (compute) and the repair's restricted runs: search(start,
// eligible, emit) visits the vertices reachable from `start` through vertices that `eligible`
// accepts, and calls emit(first, last) with each finished component as a range of vertex ids.
// Vertices visited by an earlier search of the same object stay visited. It counts the edges it
// examines and the vertices it visits, and polls the caller's stop flag every
// k_cancel_poll_mask + 1 vertices.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/graph/adjacency_view.hpp"

namespace dyng::components::detail {

inline constexpr const char* k_tarjan_stopped = "components Tarjan search";

template <class vid_t, class eid_t>
class tarjan_t {
 public:
  tarjan_t(const adjacency_view_t<vid_t, eid_t>& out, cancel_token_t cancel)
      : out_(out),
        cancel_(cancel),
        index_(static_cast<size_t>(out.num_vertices), -1),
        low_(static_cast<size_t>(out.num_vertices), 0),
        on_stack_(static_cast<size_t>(out.num_vertices), 0) {}

  bool visited(vid_t v) const { return index_[static_cast<size_t>(v)] >= 0; }
  int64_t edges() const { return edges_; }
  int64_t vertices() const { return next_index_; }

  template <class eligible_t, class emit_t>
  void search(vid_t start, const eligible_t& eligible, const emit_t& emit) {
    if (visited(start)) return;
    enter(start);
    while (!frames_.empty()) {
      frame_t& frame = frames_.back();
      const vid_t v = frame.vertex;
      if (frame.slot < out_.end(v)) {
        const vid_t w = out_.neighbour(frame.slot++);
        ++edges_;
        if (!eligible(w)) continue;
        if (!visited(w)) {
          enter(w);  // invalidates `frame`
        } else if (on_stack_[static_cast<size_t>(w)]) {
          low_[static_cast<size_t>(v)] = std::min(low_[static_cast<size_t>(v)], index(w));
        }
        continue;
      }
      frames_.pop_back();
      if (!frames_.empty()) {
        const auto parent = static_cast<size_t>(frames_.back().vertex);
        low_[parent] = std::min(low_[parent], low_[static_cast<size_t>(v)]);
      }
      if (low_[static_cast<size_t>(v)] == index(v)) finish(v, emit);
    }
  }

 private:
  struct frame_t {
    vid_t vertex;
    eid_t slot;
  };

  int64_t index(vid_t v) const { return index_[static_cast<size_t>(v)]; }

  void enter(vid_t v) {
    if ((next_index_ & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel_, k_tarjan_stopped);
    index_[static_cast<size_t>(v)] = low_[static_cast<size_t>(v)] = next_index_++;
    on_stack_[static_cast<size_t>(v)] = 1;
    stack_.push_back(v);
    frames_.push_back({v, out_.begin(v)});
  }

  // v is the root of a component: everything above it on the stack is that component.
  template <class emit_t>
  void finish(vid_t v, const emit_t& emit) {
    const auto first = std::find(stack_.rbegin(), stack_.rend(), v).base() - 1;
    for (auto it = first; it != stack_.end(); ++it) on_stack_[static_cast<size_t>(*it)] = 0;
    emit(&*first, &*first + (stack_.end() - first));
    stack_.erase(first, stack_.end());
  }

  adjacency_view_t<vid_t, eid_t> out_;
  cancel_token_t cancel_;
  std::vector<int64_t> index_;
  std::vector<int64_t> low_;
  std::vector<uint8_t> on_stack_;
  std::vector<vid_t> stack_;
  std::vector<frame_t> frames_;
  int64_t next_index_ = 0;
  int64_t edges_ = 0;
};

}  // namespace dyng::components::detail
