// Incremental repair of BFS levels after a batch: the invalidate-then-reconnect scheme of sssp's
// incremental_repair.hpp (after Ramalingam and Reps, J. Algorithms 1996) with unit weights and no
// parents, so a vertex's support is any in-neighbour one level up.
//
// 1. Invalidate, in rounds: a vertex whose supporting edge (u, v) with level[u] + 1 == level[v]
//    was deleted is a candidate; a candidate with no remaining in-neighbour w at level[v] - 1
//    that is still valid loses its level, and its out-neighbours one level down become the next
//    round's candidates. Each round decides on the state at its start (then applies), so the
//    rounds are the same on every backend; a vertex whose supporter fell in a later round is
//    checked again then. What stays valid still has a path of its old length.
// 2. Seed: every invalidated vertex takes the best level + 1 of its valid in-neighbours, and every
//    inserted edge (u, v) offers level[u] + 1 to v.
// 3. Search: a bucket-per-level BFS from the seeds lowers levels until no edge improves one.
// All three count the edges they examine; past `budget` the repair gives up (undo() restores the
// levels) and the shared update policy recomputes. Steps 1 and 3 poll the caller's stop flag
// (backend/cancel.hpp) per round and every k_cancel_poll_mask + 1 vertices, and throw
// interrupted_error (the policy's undo() then puts the levels back). The repair is sequential on
// every host backend: the region of a batch that does not fall back is small.
#pragma once

#include <cstdint>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/dynamic_bfs/dynamic_bfs.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::dynamic_bfs::detail {

/// Levels compare as unsigned so that k_unreached (-1) is larger than every level.
inline uint64_t rank(int64_t level) { return static_cast<uint64_t>(level); }

template <class vid_t, class eid_t>
class level_repair_t {
 public:
  level_repair_t(const adjacency_view_t<vid_t, eid_t>& out,
                 const adjacency_view_t<vid_t, eid_t>& in, state_t<vid_t>& state,
                 cancel_token_t cancel = {})
      : out_(out), in_(in), state_(state), cancel_(cancel) {}

