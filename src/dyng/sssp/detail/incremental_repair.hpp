// Incremental repair of a shortest-path tree after a batch of edge changes (the invalidate-then-
// reconnect scheme of Ramalingam and Reps, "An incremental algorithm for a generalization of the
// shortest-path problem", J. Algorithms 1996, with the dist-only queue of dijkstra_sequential.hpp).
//
// 1. Every deleted or reweighted tree edge (parents[v] == u) cuts v's subtree loose: its
//    vertices get distance infinity. What stays finite is still realised by an unchanged tree
//    path, so it is an upper bound of the new distance.
// 2. Seeds: each cut vertex takes its best offer from in-neighbours still finite, and each
//    inserted or reweighted edge offers dist[u] + w to its head.
// 3. A radix-heap Dijkstra from the seeds lowers distances until no edge can improve one.
// 4. Canonical parents are redone only where they can change: full in-row scans for cut vertices
//    and vertices whose distance changed. A vertex whose distance and parent survived keeps a
//    tight parent, so it only needs min(old parent, new tight in-neighbours): the out-row scans of
//    the changed vertices and the offers of step 2 name every candidate.
// Steps 1-3 count their work in units of about one cache miss (an edge relaxed, a deleted edge's
// tree test, an offer at several misses); past `budget` the repair gives up (undo() restores the
// state) so that a batch that touches most of the graph costs little more than a recompute. A
// batch whose changes alone cost more than the budget gives up before touching anything. When
// to give up and what follows is the shared policy's (core/dynamic_update.hpp).
// The repair is sequential on every backend: the affected region of a batch that does not fall
// back is small, where a parallel region would cost more than it saves.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dyng/backend/profile.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/sssp/detail/dijkstra_sequential.hpp"
#include "dyng/sssp/detail/radix_heap.hpp"
#include "dyng/sssp/detail/sssp_checks.hpp"
#include "dyng/sssp/detail/sssp_common.hpp"

namespace dyng::sssp::detail {

template <class vid_t, class eid_t>
class incremental_repair_t {
 public:
  incremental_repair_t(const adjacency_view_t<vid_t, eid_t>& out,
                       const adjacency_view_t<vid_t, eid_t>& in, bool in_sorted, int objective,
                       state_t<vid_t>& state, cancel_token_t cancel = {})
      : out_(out),
        in_(in),
        in_sorted_(in_sorted),
        objective_(objective),
        w_out_(column_of(out, objective)),
        w_in_(column_of(in, objective)),
        state_(state),
        cancel_(cancel) {}

  /// Repairs `state` (already grown to the graph's size) for the batch in `log`. Returns false,
  /// with the state partly modified, once the work passes `budget`; call undo() then. The search
  /// of step 3, the bulk of a large repair, throws interrupted_error once the caller's flag asks
  /// (undo() then too); the steps before it stay within the budget's share of a compute.
  bool run(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    records_.clear();
    offers_.clear();
    if (log_work(log) > budget) return false;
    const vid_t n = out_.num_vertices;
    dist_ = state_.distances.data();
    parents_ = state_.parents.data();
    flags_.assign(static_cast<size_t>(n), 0);

    {
      stage_scope_t identify_stage("sssp.identify_affected");
      for (const edge_change_t<vid_t>& change : log.changes) {
        if (change.kind == edge_change_kind_t::inserted) continue;
        const vid_t v = change.dst;
        work_ += k_tree_test_work;
        if (parents_[v] == change.src && dist_[v] != k_infinite_distance &&
            !cut_subtree(v, budget)) {
          return false;
        }
      }
    }
    const size_t cut = records_.size();
    stats.invalidated = invalidated_;

    radix_heap_t<vid_t> heap;
    std::optional<stage_scope_t> seed_stage(std::in_place, "sssp.seed");
    for (size_t i = 0; i < cut; ++i) {
      const vid_t v = records_[i].vertex;
      int64_t best = k_infinite_distance;
      for (eid_t slot = in_.begin(v); slot < in_.end(v); ++slot) {
        const int64_t du = dist_[in_.neighbour(slot)];
        if (du != k_infinite_distance && du + w_in_(slot) < best) best = du + w_in_(slot);
      }
      work_ += in_.degree(v);
      if (work_ > budget) return false;
      if (best < dist_[v]) {
        dist_[v] = best;
        heap.push(v, best);
        ++pushes_;
      }
    }
    for (const edge_change_t<vid_t>& change : log.changes) {
      if (change.kind == edge_change_kind_t::deleted) continue;
      offer(change.src, change.dst, heap);
      if (work_ > budget) return false;
    }

    seed_stage.reset();
    search_counters_t counters;
    bool finished = false;
    {
      stage_scope_t loop_stage("sssp.loop");
      finished = dijkstra_radix(
          out_, w_out_, heap, dist_, budget - work_, [this](vid_t v, int64_t) { remember(v); },
          counters, cancel_);
    }
    work_ += counters.relaxations;
    pushes_ += counters.pushes;
    if (!finished) return false;

    stage_scope_t finalize_stage("sssp.finalize");
    repair_parents();
    int64_t affected = 0;
    for (const record_t& r : records_) {
      affected += (dist_[r.vertex] != r.distance || parents_[r.vertex] != r.parent) ? 1 : 0;
    }
    stats.affected = affected;
    stats.pushes = pushes_;
    stats.frontier_visits = work_;
    stats.iterations = counters.buckets;
    return true;
  }

