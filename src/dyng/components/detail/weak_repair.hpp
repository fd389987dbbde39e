// Incremental repair of weakly connected components after a batch, on the graph after it.
//
// Components the batch does not touch are unchanged: no changed edge ends in them. The touched
// ones are repaired in two phases, whose order makes every search a search of one label:
//  1. Split. The endpoints of the deletions inside one old component c are checked against the
//     first of them, the anchor: a breadth-first search from the anchor and one from the
//     endpoint run through label c on the undirected view (out- and in-edges), in turns, the
//     side with less work first. If they meet, the two are connected, and the anchor's side
//     absorbs the other's vertices and keeps them for the next endpoint (one it already holds
//     costs nothing). If one side runs out, it is a whole piece cut off by the deletions, and
//     leaves the search (a new anchor is taken if it was the anchor's). A search costs about
//     twice the smaller side's work. Every piece holds an endpoint, so once one is left, what
//     still has label c is one piece. Each piece found takes its smallest id as label, and the
//     rest keeps c, unless c (the smallest id of the old component) is in a piece found, in
//     which case the rest is searched once more to find its own (a canonical label costs that).
//     Inserted edges inside c take part in the searches; edges between labels are not followed,
//     so after this phase each label is a connected piece of one old component.
//  2. Merge. For each inserted edge (u, v) whose endpoints have different labels, the component
//     with the larger label is searched and relabelled with the smaller one.
// Searches count the vertices and edges they visit; past `budget` the repair gives up (the journal
// undoes it) and the shared policy recomputes. The searches poll the caller's stop flag every
// k_cancel_poll_mask + 1 vertices. The repair is sequential on every host backend: what does not
// fall back is small.
#pragma once

#include <algorithm>
#include <cstddef>
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
  weak_repair_t(const adjacency_view_t<vid_t, eid_t>& out, const adjacency_view_t<vid_t, eid_t>& in,
                bool directed, state_t<vid_t>& state, cancel_token_t cancel)
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

  /// One side of a two-sided search: its stamp, the vertices it holds (all marked with the
  /// stamp), those still to expand, and its work so far. Every label-c neighbour of an expanded
  /// vertex is held by the side (or by the other one, which it then absorbs), so a side with
  /// nothing left to expand holds a whole piece.
  struct side_t {
    int64_t stamp = 0;
    std::vector<vid_t> members;
    std::vector<vid_t> pending;
    size_t head = 0;
    int64_t work = 0;
    bool exhausted() const { return head == pending.size(); }
  };

  enum class outcome_t { met, searching, cut, over_budget };

  void start_side(side_t& side, vid_t start) {
    side.stamp = ++stamp_;
    side.members.assign(1, start);
    side.pending.assign(1, start);
    side.head = 0;
    side.work = 0;
    mark_[static_cast<size_t>(start)] = side.stamp;
  }

  outcome_t expand(side_t& side, const side_t& other, int64_t label) {
    const vid_t x = side.pending[side.head++];
    poll(side.head);
    bool met = false;
    const int64_t before = work_;
    for_each_neighbour(x, [&](vid_t y) {
      const auto at = static_cast<size_t>(y);
      if (journal_.label(y) != label || mark_[at] == side.stamp) return;
      if (mark_[at] == other.stamp) {
        met = true;
        return;
      }
      mark_[at] = side.stamp;
      side.members.push_back(y);
      side.pending.push_back(y);
    });
    side.work += work_ - before;
    if (met) return outcome_t::met;
    return work_ > budget_ ? outcome_t::over_budget : outcome_t::searching;
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

  // After a meeting: `into` holds what `from` held and goes on with its unexpanded vertices.
  void absorb(side_t& into, side_t& from) {
    for (const vid_t v : from.members) mark_[static_cast<size_t>(v)] = into.stamp;
    into.members.insert(into.members.end(), from.members.begin(), from.members.end());
    const auto unexpanded = from.pending.begin() + static_cast<std::ptrdiff_t>(from.head);
    into.pending.insert(into.pending.end(), unexpanded, from.pending.end());
    into.work += from.work;
  }

  /// Phase 1 for one old component `label` and the endpoints of its deleted edges (sorted,
  /// unique); false when over budget. Every piece the deletions leave holds one of the endpoints
  /// (the component was connected through the deleted edges), so once each open endpoint has met
  /// the anchor (the first one) or been cut off, what still has the label is one piece. The
  /// anchor's side keeps what it learnt from one endpoint to the next, so an endpoint it already
  /// holds costs nothing and the others meet it sooner.
  bool split_component(int64_t label, std::vector<vid_t>& open) {
    std::vector<std::vector<vid_t>> found;
    side_t anchor, other;
    start_side(anchor, open.front());
    // Endpoints in `open` still labelled c; a cut does not compact `open` (that would cost its
    // whole length per cut), so entries cut off are skipped where they are met.
    size_t live = open.size(), front = 0;
    while (live >= 2) {
      const vid_t end = open.back();
      if (journal_.label(end) != label || mark_[static_cast<size_t>(end)] == anchor.stamp) {
        live -= journal_.label(end) == label ? 1 : 0;
        open.pop_back();
        continue;
      }
      start_side(other, end);
      ++stats_->searches;
      const size_t held = anchor.members.size();
      const outcome_t outcome = two_sided(anchor, other, label);
      stats_->search_size +=
          static_cast<int64_t>(anchor.members.size() - held + other.members.size());
      if (outcome == outcome_t::over_budget) return false;
      if (outcome == outcome_t::met) {
        absorb(anchor, other);
        open.pop_back();
        --live;
        continue;
      }
      // A side that ran out is a whole piece: a temporary label (negative, unique) keeps it out
      // of the later searches until the canonical labels are written below.
      const bool anchor_cut = anchor.exhausted();
      found.push_back(std::move(anchor_cut ? anchor.members : other.members));
      const int64_t temporary = -2 - static_cast<int64_t>(found.size());
      for (const vid_t v : found.back()) {
        journal_.set_label(v, temporary);
        live -= std::binary_search(open.begin(), open.end(), v) ? 1 : 0;
      }
      if (anchor_cut && live > 0) {
        while (journal_.label(open[front]) != label) ++front;
        start_side(anchor, open[front]);
      }
    }
    std::erase_if(open, [&](vid_t v) { return journal_.label(v) != label; });
    return label_split(label, found, open);
  }

  // The canonical labels and sizes after phase 1 found `found` cut off from label c.
  bool label_split(int64_t label, const std::vector<std::vector<vid_t>>& found,
                   const std::vector<vid_t>& open) {
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
