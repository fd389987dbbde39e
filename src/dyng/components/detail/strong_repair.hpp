// Incremental repair of strongly connected components after a batch, on the graph after it.
//
// An edge between two components of the old graph lies on no cycle of it, so deleting it changes
// nothing, and only the components the batch touches can change, in two phases:
//  1. Split. A component c with deleted edges inside it stays strongly connected when the tail
//     of each still reaches its head inside c (an old path goes around the deletions); each is
//     asked with a forward and a backward search in turns, stopping when they meet. Otherwise c
//     is examined once: Tarjan restricted to the vertices labelled c, started from every
//     endpoint of those deletions. That reaches all of
//     c: an old path from a deletion's tail to any vertex of c either survived or has a last
//     deleted edge, whose head reaches the vertex. Each component found takes its smallest id.
//  2. Merge. An inserted edge (u, v) between two labels closes a cycle exactly when v reaches u,
//     which a forward search from v and a backward one from u decide together, stopping when
//     they meet or the smaller runs out. On a cycle, the component of u in the new graph is what
//     v reaches (a forward search) intersected with what reaches u (a backward search inside the
//     forward marks), and it is a union of whole labels of phase 1, which become one with its
//     smallest id. Without a topological order of the components nothing cheaper bounds these
//     searches to the vertices between v and u; the budget bounds them. Work is counted in vertices and
// edges visited; past `budget` the repair gives up (the journal undoes it) and the shared policy
// recomputes. Searches poll the caller's stop flag every k_cancel_poll_mask + 1 vertices.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/components/components.hpp"
#include "dyng/components/detail/label_journal.hpp"
#include "dyng/components/detail/tarjan.hpp"
#include "dyng/core/stage_scope.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::components::detail {