  /// Puts back the distances and parents that run() changed.
  void undo() {
    for (const record_t& r : records_) {
      state_.distances[r.vertex] = r.distance;
      state_.parents[r.vertex] = r.parent;
    }
    records_.clear();
  }

  int64_t invalidated() const { return invalidated_; }

 private:
  struct record_t {
    vid_t vertex;
    int64_t distance;
    vid_t parent;
  };
  /// An offered edge: its tail, head and lowest weight (over parallel slots).
  struct offer_t {
    vid_t tail;
    vid_t head;
    int64_t weight;
  };
  // Work units (about one cache miss each, as an edge relaxation). Measured on R-MAT 20 with a
  // batch of 100,000 changes: an offer (two offsets, a short row scan, two distances) takes as
  // long as six relaxations; the tree test of a deleted edge reads one parent.
  static constexpr int64_t k_tree_test_work = 1;
  static constexpr int64_t k_offer_work = 6;
  static constexpr uint8_t k_recorded = 1;  // old values saved in records_
  static constexpr uint8_t k_changed = 2;   // final distance differs from the old one
  static constexpr uint8_t k_full = 4;      // parent needs a full in-row scan

  /// The work every run() spends on `log` whatever the graph: a tree test per deleted or
  /// reweighted edge and an offer per inserted or reweighted one (without their row scans).
  static int64_t log_work(const change_log_t<vid_t>& log) {
    int64_t work = 0;
    for (const edge_change_t<vid_t>& change : log.changes) {
      if (change.kind != edge_change_kind_t::inserted) work += k_tree_test_work;
      if (change.kind != edge_change_kind_t::deleted) work += k_offer_work;
    }
    return work;
  }

  void remember(vid_t v) {
    if (flags_[v] & k_recorded) return;
    flags_[v] |= k_recorded;
    records_.push_back({v, dist_[v], parents_[v]});
  }

  // Sets the old subtree of `root` to infinity, walking children (parents[y] == x) through the
  // out-rows. Vertices already infinite are cut already (or were never reached).
  bool cut_subtree(vid_t root, int64_t budget) {
    remember(root);
    dist_[root] = k_infinite_distance;
    stack_.assign(1, root);
    ++invalidated_;
    while (!stack_.empty()) {
      const vid_t x = stack_.back();
      stack_.pop_back();
      for (eid_t slot = out_.begin(x); slot < out_.end(x); ++slot) {
        const vid_t y = out_.neighbour(slot);
        if (parents_[y] == x && dist_[y] != k_infinite_distance) {
          remember(y);
          dist_[y] = k_infinite_distance;
          stack_.push_back(y);
          ++invalidated_;
        }
      }
      work_ += out_.degree(x);
      if (work_ > budget) return false;
    }
    return true;
  }

