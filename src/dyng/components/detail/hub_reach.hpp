// The reachability questions of the strong split (strong_repair.hpp, phase 1): inside one label,
// does x reach the hub, or does the hub reach x? Each is answered by a fresh search from x (along
// the edges when x must reach the hub, against them otherwise) and by the hub's own search in
// the other direction, in turns, the one that has worked less in this question first, until
// they meet (yes) or one runs out (no: what it holds is closed inside the label). The hub's two
// searches (what reaches it, what it reaches) are kept from one question to the next, so in a
// component with many deletions the questions share them: an x the hub's search already holds
// costs nothing, and the others meet it sooner. A cut of a closed set that leaves the hub keeps
// them sound (no path between vertices left passes through a closed set, and the vertices cut
// off no longer carry the label, so the searches skip them); a new hub starts them afresh.
#pragma once

#include <cstdint>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/components/components.hpp"
#include "dyng/components/detail/label_journal.hpp"
#include "dyng/graph/adjacency_view.hpp"

namespace dyng::components::detail {

inline constexpr const char* k_hub_reach_stopped = "components repair";

template <class vid_t, class eid_t>
class hub_reach_t {
 public:
  /// `mark` and `stamp` are the repair's search marks (every mark is at most `stamp`); `work`
  /// its work counter.
  hub_reach_t(const adjacency_view_t<vid_t, eid_t>& out, const adjacency_view_t<vid_t, eid_t>& in,
              const label_journal_t<vid_t>& journal, std::vector<int64_t>& mark, int64_t& stamp,
              int64_t& work, cancel_token_t cancel)
      : out_(out),
        in_(in),
        journal_(journal),
        mark_(mark),
        stamp_(stamp),
        work_(work),
        cancel_(cancel) {}

  /// Makes `hub` the hub: its searches start afresh.
  void reset(vid_t hub) {
    if (held_.empty()) held_.assign(static_cast<size_t>(out_.num_vertices), 0);
    for (tree_t& tree : trees_) {
      for (const vid_t v : tree.members) held_[static_cast<size_t>(v)] = 0;
      tree.members.assign(1, hub);
      tree.head = 0;
    }
    held_[static_cast<size_t>(hub)] = k_reaches_hub | k_reached_from_hub;
  }

  /// Whether x reaches the hub (`towards`) or the hub reaches x, through vertices labelled
  /// `label`, into `holds`. When not, `closed` gets the side that ran out, each of its vertices
  /// marked `closed_stamp` in the repair's marks. False when over budget.
  bool ask(vid_t x, bool towards, int64_t label, int64_t budget, stats_t& stats, bool& holds,
           std::vector<vid_t>& closed, int64_t& closed_stamp) {
    const uint8_t bit = towards ? k_reaches_hub : k_reached_from_hub;
    holds = (held_[static_cast<size_t>(x)] & bit) != 0;
    if (holds) return true;
    tree_t& tree = trees_[towards ? 0 : 1];
    const auto& fresh_view = towards ? out_ : in_;
    const auto& tree_view = towards ? in_ : out_;
    const int64_t stamp = ++stamp_;
    ++stats.searches;
    fresh_.assign(1, x);
    mark_[static_cast<size_t>(x)] = stamp;
    size_t head = 0;
    int64_t fresh_work = 0, tree_work = 0;
    const size_t tree_before = tree.members.size();
    while (!holds && head < fresh_.size() && tree.head < tree.members.size()) {
      if ((++polls_ & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel_, k_hub_reach_stopped);
      const int64_t before = work_;
      if (fresh_work <= tree_work) {
        for_each_in(fresh_view, fresh_[head++], label, [&](vid_t y) {
          holds = holds || (held_[static_cast<size_t>(y)] & bit) != 0;
          if (mark_[static_cast<size_t>(y)] == stamp) return;
          mark_[static_cast<size_t>(y)] = stamp;
          fresh_.push_back(y);
        });
        fresh_work += work_ - before;
      } else {
        const vid_t t = tree.members[tree.head++];
        if (journal_.label(t) != label) continue;  // cut off since it joined
        for_each_in(tree_view, t, label, [&](vid_t y) {
          holds = holds || mark_[static_cast<size_t>(y)] == stamp;
          if ((held_[static_cast<size_t>(y)] & bit) != 0) return;
          held_[static_cast<size_t>(y)] |= bit;
          tree.members.push_back(y);
        });
        tree_work += work_ - before;
      }
      if (work_ > budget) return false;
    }
    stats.search_size += static_cast<int64_t>(fresh_.size() + tree.members.size() - tree_before);
    if (holds) return true;
    if (head == fresh_.size()) {
      closed.swap(fresh_);
      closed_stamp = stamp;
      return true;
    }
    closed_stamp = ++stamp_;  // the hub's search ran out: what it holds still labelled `label`
    closed.clear();
    for (const vid_t v : tree.members) {
      if (journal_.label(v) != label) continue;
      mark_[static_cast<size_t>(v)] = closed_stamp;
      closed.push_back(v);
    }
    return true;
  }

 private:
  static constexpr uint8_t k_reaches_hub = 1, k_reached_from_hub = 2;

  /// One of the hub's searches: what it holds, and how far it has expanded.
  struct tree_t {
    std::vector<vid_t> members;
    size_t head = 0;
  };

  template <class f_t>
  void for_each_in(const adjacency_view_t<vid_t, eid_t>& view, vid_t x, int64_t label,
                   const f_t& f) {
    for (eid_t slot = view.begin(x); slot < view.end(x); ++slot) {
      const vid_t y = view.neighbour(slot);
      if (journal_.label(y) == label) f(y);
    }
    work_ += 1 + view.degree(x);
  }

  adjacency_view_t<vid_t, eid_t> out_;
  adjacency_view_t<vid_t, eid_t> in_;
  const label_journal_t<vid_t>& journal_;
  std::vector<int64_t>& mark_;
  int64_t& stamp_;
  int64_t& work_;
  cancel_token_t cancel_;
  std::vector<uint8_t> held_;  // k_reaches_hub, k_reached_from_hub: held by the hub's searches
  tree_t trees_[2];            // what reaches the hub, what the hub reaches
  std::vector<vid_t> fresh_;
  int64_t polls_ = 0;
};

}  // namespace dyng::components::detail