inline constexpr const char* k_strong_repair_stopped = "components repair";
inline constexpr int64_t k_any_label = INT64_MIN;

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
    for (const auto& [u, v] : crossing) {
      if (journal_.label(u) != journal_.label(v) && !merge_cycle(u, v, budget, stats)) {
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
  struct deletion_t {
    int64_t label;
    vid_t tail, head;
  };

  // Whether every deleted edge (tail, head) of one component still has a path from its tail to
  // its head inside the component: then each old path can go around the deletions, and the
  // component is still strongly connected.
  bool still_connected(const deletion_t* first, const deletion_t* last, int64_t budget,
                       stats_t& stats, bool& connected) {
    connected = true;
    for (const deletion_t* d = first; d != last && connected; ++d) {
      if (!meets(d->head, d->tail, d->label, budget, stats, connected)) return false;
    }
    return true;
  }

  // Phase 1: a component with deletions inside it that leave it strongly connected stays as it
  // is; any other is re-examined by one Tarjan restricted to it, started from every endpoint.
  bool split(std::vector<deletion_t>& inside, int64_t budget, stats_t& stats) {
    if (inside.empty()) return true;
    std::stable_sort(inside.begin(), inside.end(),
                     [](const deletion_t& a, const deletion_t& b) { return a.label < b.label; });
    std::optional<tarjan_t<vid_t, eid_t>> tarjan;
    std::vector<std::vector<vid_t>> found;
    for (size_t first = 0, last = 0; first < inside.size(); first = last) {
      const int64_t label = inside[first].label;
      for (last = first; last < inside.size() && inside[last].label == label; ++last) {
      }
      bool connected = true;
      if (!still_connected(&inside[first], inside.data() + last, budget, stats, connected)) {
        return false;
      }
      if (connected) continue;
      if (!tarjan) tarjan.emplace(out_, cancel_);
      found.clear();
      const auto within = [&](vid_t w) { return journal_.label(w) == label; };
      const auto emit = [&](const vid_t* begin, const vid_t* end) {
        found.emplace_back(begin, end);
      };
      for (size_t k = first; k < last; ++k) {
        tarjan->search(inside[k].tail, within, emit);
        tarjan->search(inside[k].head, within, emit);
      }
      ++stats.searches;
      if (work_ + tarjan->edges() + tarjan->vertices() > budget) return false;
      for (const std::vector<vid_t>& members : found) label_component(members, journal_);
      journal_.add_components(static_cast<int64_t>(found.size()) - 1);
      stats.split += static_cast<int64_t>(found.size()) - 1;
    }
    if (tarjan) {
      work_ += tarjan->edges() + tarjan->vertices();
      stats.search_size += tarjan->vertices();
    }
    return true;
  }

  // Marks with a new stamp what `start` reaches through `view` and through vertices marked
  // `within` (0: any vertex); returns them, or false when over budget.
  bool reach(const adjacency_view_t<vid_t, eid_t>& view, vid_t start, int64_t within,
             int64_t budget, std::vector<vid_t>& reached, stats_t& stats) {
    const int64_t stamp = ++stamp_;
    ++stats.searches;
    reached.assign(1, start);
    mark_[static_cast<size_t>(start)] = stamp;
    for (size_t head = 0; head < reached.size(); ++head) {
      if ((head & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel_, k_strong_repair_stopped);
      const vid_t x = reached[head];
      for (eid_t slot = view.begin(x); slot < view.end(x); ++slot) {
        const auto y = static_cast<size_t>(view.neighbour(slot));
        if (mark_[y] == stamp || (within != 0 && mark_[y] != within)) continue;
        mark_[y] = stamp;
        reached.push_back(view.neighbour(slot));
      }
      work_ += 1 + view.degree(x);
      if (work_ > budget) return false;
    }
    stats.search_size += static_cast<int64_t>(reached.size());
    return true;
  }

  // Whether v reaches u, through vertices labelled `label` (k_any_label: any): a forward search
  // from v and a backward one from u, in turns, the one with less work first, until they meet
  // (yes) or one runs out (no), so either answer costs about the smaller of the two. Sets
  // `reaches`; false when over budget.
  bool meets(vid_t u, vid_t v, int64_t label, int64_t budget, stats_t& stats, bool& reaches) {
    const int64_t ahead = ++stamp_, behind = ++stamp_;
    forward_.assign(1, v);
    backward_.assign(1, u);
    mark_[static_cast<size_t>(v)] = ahead;
    mark_[static_cast<size_t>(u)] = behind;
    size_t heads[2] = {0, 0};
    int64_t work[2] = {0, 0};
    ++stats.searches;
    reaches = false;
    while (!reaches && heads[0] < forward_.size() && heads[1] < backward_.size()) {
      const int side = work[0] <= work[1] ? 0 : 1;
      const auto& view = side == 0 ? out_ : in_;
      std::vector<vid_t>& queue = side == 0 ? forward_ : backward_;
      const int64_t own = side == 0 ? ahead : behind, other = side == 0 ? behind : ahead;
      const vid_t x = queue[heads[side]++];
      if ((heads[side] & k_cancel_poll_mask) == 0) {
        throw_if_cancelled(cancel_, k_strong_repair_stopped);
      }
      for (eid_t slot = view.begin(x); slot < view.end(x) && !reaches; ++slot) {
        const auto y = static_cast<size_t>(view.neighbour(slot));
        if (label != k_any_label && journal_.label(view.neighbour(slot)) != label) continue;
        reaches = mark_[y] == other;
        if (mark_[y] == own || reaches) continue;
        mark_[y] = own;
        queue.push_back(view.neighbour(slot));
      }
      work[side] += 1 + view.degree(x);
      work_ += 1 + view.degree(x);
      if (work_ > budget) return false;
    }
    stats.search_size += static_cast<int64_t>(forward_.size() + backward_.size());
    return true;
  }

  // Phase 2 for the inserted edge (u, v); false when over budget.
  bool merge_cycle(vid_t u, vid_t v, int64_t budget, stats_t& stats) {
    bool reaches = false;
    if (!meets(u, v, k_any_label, budget, stats, reaches)) return false;
    if (!reaches) return true;  // no cycle through (u, v)
    if (!reach(out_, v, 0, budget, forward_, stats)) return false;
    if (!reach(in_, u, stamp_, budget, backward_, stats)) return false;
    std::vector<int64_t> labels;
    for (const vid_t w : backward_) labels.push_back(journal_.label(w));
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    for (const int64_t label : labels) journal_.set_size(label, 0);
    label_component(backward_, journal_);
    journal_.add_components(1 - static_cast<int64_t>(labels.size()));
    stats.merged += static_cast<int64_t>(labels.size()) - 1;
    return true;
  }

  adjacency_view_t<vid_t, eid_t> out_;
  adjacency_view_t<vid_t, eid_t> in_;
  label_journal_t<vid_t> journal_;
  cancel_token_t cancel_;
  std::vector<int64_t> mark_;
  std::vector<vid_t> forward_, backward_;
  int64_t stamp_ = 0;
  int64_t work_ = 0;
};

}  // namespace dyng::components::detail
