// Incremental repair of weakly connected components after a batch, on the graph after it.
//
// Components the batch does not touch are unchanged: no changed edge ends in them. The touched
// ones are repaired in two phases, whose order makes every search a search of one label:
//  1. Split. The endpoints of the deletions inside one old component c are paired up: two
//     breadth-first searches run from two of them through label c on the undirected view (out-
//     and in-edges), in turns, the side with less work first. If they meet, the two are
//     connected and one of them is dropped; the search cost about twice the smaller side's work.
//     If one side runs out, it is a whole piece cut off by the deletions, and leaves the search.
//     Once one endpoint is left, what still has label c is one piece. Each piece found takes its
//     smallest id as label, and the rest keeps c, unless c (the smallest id of the old
//     component) is in a piece found, in which case the rest is searched once more to find its
//     own (a canonical label costs that). Inserted edges inside c take part in the searches;
//     edges between labels are not followed, so after this phase each label is a connected piece
//     of one old component.
//  2. Merge. For each inserted edge (u, v) whose endpoints have different labels, the component
//     with the larger label is searched and relabelled with the smaller one.
// Searches count the vertices and edges they visit; past `budget` the repair gives up (the journal
// undoes it) and the shared policy recomputes. The searches poll the caller's stop flag every
// k_cancel_poll_mask + 1 vertices. The repair is sequential on every host backend: what does not
// fall back is small.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/components/components.hpp"
#include "dyng/components/detail/label_journal.hpp"
#include "dyng/core/stage_scope.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::components::detail {

inline constexpr const char* k_weak_repair_stopped = "components repair";

template <class vid_t, class eid_t>
class weak_repair_t {
 public:
  weak_repair_t(const adjacency_view_t<vid_t, eid_t>& out,
                const adjacency_view_t<vid_t, eid_t>& in, bool directed, state_t<vid_t>& state,
                cancel_token_t cancel)
      : out_(out), in_(in), directed_(directed), journal_(state), cancel_(cancel) {}

  /// Repairs the (already grown) state for `log`; false once the work passes `budget`.
  bool run(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    journal_.begin();
    mark_.assign(static_cast<size_t>(out_.num_vertices), 0);
    stamp_ = 0;
    work_ = 0;
    budget_ = budget;
    stats_ = &stats;
    add_new_vertices(log, journal_);
    {
      const stage_scope_t split_stage("components.split");
      // (old label, endpoint) of every deletion inside a component, grouped by component.
      std::vector<std::pair<int64_t, vid_t>> ends;
      for (const edge_change_t<vid_t>& change : log.changes) {
        if (change.kind != edge_change_kind_t::deleted || skip(change)) continue;
        const int64_t label = journal_.label(change.src);
        if (label != journal_.label(change.dst)) continue;
        ends.emplace_back(label, change.src);
        ends.emplace_back(label, change.dst);
      }
      std::sort(ends.begin(), ends.end());
      ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
      std::vector<vid_t> open;
      for (size_t first = 0, last = 0; first < ends.size(); first = last) {
        open.clear();
        for (last = first; last < ends.size() && ends[last].first == ends[first].first; ++last) {
          open.push_back(ends[last].second);
        }
        if (!split_component(ends[first].first, open)) return false;
      }
    }
    const stage_scope_t merge_stage("components.merge");
    for (const edge_change_t<vid_t>& change : log.changes) {
      if (change.kind != edge_change_kind_t::inserted || skip(change)) continue;
      if (journal_.label(change.src) != journal_.label(change.dst) &&
          !merge(change.src, change.dst)) {
        return false;
      }
    }
    stats.affected = journal_.affected();
    stats.relabelled = journal_.relabelled();
    stats.iterations = stats.searches;
    stats.frontier_visits = work_;
    return true;
  }

  void undo() noexcept { journal_.undo(); }

 private:
  // Self-loops change no component; an undirected graph logs both directions of each edge.
  bool skip(const edge_change_t<vid_t>& change) const {
    return change.src == change.dst || (!directed_ && change.src > change.dst);
  }

  template <class f_t>
  void for_each_neighbour(vid_t v, const f_t& f) {
    for (eid_t slot = out_.begin(v); slot < out_.end(v); ++slot) f(out_.neighbour(slot));
    work_ += 1 + out_.degree(v);
    if (!directed_) return;
    for (eid_t slot = in_.begin(v); slot < in_.end(v); ++slot) f(in_.neighbour(slot));
    work_ += in_.degree(v);
  }

