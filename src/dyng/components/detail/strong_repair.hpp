// Incremental repair of strongly connected components after a batch, on the graph after it.
//
// An edge between two components of the old graph lies on no cycle of it, so deleting it changes
// nothing, and only the components the batch touches can change, in two phases:
//  1. Split, per component c with deleted edges inside it. c stays strongly connected when the
//     tail of each deleted edge still reaches its head inside c (an old path goes around the
//     deletions): the tail reaches one hub and the hub reaches the head. Each such question is
//     asked by a search from the tail or head and the hub's own search in the other direction,
//     in turns, stopping when they meet; the hub's searches are kept for the next question
//     (detail/hub_reach.hpp), so the deletions of one component share them. When a search runs
//     out instead, what it holds is closed inside c (nothing leaves it forwards, or nothing
//     enters it backwards): it is cut off, its strongly connected components found by Tarjan
//     restricted to it, and c goes on without it. What is left stays strongly connected when,
//     besides the deletions inside it, every old path through the pieces cut off can go around
//     them: every vertex left with an edge into a piece (an entry, now or before the batch)
//     reaches the hub, and the hub reaches every vertex left with an edge from a piece (an
//     exit). These are asked the same way and may cut more off (a new hub when the hub was cut
//     off asks every question again); an answer stays true after a cut, since no path between
//     vertices left passes through a closed set. Each piece takes its smallest id; what is left
//     keeps c, or, when c was cut off, is searched once to find its own smallest id.
//  2. Merge, along the inserted edges between components of the old graph, one at a time, on
//     the graph without the inserted edges whose turn has not come, so the labels are always its
//     exact components: an edge (u, v) closes a cycle when v reaches u, and the component it
//     makes is what v reaches and what reaches u, found without walking the largest component it
//     can find (detail/strong_merge.hpp).
// Work is counted in vertices and edges visited; past `budget` the repair gives up (the journal
// undoes it) and the shared policy recomputes. Searches poll the caller's stop flag every
// k_cancel_poll_mask + 1 vertices.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/components/components.hpp"
#include "dyng/components/detail/hub_reach.hpp"
#include "dyng/components/detail/label_journal.hpp"
#include "dyng/components/detail/strong_merge.hpp"
#include "dyng/components/detail/tarjan.hpp"
#include "dyng/core/stage_scope.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::components::detail {

inline constexpr const char* k_strong_repair_stopped = "components repair";

template <class vid_t, class eid_t>
class strong_repair_t {
 public:
  strong_repair_t(const adjacency_view_t<vid_t, eid_t>& out,
                  const adjacency_view_t<vid_t, eid_t>& in, state_t<vid_t>& state,
                  cancel_token_t cancel)
      : out_(out), in_(in), journal_(state), cancel_(cancel) {}

  /// Repairs the (already grown) state for `log`; false once the work passes `budget`.
  bool run(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    journal_.begin();
    mark_.assign(static_cast<size_t>(out_.num_vertices), 0);
    stamp_ = 0;
    work_ = 0;
    add_new_vertices(log, journal_);
    // Inserted edges between old components, taken before phase 1 relabels anything.
    std::vector<std::pair<vid_t, vid_t>> crossing;
    std::vector<deletion_t> inside;  // deletions within one old component, for phase 1
    for (const edge_change_t<vid_t>& change : log.changes) {
      const int64_t lu = journal_.label(change.src), lv = journal_.label(change.dst);
      if (change.kind == edge_change_kind_t::inserted && lu != lv) {
        crossing.emplace_back(change.src, change.dst);
      } else if (change.kind == edge_change_kind_t::deleted && lu == lv &&
                 change.src != change.dst) {
        inside.push_back({lu, change.src, change.dst});
      }
    }
    {
      const stage_scope_t split_stage("components.split");
      if (!split(inside, budget, stats)) return false;
    }
    const stage_scope_t merge_stage("components.merge");
    strong_merge_t<vid_t, eid_t> merge(out_, in_, journal_, mark_, stamp_, work_, cancel_);
    if (!merge.run(std::move(crossing), budget, stats)) return false;
    stats.affected = journal_.affected();
    stats.relabelled = journal_.relabelled();
    stats.iterations = stats.searches;
    stats.frontier_visits = work_;
    return true;
  }

  void undo() noexcept { journal_.undo(); }

 private:
  struct deletion_t {
    int64_t label;
    vid_t tail, head;
  };

  /// What phase 1 knows about one old component while it peels: the pieces cut off (each a
  /// strongly connected component, under a temporary label), the reachability checks still to
  /// make, the vertices left in the component that have an edge to or from a piece now or had
  /// one before the batch (entries and exits), and the hub that entries must reach and exits
  /// be reached from.
  struct peel_t {
    std::vector<std::vector<vid_t>> pieces;
    std::vector<std::pair<vid_t, vid_t>> checks;  // (from, to): from must reach to
    std::vector<vid_t> entries, exits;
    int64_t hub = -1;
    // The component's deleted edges as (head, tail) and (tail, head), sorted, so that a cut
    // finds those that touch it in time of its own size.
    std::vector<std::pair<vid_t, vid_t>> deleted_into, deleted_from;
  };

