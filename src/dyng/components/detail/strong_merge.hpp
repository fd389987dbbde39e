// Phase 2 of the strong repair (strong_repair.hpp): the inserted edges between components.
//
// The edges are taken one at a time, and while edge i is handled the inserted edges after it are
// left out of every search (all their parallel copies too: an old copy joins two components, so
// it lies on no cycle until its pair comes). So the labels are always the exact strongly
// connected components of the graph searched so far, H_i, whose components form a DAG. The
// component of an inserted edge (u, v) in H_i + (u, v) is S = {w : v reaches w and w reaches u}.
//
// One large component Z (the zone: the largest that the endpoints and a sample of the vertices
// fall in, when it holds a fair share of the vertices) is never walked. A forward search F from v
// and a backward search B from u stop at Z's vertices (noting that they hit Z) and are run in
// turns, the one with less work first. Every w of S outside Z lies in F or in B: if every path from
// v to w avoids Z, w is in F; otherwise Z reaches w, and then no path from w to u touches Z (w
// would be in Z, a component of H_i), so w is in B. Hence:
//  - one search that runs out without hitting Z holds all of S (S avoids Z): with F, S is what
//    reaches u inside F; with B, what v reaches inside B;
//  - when both run out and both hit Z, Z is in S, and S is Z plus what reaches u or Z inside F
//    plus what v or Z reaches inside B.
// A search that runs out without hitting Z and without its target proves that there is no cycle,
// so a miss costs about the smaller of the two searches, as in phase 1. The vertices of S outside
// Z are relabelled; Z itself is walked only when S's smallest id lies outside it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/components/components.hpp"
#include "dyng/components/detail/label_journal.hpp"
#include "dyng/graph/adjacency_view.hpp"

namespace dyng::components::detail {

inline constexpr const char* k_strong_merge_stopped = "components repair";
/// A component is the zone when it holds at least 1 / k_zone_share of the vertices (and more
/// than one): a search that stops at the zone must run to its end, which a smaller component
/// does not repay.
inline constexpr int64_t k_zone_share = 256;
inline constexpr int64_t k_zone_samples = 256;

template <class vid_t, class eid_t>
class strong_merge_t {
 public:
  /// `mark` and `stamp` are the repair's search marks (every mark is at most `stamp`); `work`
  /// its work counter.
  strong_merge_t(const adjacency_view_t<vid_t, eid_t>& out,
                 const adjacency_view_t<vid_t, eid_t>& in, label_journal_t<vid_t>& journal,
                 std::vector<int64_t>& mark, int64_t& stamp, int64_t& work, cancel_token_t cancel)
      : out_(out),
        in_(in),
        journal_(journal),
        mark_(mark),
        stamp_(stamp),
        work_(work),
        cancel_(cancel) {}

  /// Merges along the inserted edges `crossing` (between components of the old graph);
  /// false once the work passes `budget`.
  bool run(std::vector<std::pair<vid_t, vid_t>> crossing, int64_t budget, stats_t& stats) {
    if (crossing.empty()) return true;
    std::sort(crossing.begin(), crossing.end());
    crossing.erase(std::unique(crossing.begin(), crossing.end()), crossing.end());
    by_tail_ = crossing;
    by_head_.clear();
    for (const auto& [u, v] : crossing) by_head_.emplace_back(v, u);
    std::sort(by_head_.begin(), by_head_.end());
    live_tail_.assign(by_tail_.size(), 0);
    live_head_.assign(by_head_.size(), 0);
    choose_zone(crossing);
    for (const auto& [u, v] : crossing) {
      make_live(u, v);
      if (journal_.label(u) != journal_.label(v) && !merge_edge(u, v, budget, stats)) {
        return false;
      }
    }
    return true;
  }

 private:
  enum flag_t : int64_t { in_forward = 1, in_backward = 2, in_cycle = 4 };

  /// One of the two searches of an edge: its queue (every vertex it holds), how far it has
  /// expanded, its work, whether it hit the zone, and its vertices with an edge to the zone
  /// (forward) or from it (backward).
  struct side_t {
    bool forward = true;
    int64_t flag = 0;
    std::vector<vid_t> queue;
    size_t head = 0;
    int64_t work = 0;
    bool hit_zone = false;
    std::vector<vid_t> next_to_zone;
    bool done() const { return head == queue.size(); }
  };