  /// Repairs the (already grown) levels for `log`; false once the work passes `budget`.
  bool run(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    level_ = state_.levels.data();
    flags_.assign(state_.levels.size(), 0);
    records_.clear();
    work_ = 0;
    {
      const stage_scope_t identify_stage("dynamic_bfs.identify_affected");
      if (!invalidate(log, budget, stats)) return false;
    }
    const stage_scope_t loop_stage("dynamic_bfs.loop");
    std::vector<std::vector<vid_t>> buckets;
    int64_t first = INT64_MAX;
    auto seed = [&](vid_t v, int64_t level) {
      remember(v);
      level_[v] = level;
      const auto at = static_cast<size_t>(level);
      if (at >= buckets.size()) buckets.resize(at + 1);
      buckets[at].push_back(v);
      first = level < first ? level : first;
    };
    for (const vid_t v : dead_) {
      int64_t best = k_unreached;
      for (eid_t slot = in_.begin(v); slot < in_.end(v); ++slot) {
        const int64_t lw = level_[in_.neighbour(slot)];
        if (lw != k_unreached && rank(lw + 1) < rank(best)) best = lw + 1;
      }
      work_ += in_.degree(v);
      if (best != k_unreached) seed(v, best);
    }
    for (const edge_change_t<vid_t>& change : log.changes) {
      if (change.kind != edge_change_kind_t::inserted) continue;
      const int64_t lu = level_[change.src];
      if (lu != k_unreached && rank(lu + 1) < rank(level_[change.dst])) seed(change.dst, lu + 1);
    }
    if (work_ > budget) return false;
    int64_t settled = 0;
    for (size_t level = first == INT64_MAX ? buckets.size() : static_cast<size_t>(first);
         level < buckets.size(); ++level) {
      // The bucket may grow while it is read (relaxations push level + 1 only), so index it.
      for (size_t i = 0; i < buckets[level].size(); ++i) {
        if ((i & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel_, k_repair_stopped);
        const vid_t u = buckets[level][i];
        if (level_[u] != static_cast<int64_t>(level)) continue;  // lowered again since
        const int64_t next = static_cast<int64_t>(level) + 1;
        for (eid_t slot = out_.begin(u); slot < out_.end(u); ++slot) {
          const vid_t v = out_.neighbour(slot);
          if (rank(next) < rank(level_[v])) {
            if (buckets.size() <= level + 1) buckets.resize(level + 2);
            remember(v);
            level_[v] = next;
            buckets[level + 1].push_back(v);
          }
        }
        work_ += out_.degree(u);
        if (work_ > budget) return false;
      }
      ++settled;
    }
    int64_t affected = 0;
    for (const record_t& r : records_) affected += level_[r.vertex] != r.level ? 1 : 0;
    stats.affected = affected;
    stats.iterations = settled;
    stats.frontier_visits = work_;
    return true;
  }

  /// Puts back every level run() changed.
  void undo() noexcept {
    for (const record_t& r : records_) state_.levels[static_cast<size_t>(r.vertex)] = r.level;
    records_.clear();
  }

 private:
  struct record_t {
    vid_t vertex;
    int64_t level;
  };
  static constexpr const char* k_repair_stopped = "dynamic_bfs repair";
  static constexpr uint8_t k_recorded = 1;
  static constexpr uint8_t k_dead = 2;
  static constexpr uint8_t k_queued = 4;  // a candidate of the round being built

  void remember(vid_t v) {
    if (flags_[v] & k_recorded) return;
    flags_[v] |= k_recorded;
    records_.push_back({v, level_[v]});
  }

  void enqueue(vid_t v, std::vector<vid_t>& round) {
    if (flags_[v] & (k_dead | k_queued)) return;
    flags_[v] |= k_queued;
    round.push_back(v);
  }

  // Step 1. Levels stay as they are until the rounds end (the decisions read them); dead
  // vertices are flagged, then set to unreached.
  bool invalidate(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    const vid_t source = state_.source;
    std::vector<vid_t> candidates, falling, next;
    dead_.clear();
    for (const edge_change_t<vid_t>& change : log.changes) {
      if (change.kind != edge_change_kind_t::deleted) continue;
      const int64_t lv = level_[change.dst], lu = level_[change.src];
      if (change.dst != source && lv != k_unreached && lu != k_unreached && lu + 1 == lv) {
        enqueue(change.dst, candidates);
      }
    }
    int64_t rounds = 0;
    while (!candidates.empty()) {
      throw_if_cancelled(cancel_, k_repair_stopped);
      ++rounds;
      falling.clear();
      for (const vid_t v : candidates) {
        flags_[v] &= static_cast<uint8_t>(~k_queued);
        const int64_t want = level_[v] - 1;
        bool supported = false;
        for (eid_t slot = in_.begin(v); slot < in_.end(v) && !supported; ++slot) {
          const vid_t w = in_.neighbour(slot);
          supported = level_[w] == want && !(flags_[w] & k_dead);
        }
        work_ += in_.degree(v);
        if (!supported) falling.push_back(v);
      }
      next.clear();
      for (const vid_t v : falling) flags_[v] |= k_dead;
      for (const vid_t v : falling) {
        const int64_t below = level_[v] + 1;
        for (eid_t slot = out_.begin(v); slot < out_.end(v); ++slot) {
          const vid_t y = out_.neighbour(slot);
          if (level_[y] == below) enqueue(y, next);
        }
        work_ += out_.degree(v);
        dead_.push_back(v);
      }
      if (work_ > budget) {
        stats.invalidated = static_cast<int64_t>(dead_.size());
        stats.invalidation_rounds = rounds;
        return false;
      }
      candidates.swap(next);
    }
    for (const vid_t v : dead_) {
      remember(v);
      level_[v] = k_unreached;
    }
    stats.invalidated = static_cast<int64_t>(dead_.size());
    stats.invalidation_rounds = rounds;
    return true;
  }

  adjacency_view_t<vid_t, eid_t> out_;
  adjacency_view_t<vid_t, eid_t> in_;
  state_t<vid_t>& state_;
  cancel_token_t cancel_;
  int64_t* level_ = nullptr;
  std::vector<uint8_t> flags_;
  std::vector<record_t> records_;
  std::vector<vid_t> dead_;
  int64_t work_ = 0;
};

}  // namespace dyng::dynamic_bfs::detail