  // Offers dist[u] + w(u, v) over every (u, v) slot to v, reading the shorter of u's out-row and
  // v's in-row. The weight is checked here because update() does not rescan the graph. A row
  // scan that only compares ids is sequential and an order of magnitude cheaper per slot than a
  // relaxation, so it counts 1/8 per slot in the work count.
  void offer(vid_t u, vid_t v, radix_heap_t<vid_t>& heap) {
    const int64_t du = dist_[u];
    int64_t weight = INT64_MAX;
    if (out_.degree(u) <= in_.degree(v)) {
      for (eid_t slot = out_.begin(u); slot < out_.end(u); ++slot) {
        if (out_.neighbour(slot) == v && w_out_(slot) < weight) weight = w_out_(slot);
      }
      work_ += (out_.degree(u) + 7) / 8;
    } else {
      for (eid_t slot = in_.begin(v); slot < in_.end(v); ++slot) {
        if (in_.neighbour(slot) == u && w_in_(slot) < weight) weight = w_in_(slot);
      }
      work_ += (in_.degree(v) + 7) / 8;
    }
    work_ += k_offer_work;
    if (weight == INT64_MAX) return;  // the slot was deleted again later in the same batch
    if (weight < 1) throw_bad_weight("sssp.update()", u, v, weight, objective_);
    offers_.push_back({u, v, weight});
    if (du == k_infinite_distance || du + weight >= dist_[v]) return;
    remember(v);
    dist_[v] = du + weight;
    heap.push(v, du + weight);
    ++pushes_;
  }

  void repair_parents() {
    // Everything recorded so far was cut or lowered: full scan.
    for (record_t& r : records_) {
      flags_[r.vertex] |= k_full;
      if (dist_[r.vertex] != r.distance) flags_[r.vertex] |= k_changed;
    }
    // Every other vertex y kept its distance, and its old parent p kept its distance and the
    // edge (p, y): had p's distance dropped, y's would have; had it risen, p's subtree (y in it)
    // was cut, and had the batch deleted or reweighted an edge (p, y), y was cut. So p is still
    // tight, and only in-neighbours that became tight can take its place: those whose distance
    // changed (found by their out-row scans) and the tails of offered edges. The new parent is the
    // lowest of them and p.
    auto consider = [this](vid_t u, vid_t y, int64_t weight) {
      if (flags_[y] & k_full) return;
      remember(y);
      if (y != u && dist_[u] != k_infinite_distance && dist_[u] + weight == dist_[y] &&
          (parents_[y] < 0 || u < parents_[y]) && y != state_.source) {
        parents_[y] = u;
      }
    };
    const size_t scanned = records_.size();
    for (size_t i = 0; i < scanned; ++i) {
      const vid_t u = records_[i].vertex;
      if (!(flags_[u] & k_changed)) continue;
      for (eid_t slot = out_.begin(u); slot < out_.end(u); ++slot) {
        consider(u, out_.neighbour(slot), w_out_(slot));
      }
    }
    for (const offer_t& o : offers_) consider(o.tail, o.head, o.weight);
    for (const record_t& r : records_) {
      if (flags_[r.vertex] & k_full) {
        parents_[r.vertex] =
            canonical_parent(in_, w_in_, dist_, state_.source, r.vertex, in_sorted_);
      }
    }
  }

  adjacency_view_t<vid_t, eid_t> out_;
  adjacency_view_t<vid_t, eid_t> in_;
  bool in_sorted_;
  int objective_;
  weight_column_t w_out_;
  weight_column_t w_in_;
  state_t<vid_t>& state_;
  cancel_token_t cancel_;
  int64_t* dist_ = nullptr;
  vid_t* parents_ = nullptr;
  std::vector<uint8_t> flags_;
  std::vector<record_t> records_;
  std::vector<offer_t> offers_;
  std::vector<vid_t> stack_;
  int64_t work_ = 0;
  int64_t pushes_ = 0;
  int64_t invalidated_ = 0;
};

}  // namespace dyng::sssp::detail