  void poll(size_t visited) {
    if ((visited & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel_, k_weak_repair_stopped);
  }

  /// One side of the two-sided search: its stamp, queue and work so far.
  struct side_t {
    int64_t stamp;
    vid_t start;
    std::vector<vid_t> queue;
    size_t head = 0;
    int64_t work = 0;
    bool exhausted() const { return head == queue.size(); }
  };

  enum class outcome_t { met, searching, cut, over_budget };

  outcome_t expand(side_t& side, const side_t& other, int64_t label) {
    const vid_t x = side.queue[side.head++];
    poll(side.head);
    bool met = false;
    const int64_t before = work_;
    for_each_neighbour(x, [&](vid_t y) {
      const auto at = static_cast<size_t>(y);
      if (met || journal_.label(y) != label || mark_[at] == side.stamp) return;
      if (mark_[at] == other.stamp) {
        met = true;
        return;
      }
      mark_[at] = side.stamp;
      side.queue.push_back(y);
    });
    side.work += work_ - before;
    if (met) return outcome_t::met;
    return work_ > budget_ ? outcome_t::over_budget : outcome_t::searching;
  }

  /// Phase 1 for one old component `label` and the endpoints of its deleted edges (sorted,
  /// unique); false when over budget. Every piece the deletions leave holds one of the endpoints
  /// (the component was connected through the deleted edges), so once every pair of open
  /// endpoints has met or been cut apart, what still has the label is one piece.
  bool split_component(int64_t label, std::vector<vid_t>& open) {
    std::vector<std::vector<vid_t>> found;
    while (open.size() >= 2) {
      side_t a{++stamp_, open.front(), {open.front()}}, b{++stamp_, open.back(), {open.back()}};
      mark_[static_cast<size_t>(a.start)] = a.stamp;
      mark_[static_cast<size_t>(b.start)] = b.stamp;
      ++stats_->searches;
      const outcome_t outcome = two_sided(a, b, label);
      stats_->search_size += static_cast<int64_t>(a.queue.size() + b.queue.size());
      if (outcome == outcome_t::over_budget) return false;
      if (outcome == outcome_t::met) {
        open.pop_back();
        continue;
      }
      // A side that ran out is a whole piece: a temporary label (negative, unique) keeps it out
      // of the later searches until the canonical labels are written below.
      found.push_back(std::move(a.exhausted() ? a.queue : b.queue));
      const int64_t temporary = -2 - static_cast<int64_t>(found.size());
      for (const vid_t v : found.back()) journal_.set_label(v, temporary);
      std::erase_if(open, [&](vid_t v) { return journal_.label(v) != label; });
    }
    if (found.empty()) return true;
    int64_t moved = 0;
    for (const std::vector<vid_t>& piece : found) moved += static_cast<int64_t>(piece.size());
    // The old smallest id `label` is in a piece found, or in the rest, which then keeps it.
    if (journal_.label(label) == label) {
      journal_.set_size(label, journal_.size(label) - moved);
    } else if (!open.empty()) {
      std::vector<vid_t> rest;
      if (!collect(open.front(), label, -1, rest)) return false;
      label_component(rest, journal_);
    }
    for (const std::vector<vid_t>& piece : found) label_component(piece, journal_);
    const auto added = static_cast<int64_t>(found.size()) - (open.empty() ? 1 : 0);
    journal_.add_components(added);
    stats_->split += added;
    return true;
  }

  // Expands the sides in turns, the one with less work first, until they meet or one runs out.
  outcome_t two_sided(side_t& a, side_t& b, int64_t label) {
    while (!a.exhausted() && !b.exhausted()) {
      side_t& side = a.work <= b.work ? a : b;
      const outcome_t outcome = expand(side, &side == &a ? b : a, label);
      if (outcome != outcome_t::searching) return outcome;
    }
    return outcome_t::cut;  // one side ran out
  }

  // Every vertex labelled `label` that is connected to `start` through such vertices, except
  // those marked `excluded`; false when over budget.
  bool collect(vid_t start, int64_t label, int64_t excluded, std::vector<vid_t>& members) {
    const int64_t stamp = ++stamp_;
    ++stats_->searches;
    members.assign(1, start);
    mark_[static_cast<size_t>(start)] = stamp;
    for (size_t head = 0; head < members.size(); ++head) {
      poll(head + 1);
      for_each_neighbour(members[head], [&](vid_t y) {
        const int64_t mark = mark_[static_cast<size_t>(y)];
        if (mark == stamp || mark == excluded || journal_.label(y) != label) return;
        mark_[static_cast<size_t>(y)] = stamp;
        members.push_back(y);
      });
      if (work_ > budget_) return false;
    }
    stats_->search_size += static_cast<int64_t>(members.size());
    return true;
  }

  // Phase 2 for the inserted edge (u, v) between two labels; false when over budget.
  bool merge(vid_t u, vid_t v) {
    const int64_t lu = journal_.label(u), lv = journal_.label(v);
    const int64_t keep = lu < lv ? lu : lv, gone = lu < lv ? lv : lu;
    std::vector<vid_t>& members = members_;
    if (!collect(lu < lv ? v : u, gone, -1, members)) return false;
    for (const vid_t w : members) journal_.set_label(w, keep);
    journal_.set_size(keep, journal_.size(keep) + journal_.size(gone));
    journal_.set_size(gone, 0);
    journal_.add_components(-1);
    ++stats_->merged;
    return true;
  }

  adjacency_view_t<vid_t, eid_t> out_;
  adjacency_view_t<vid_t, eid_t> in_;
  bool directed_;
  label_journal_t<vid_t> journal_;
  cancel_token_t cancel_;
  std::vector<int64_t> mark_;
  std::vector<vid_t> members_;
  int64_t stamp_ = 0;
  int64_t work_ = 0;
  int64_t budget_ = 0;
  stats_t* stats_ = nullptr;
};

}  // namespace dyng::components::detail
