// Every simple cycle through a root, by Johnson's algorithm with blocking sets (D. B. Johnson,
// "Finding all the elementary circuits of a directed graph", SIAM J. Comput. 4(1), 1975): the
// search from the root blocks each vertex it enters and unblocks it only once a path through it
// has closed a cycle, remembering in B[w] which blocked vertices wait on w. So no dead end is
// walked twice and the cost per root is O((n + m)(c + 1)) for its c cycles, where the bounded
// search of cycle_paths.hpp may revisit the same dead ends exponentially often. Used when the
// bound covers every length (no limit, or one >= n), where blocking is exact.
//
// Vertices other than the root must be larger than it (each cycle counted from its smallest
// vertex) and able to reach it (`reaches`, from a reverse search), which keeps the walk inside
// the root's strongly connected part as Johnson's does by taking components. The recursion is an
// explicit stack: a cycle may be as long as n.
#pragma once

#include <cstdint>
#include <vector>

#include "dyng/cycle_count/detail/histogram.hpp"

namespace dyng::cycle_count::detail {

template <class G>
class johnson_counter_t {
 public:
  using vid_t = decltype(std::declval<const G&>().num_vertices());

  explicit johnson_counter_t(int64_t n)
      : blocked_(static_cast<size_t>(n), 0),
        waiting_(static_cast<size_t>(n)),
        reaches_(static_cast<size_t>(n), 0) {}

  /// Adds the cycles whose smallest vertex is `root` into hist[length]. Returns the work done
  /// (vertices entered plus row slots read).
  int64_t count(const G& g, vid_t root, std::vector<uint64_t>& hist) {
    int64_t work = mark_reaching(g, root);
    auto allowed = [&](vid_t w) { return w == root || (w > root && reaches_[w]); };
    frames_.clear();
    enter(g, root, allowed, work);
    while (!frames_.empty()) {
      frame_t& f = frames_.back();
      if (f.next < f.kids.size()) {
        const vid_t w = f.kids[f.next++];
        if (w == root) {
          add_count(hist, static_cast<int64_t>(frames_.size()), 1);
          f.closed = true;
        } else if (!blocked_[w]) {
          enter(g, w, allowed, work);
        }
        continue;
      }
      // v is done: unblock it if some path through it closed, else make it wait on its
      // successors; then report to the caller's frame.
      const vid_t v = f.vertex;
      const bool closed = f.closed;
      if (closed) {
        unblock(v);
      } else {
        for (const vid_t w : f.kids) {
          if (w != root) wait_on(w, v);
        }
      }
      kid_pool_.push_back(std::move(f.kids));
      frames_.pop_back();
      if (closed && !frames_.empty()) frames_.back().closed = true;
    }
    reset(root);
    return work;
  }

 private:
  struct frame_t {
    vid_t vertex;
    std::vector<vid_t> kids;
    size_t next = 0;
    bool closed = false;
  };

  template <class allowed_t>
  void enter(const G& g, vid_t v, allowed_t& allowed, int64_t& work) {
    blocked_[v] = 1;
    entered_.push_back(v);
    std::vector<vid_t> kids;
    if (!kid_pool_.empty()) {
      kids = std::move(kid_pool_.back());
      kid_pool_.pop_back();
      kids.clear();
    }
    work += 1 + g.for_each_out(v, [&](vid_t w) {
      if (allowed(w)) kids.push_back(w);
    });
    frames_.push_back({v, std::move(kids), 0, false});
  }

  void wait_on(vid_t w, vid_t v) {
    std::vector<vid_t>& list = waiting_[w];
    for (const vid_t x : list) {
      if (x == v) return;
    }
    if (list.empty()) waited_.push_back(w);
    list.push_back(v);
  }

  void unblock(vid_t u) {
    unblock_stack_.assign(1, u);
    while (!unblock_stack_.empty()) {
      const vid_t x = unblock_stack_.back();
      unblock_stack_.pop_back();
      blocked_[x] = 0;
      for (const vid_t w : waiting_[x]) {
        if (blocked_[w]) unblock_stack_.push_back(w);
      }
      waiting_[x].clear();
    }
  }

  /// reaches_[w] for the vertices > root with a path to root through vertices > root.
  int64_t mark_reaching(const G& g, vid_t root) {
    int64_t work = 0;
    frontier_.assign(1, root);
    while (!frontier_.empty()) {
      const vid_t z = frontier_.back();
      frontier_.pop_back();
      work += g.for_each_in(z, [&](vid_t w) {
        if (w <= root || reaches_[w]) return;
        reaches_[w] = 1;
        reaching_.push_back(w);
        frontier_.push_back(w);
      });
    }
    return work;
  }

  void reset(vid_t root) {
    for (const vid_t v : entered_) blocked_[v] = 0;
    for (const vid_t w : waited_) waiting_[w].clear();
    for (const vid_t w : reaching_) reaches_[w] = 0;
    blocked_[root] = 0;
    entered_.clear();
    waited_.clear();
    reaching_.clear();
  }

  std::vector<uint8_t> blocked_;
  std::vector<std::vector<vid_t>> waiting_;  // Johnson's B lists
  std::vector<uint8_t> reaches_;
  std::vector<frame_t> frames_;
  std::vector<std::vector<vid_t>> kid_pool_;  // reused child lists
  std::vector<vid_t> entered_, waited_, reaching_, frontier_, unblock_stack_;
};

}  // namespace dyng::cycle_count::detail
