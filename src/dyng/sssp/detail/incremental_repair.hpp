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
// 4. Canonical parents are redone only where they can change: full in-row scans for cut vertices,
//    vertices whose distance changed and heads of changed edges; an out-neighbour y of a changed
//    vertex whose own distance and parent survived only needs min(old parent, changed tight u),
//    which the out-row scan of u provides.
// Steps 1-3 count the edges they examine; past `budget` the repair gives up (undo() restores the
// state) so that a batch that touches most of the graph costs little more than a recompute. When
// to give up and what follows is the shared policy's (core/dynamic_update.hpp).
// The repair is sequential on every backend: the affected region of a batch that does not fall
// back is small, where a parallel region would cost more than it saves.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
                       state_t<vid_t>& state)
      : out_(out),
        in_(in),
        in_sorted_(in_sorted),
        objective_(objective),
        w_out_(column_of(out, objective)),
        w_in_(column_of(in, objective)),
        state_(state) {}

  /// Repairs `state` (already grown to the graph's size) for the batch in `log`. Returns false,
  /// with the state partly modified, once the work passes `budget`; call undo() then.
  bool run(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    const vid_t n = out_.num_vertices;
    dist_ = state_.distances.data();
    parents_ = state_.parents.data();
    flags_.assign(static_cast<size_t>(n), 0);
    records_.clear();

    for (const edge_change_t<vid_t>& change : log.changes) {
      if (change.kind == edge_change_kind_t::inserted) continue;
      const vid_t v = change.dst;
      if (parents_[v] == change.src && dist_[v] != k_infinite_distance && !cut_subtree(v, budget)) {
        return false;
      }
    }
    const size_t cut = records_.size();
    stats.invalidated = invalidated_;

    radix_heap_t<vid_t> heap;
    for (size_t i = 0; i < cut; ++i) {
      const vid_t v = records_[i].vertex;
      int64_t best = k_infinite_distance;
      for (eid_t slot = in_.begin(v); slot < in_.end(v); ++slot) {
        const int64_t du = dist_[in_.neighbour(slot)];
        if (du != k_infinite_distance && du + w_in_(slot) < best) best = du + w_in_(slot);
      }
      work_ += in_.degree(v);
      if (best < dist_[v]) {
        dist_[v] = best;
        heap.push(v, best);
        ++pushes_;
      }
    }
    for (const edge_change_t<vid_t>& change : log.changes) {
      if (change.kind != edge_change_kind_t::deleted) offer(change.src, change.dst, heap);
    }
    if (work_ > budget) return false;

    search_counters_t counters;
    const bool finished = dijkstra_radix(
        out_, w_out_, heap, dist_, budget - work_, [this](vid_t v, int64_t) { remember(v); },
        counters);
    work_ += counters.relaxations;
    pushes_ += counters.pushes;
    if (!finished) return false;

    repair_parents(log);
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
  static constexpr uint8_t k_recorded = 1;  // old values saved in records_
  static constexpr uint8_t k_changed = 2;   // final distance differs from the old one
  static constexpr uint8_t k_full = 4;      // parent needs a full in-row scan

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
    if (weight == INT64_MAX) return;  // the slot was deleted again later in the same batch
    if (weight < 1) throw_bad_weight("sssp.update()", u, v, weight, objective_);
    if (du == k_infinite_distance || du + weight >= dist_[v]) return;
    remember(v);
    dist_[v] = du + weight;
    heap.push(v, du + weight);
    ++pushes_;
  }

  void repair_parents(const change_log_t<vid_t>& log) {
    // Everything recorded so far was cut or lowered: full scan.
    for (record_t& r : records_) {
      flags_[r.vertex] |= k_full;
      if (dist_[r.vertex] != r.distance) flags_[r.vertex] |= k_changed;
    }
    for (const edge_change_t<vid_t>& change : log.changes) {
      remember(change.dst);
      flags_[change.dst] |= k_full;
    }
    // The other out-neighbours y of changed vertices kept their distance and their in-edges, and
    // their old parent p kept its distance too: had p's distance dropped, y's would have, and had
    // it risen, p was cut and y with it (the edge (p, y) is unchanged). So p is still tight and
    // the new parent is the lowest of p and the changed in-neighbours that are tight now.
    const size_t scanned = records_.size();
    for (size_t i = 0; i < scanned; ++i) {
      const vid_t u = records_[i].vertex;
      if (!(flags_[u] & k_changed)) continue;
      const int64_t du = dist_[u];
      for (eid_t slot = out_.begin(u); slot < out_.end(u); ++slot) {
        const vid_t y = out_.neighbour(slot);
        if (flags_[y] & k_full) continue;
        remember(y);
        if (y != u && du != k_infinite_distance && du + w_out_(slot) == dist_[y] &&
            (parents_[y] < 0 || u < parents_[y]) && y != state_.source) {
          parents_[y] = u;
        }
      }
    }
    for (const record_t& r : records_) {
      if (flags_[r.vertex] & k_full) {
        parents_[r.vertex] = canonical_parent(in_, w_in_, dist_, state_.source, r.vertex, in_sorted_);
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
  int64_t* dist_ = nullptr;
  vid_t* parents_ = nullptr;
  std::vector<uint8_t> flags_;
  std::vector<record_t> records_;
  std::vector<vid_t> stack_;
  int64_t work_ = 0;
  int64_t pushes_ = 0;
  int64_t invalidated_ = 0;
};

}  // namespace dyng::sssp::detail