  // The largest component among the endpoints' and those of k_zone_samples evenly spread
  // vertices, so that a large component between the endpoints is found without a pass over all
  // labels; any choice gives the same answer.
  void choose_zone(const std::vector<std::pair<vid_t, vid_t>>& crossing) {
    zone_ = -1;
    int64_t largest = 1;
    const auto consider = [&](vid_t w) {
      const int64_t label = journal_.label(w);
      if (journal_.size(label) > largest) largest = journal_.size(label), zone_ = label;
    };
    for (const auto& [u, v] : crossing) consider(u), consider(v);
    const auto n = static_cast<int64_t>(out_.num_vertices);
    for (int64_t k = 0; k < k_zone_samples; ++k)
      consider(static_cast<vid_t>(k * n / k_zone_samples));
    if (largest * k_zone_share < n) zone_ = -1;
  }

  // Flags of this edge's searches live in mark_ as base_ + flags, above every older mark.
  int64_t flags(vid_t v) const {
    const int64_t mark = mark_[static_cast<size_t>(v)];
    return mark >= base_ ? mark - base_ : 0;
  }
  void set_flag(vid_t v, int64_t flag) {
    mark_[static_cast<size_t>(v)] = base_ + (flags(v) | flag);
  }

  // Whether (tail, head) is an inserted edge whose turn has not come (it is left out).
  static bool pending_in(const std::vector<std::pair<vid_t, vid_t>>& sorted,
                         const std::vector<uint8_t>& live, vid_t first, vid_t second) {
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), std::pair{first, second});
    return it != sorted.end() && *it == std::pair{first, second} && !live[it - sorted.begin()];
  }
  bool pending(vid_t tail, vid_t head) const {
    return pending_in(by_tail_, live_tail_, tail, head);
  }
  // Whether `v` has pending inserted edges leaving it (forward) or entering it (backward).
  bool has_pending(vid_t v, bool forward) const {
    const auto& sorted = forward ? by_tail_ : by_head_;
    const auto it =
        std::lower_bound(sorted.begin(), sorted.end(), std::pair{v, vid_t{0}},
                         [](const auto& a, const auto& b) { return a.first < b.first; });
    return it != sorted.end() && it->first == v;
  }
  void make_live(vid_t u, vid_t v) {
    live_tail_[std::lower_bound(by_tail_.begin(), by_tail_.end(), std::pair{u, v}) -
               by_tail_.begin()] = 1;
    live_head_[std::lower_bound(by_head_.begin(), by_head_.end(), std::pair{v, u}) -
               by_head_.begin()] = 1;
  }

  // Calls f(y) for each neighbour y of x along (forward) or against (backward) the edges of
  // H_i, and counts the work.
  template <class f_t>
  void for_each_live(vid_t x, bool forward, const f_t& f) {
    const auto& view = forward ? out_ : in_;
    const bool check = has_pending(x, forward);
    for (eid_t slot = view.begin(x); slot < view.end(x); ++slot) {
      const vid_t y = view.neighbour(slot);
      if (check && (forward ? pending(x, y) : pending(y, x))) continue;
      f(y);
    }
    work_ += 1 + view.degree(x);
  }

  void start(side_t& side, vid_t from) {
    side.queue.clear();
    side.next_to_zone.clear();
    side.head = 0;
    side.work = 0;
    side.hit_zone = journal_.label(from) == zone_;
    if (side.hit_zone) return;  // the zone is not walked, not even from inside
    side.queue.push_back(from);
    set_flag(from, side.flag);
  }

  void expand(side_t& side) {
    const vid_t x = side.queue[side.head++];
    if ((side.head & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel_, k_strong_merge_stopped);
    const int64_t before = work_;
    bool next_to_zone = false;
    for_each_live(x, side.forward, [&](vid_t y) {
      if (journal_.label(y) == zone_) {
        next_to_zone = true;
        return;
      }
      if ((flags(y) & side.flag) != 0) return;
      set_flag(y, side.flag);
      side.queue.push_back(y);
    });
    if (next_to_zone) side.hit_zone = true, side.next_to_zone.push_back(x);
    side.work += work_ - before;
  }

  // Marks in_cycle, and appends to `cycle`, what `seeds` reach against the direction `side`
  // searched (what reaches them, for F) through vertices `side` holds.
  void close_in(const side_t& side, const std::vector<vid_t>& seeds, std::vector<vid_t>& cycle) {
    const size_t first = cycle.size();
    for (const vid_t s : seeds) {
      if ((flags(s) & (side.flag | in_cycle)) != side.flag) continue;
      set_flag(s, in_cycle);
      cycle.push_back(s);
    }
    for (size_t head = first; head < cycle.size(); ++head) {
      if ((head & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel_, k_strong_merge_stopped);
      for_each_live(cycle[head], !side.forward, [&](vid_t y) {
        if ((flags(y) & (side.flag | in_cycle)) != side.flag) return;
        set_flag(y, in_cycle);
        cycle.push_back(y);
      });
    }
  }

  // S for the inserted edge (u, v) of H_i + (u, v) (see the header); false when over budget.
  bool merge_edge(vid_t u, vid_t v, int64_t budget, stats_t& stats) {
    base_ = ((stamp_ >> 3) + 1) << 3;
    stamp_ = base_ + 7;
    forward_.forward = true, forward_.flag = in_forward;
    backward_.forward = false, backward_.flag = in_backward;
    start(forward_, v);
    start(backward_, u);
    stats.searches += 2;
    while (true) {
      const bool forward_out = forward_.done(), backward_out = backward_.done();
      if ((forward_out && backward_out) || (forward_out && !forward_.hit_zone) ||
          (backward_out && !backward_.hit_zone)) {
        break;
      }
      side_t& side =
          !forward_out && (backward_out || forward_.work <= backward_.work) ? forward_ : backward_;
      expand(side);
      if (work_ > budget) return false;
    }
    stats.search_size += static_cast<int64_t>(forward_.queue.size() + backward_.queue.size());
    const bool zone_in =
        forward_.done() && backward_.done() && forward_.hit_zone && backward_.hit_zone;
    cycle_.clear();
    if (zone_in) {
      forward_.next_to_zone.push_back(u);
      backward_.next_to_zone.push_back(v);
      close_in(forward_, forward_.next_to_zone, cycle_);
      close_in(backward_, backward_.next_to_zone, cycle_);
    } else if (forward_.done() && !forward_.hit_zone) {
      close_in(forward_, {u}, cycle_);
    } else {
      close_in(backward_, {v}, cycle_);
    }
    if (work_ > budget) return false;
    if (cycle_.empty()) return true;  // v does not reach u: no cycle through (u, v)
    return relabel(zone_in, budget, stats);
  }

  // One label for S: cycle_ plus, when `zone_in`, the zone; false when over budget.
  bool relabel(bool zone_in, int64_t budget, stats_t& stats) {
    labels_.clear();
    for (const vid_t w : cycle_) labels_.push_back(journal_.label(w));
    if (zone_in) labels_.push_back(zone_);
    std::sort(labels_.begin(), labels_.end());
    labels_.erase(std::unique(labels_.begin(), labels_.end()), labels_.end());
    const int64_t smallest = labels_.front();
    int64_t size = 0;
    for (const int64_t label : labels_) size += journal_.size(label);
    if (zone_in && zone_ != smallest && !collect_zone(budget)) return false;
    for (const vid_t w : cycle_) {
      if (journal_.label(w) != smallest) journal_.set_label(w, smallest);
    }
    for (const int64_t label : labels_) journal_.set_size(label, 0);
    journal_.set_size(smallest, size);
    journal_.add_components(1 - static_cast<int64_t>(labels_.size()));
    stats.merged += static_cast<int64_t>(labels_.size()) - 1;
    if (zone_in) zone_ = smallest;
    return true;
  }

  // Appends the zone's vertices to cycle_ (it is strongly connected: the forward search from
  // its label's vertex inside it finds them all); false when over budget.
  bool collect_zone(int64_t budget) {
    const size_t first = cycle_.size();
    const auto root = static_cast<vid_t>(zone_);
    const int64_t stamp = ++stamp_;
    mark_[static_cast<size_t>(root)] = stamp;
    cycle_.push_back(root);
    for (size_t head = first; head < cycle_.size(); ++head) {
      if ((head & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel_, k_strong_merge_stopped);
      const vid_t x = cycle_[head];
      for (eid_t slot = out_.begin(x); slot < out_.end(x); ++slot) {
        const vid_t y = out_.neighbour(slot);
        if (mark_[static_cast<size_t>(y)] == stamp || journal_.label(y) != zone_) continue;
        mark_[static_cast<size_t>(y)] = stamp;
        cycle_.push_back(y);
      }
      work_ += 1 + out_.degree(x);
      if (work_ > budget) return false;
    }
    return true;
  }

  adjacency_view_t<vid_t, eid_t> out_;
  adjacency_view_t<vid_t, eid_t> in_;
  label_journal_t<vid_t>& journal_;
  std::vector<int64_t>& mark_;
  int64_t& stamp_;
  int64_t& work_;
  cancel_token_t cancel_;
  std::vector<std::pair<vid_t, vid_t>> by_tail_, by_head_;  // inserted (tail, head), (head, tail)
  std::vector<uint8_t> live_tail_, live_head_;              // whose turn has come
  int64_t zone_ = -1;
  int64_t base_ = 0;
  side_t forward_, backward_;
  std::vector<vid_t> cycle_;
  std::vector<int64_t> labels_;
};

}  // namespace dyng::components::detail