  // Phase 1, one component per group of deletions (see the header).
  bool split(std::vector<deletion_t>& inside, int64_t budget, stats_t& stats) {
    std::stable_sort(inside.begin(), inside.end(),
                     [](const deletion_t& a, const deletion_t& b) { return a.label < b.label; });
    for (size_t first = 0, last = 0; first < inside.size(); first = last) {
      for (last = first; last < inside.size() && inside[last].label == inside[first].label;) {
        ++last;
      }
      if (!split_component(&inside[first], inside.data() + last, budget, stats)) return false;
    }
    return true;
  }

  bool split_component(const deletion_t* first, const deletion_t* last, int64_t budget,
                       stats_t& stats) {
    const int64_t label = first->label;
    peel_t peel;
    // Each tail must reach its head: it reaches the hub, and the hub reaches the head.
    for (const deletion_t* d = first; d != last; ++d) {
      peel.entries.push_back(d->tail);
      peel.exits.push_back(d->head);
      peel.deleted_into.emplace_back(d->head, d->tail);
      peel.deleted_from.emplace_back(d->tail, d->head);
    }
    std::sort(peel.deleted_into.begin(), peel.deleted_into.end());
    std::sort(peel.deleted_from.begin(), peel.deleted_from.end());
    queue_hub_checks(label, peel, 0, 0);
    std::vector<vid_t> closed;
    while (!peel.checks.empty()) {
      const auto [from, to] = peel.checks.back();
      peel.checks.pop_back();
      if (++work_ > budget) return false;
      if (from == to || journal_.label(from) != label || journal_.label(to) != label) continue;
      const bool towards = to == peel.hub;
      bool reaches = false;
      int64_t stamp = 0;
      if (!hub_.ask(towards ? from : to, towards, label, budget, stats, reaches, closed, stamp)) {
        return false;
      }
      if (reaches) continue;
      // The side that ran out is closed inside what is left: peel it.
      if (!peel_off(label, closed, stamp, budget, stats, peel)) return false;
    }
    return label_peeled(label, first, last, budget, stats, peel);
  }

  // Cuts the closed set `closed` (marked `stamp`) off label c: its strongly connected
  // components by Tarjan, each under a temporary label, and the checks its edges call for.
  bool peel_off(int64_t label, const std::vector<vid_t>& closed, int64_t stamp, int64_t budget,
                stats_t& stats, peel_t& peel) {
    if (!tarjan_) tarjan_.emplace(out_, cancel_);
    const int64_t cost = tarjan_->edges() + tarjan_->vertices();
    const size_t known = peel.pieces.size();
    const auto within = [&](vid_t w) { return mark_[static_cast<size_t>(w)] == stamp; };
    const auto emit = [&](const vid_t* begin, const vid_t* end) {
      peel.pieces.emplace_back(begin, end);
    };
    for (const vid_t v : closed) tarjan_->search(v, within, emit);
    work_ += tarjan_->edges() + tarjan_->vertices() - cost;
    stats.search_size += static_cast<int64_t>(closed.size());
    for (size_t k = known; k < peel.pieces.size(); ++k) {
      for (const vid_t v : peel.pieces[k]) journal_.set_label(v, -2 - static_cast<int64_t>(k));
    }
    const size_t old_entries = peel.entries.size(), old_exits = peel.exits.size();
    for (const vid_t v : closed) {
      for (eid_t slot = in_.begin(v); slot < in_.end(v); ++slot) {
        const vid_t x = in_.neighbour(slot);
        if (journal_.label(x) == label) peel.entries.push_back(x);
      }
      for (eid_t slot = out_.begin(v); slot < out_.end(v); ++slot) {
        const vid_t z = out_.neighbour(slot);
        if (journal_.label(z) == label) peel.exits.push_back(z);
      }
      work_ += 1 + in_.degree(v) + out_.degree(v);
    }
    for (const vid_t v : closed) {  // edges to or from it before the batch
      add_deleted_ends(peel.deleted_into, v, label, peel.entries);
      add_deleted_ends(peel.deleted_from, v, label, peel.exits);
    }
    queue_hub_checks(label, peel, old_entries, old_exits);
    return work_ <= budget;
  }

  // Appends the other end of each deleted edge that `sorted` lists under v, when it is labelled
  // `label`.
  void add_deleted_ends(const std::vector<std::pair<vid_t, vid_t>>& sorted, vid_t v, int64_t label,
                        std::vector<vid_t>& ends) {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), std::pair<vid_t, vid_t>{v, 0},
                               [](const auto& a, const auto& b) { return a.first < b.first; });
    for (; it != sorted.end() && it->first == v; ++it) {
      if (journal_.label(it->second) == label) ends.push_back(it->second);
    }
    work_ += 1;
  }

  // Every entry must reach the hub and the hub every exit; a new hub (the old one was cut
  // off) asks it of them all, else only of those added since `entries` and `exits`.
  void queue_hub_checks(int64_t label, peel_t& peel, size_t entries, size_t exits) {
    if (peel.hub < 0 || journal_.label(static_cast<vid_t>(peel.hub)) != label) {
      // What was cut off is no entry or exit any more (and a long chain of cuts would otherwise
      // queue its whole history again at each new hub).
      const auto gone = [&](vid_t v) { return journal_.label(v) != label; };
      for (auto* list : {&peel.entries, &peel.exits}) {
        std::erase_if(*list, gone);
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
      }
      entries = exits = 0;
      // The component's smallest id while it is left (in a power-law graph often its best
      // connected vertex), else an entry or exit.
      peel.hub = journal_.label(static_cast<vid_t>(label)) == label ? label
                 : !peel.entries.empty()                            ? peel.entries.front()
                 : !peel.exits.empty()                              ? peel.exits.front()
                                                                    : -1;
      if (peel.hub < 0) return;
      hub_.reset(static_cast<vid_t>(peel.hub));
    }
    const auto hub = static_cast<vid_t>(peel.hub);
    for (size_t k = entries; k < peel.entries.size(); ++k) {
      peel.checks.emplace_back(peel.entries[k], hub);
    }
    for (size_t k = exits; k < peel.exits.size(); ++k) peel.checks.emplace_back(hub, peel.exits[k]);
  }

  // The canonical labels once what is left of label c is strongly connected (or empty).
  bool label_peeled(int64_t label, const deletion_t* first, const deletion_t* last, int64_t budget,
                    stats_t& stats, peel_t& peel) {
    if (peel.pieces.empty()) return true;
    int64_t moved = 0;
    for (const std::vector<vid_t>& piece : peel.pieces) {
      moved += static_cast<int64_t>(piece.size());
    }
    bool rest = journal_.label(label) == label;
    if (rest) {
      journal_.set_size(label, journal_.size(label) - moved);
    } else {
      // Some vertex left with the label has an edge to or from a piece, now or before the batch.
      int64_t start = -1;
      for (const auto* list : {&peel.entries, &peel.exits}) {
        for (const vid_t v : *list) {
          if (start < 0 && journal_.label(v) == label) start = v;
        }
      }
      for (const deletion_t* d = first; d != last && start < 0; ++d) {
        if (journal_.label(d->tail) == label) start = d->tail;
      }
      rest = start >= 0;
      if (rest) {
        if (!reach(out_, static_cast<vid_t>(start), label, budget, forward_, stats)) {
          return false;
        }
        label_component(forward_, journal_);
      }
    }
    for (const std::vector<vid_t>& piece : peel.pieces) label_component(piece, journal_);
    const auto added = static_cast<int64_t>(peel.pieces.size()) - (rest ? 0 : 1);
    journal_.add_components(added);
    stats.split += added;
    return true;
  }

  // Marks with a new stamp what `start` reaches through `view` and through vertices labelled
  // `label`; returns them, or false when over budget.
  bool reach(const adjacency_view_t<vid_t, eid_t>& view, vid_t start, int64_t label, int64_t budget,
             std::vector<vid_t>& reached, stats_t& stats) {
    const int64_t stamp = ++stamp_;
    ++stats.searches;
    reached.assign(1, start);
    mark_[static_cast<size_t>(start)] = stamp;
    for (size_t head = 0; head < reached.size(); ++head) {
      if ((head & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel_, k_strong_repair_stopped);
      const vid_t x = reached[head];
      for (eid_t slot = view.begin(x); slot < view.end(x); ++slot) {
        const auto y = static_cast<size_t>(view.neighbour(slot));
        if (mark_[y] == stamp || journal_.label(view.neighbour(slot)) != label) continue;
        mark_[y] = stamp;
        reached.push_back(view.neighbour(slot));
      }
      work_ += 1 + view.degree(x);
      if (work_ > budget) return false;
    }
    stats.search_size += static_cast<int64_t>(reached.size());
    return true;
  }

  adjacency_view_t<vid_t, eid_t> out_;
  adjacency_view_t<vid_t, eid_t> in_;
  label_journal_t<vid_t> journal_;
  cancel_token_t cancel_;
  std::vector<int64_t> mark_;
  std::vector<vid_t> forward_;
  hub_reach_t<vid_t, eid_t> hub_{out_, in_, journal_, mark_, stamp_, work_, cancel_};
  std::optional<tarjan_t<vid_t, eid_t>> tarjan_;
  int64_t stamp_ = 0;
  int64_t work_ = 0;
};

}  // namespace dyng::components::detail
