// triangle_delta's steps for the shared update policy (core/dynamic_update.hpp), one copy for
// every backend: the batch's effective undirected edge changes, the count's undo, and the repair
// that takes away the triangles through the deleted edges (on the graph before the batch) and
// adds those through the inserted ones (on the graph after it). The counting is the backend's
// `engine`:
//   bool count_batch(const std::vector<edge_pair_t<vid_t>>& deleted,
//                    const std::vector<edge_pair_t<vid_t>>& inserted, int64_t limit,
//                    uint64_t& removed, uint64_t& added, int64_t& work)
//       false once `work` passes `limit`;
//   stats_t compute(state_t<vid_t>& state)   a full count into `state`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "dyng/backend/profile.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/changed_pairs.hpp"
#include "dyng/triangle_delta/detail/triangles.hpp"
#include "dyng/triangle_delta/triangle_delta.hpp"

namespace dyng::triangle_delta::detail {

/// A repair below this much work is never given up (a tiny graph's compute costs next to
/// nothing, and its repair would otherwise always fall back).
inline constexpr int64_t k_work_floor = 1024;

template <class vid_t>
stats_t compute_stats(const state_t<vid_t>& fresh) {
  stats_t stats;
  stats.record({"operators", "row_intersection"});
  stats.path = update_path_t::compute;
  stats.affected = fresh.count != 0 ? 1 : 0;
  stats.frontier_visits = fresh.num_vertices;
  return stats;
}

template <class vid_t, class engine_t>
class update_steps_t {
 public:
  using stats_type = stats_t;

  update_steps_t(engine_t& engine, const change_log_t<vid_t>& log, state_t<vid_t>& state)
      : engine_(engine), state_(state), saved_(state.count) {
    const stage_scope_t normalize_stage("triangle_delta.normalize");
    changed_pairs(log, true, deleted_, inserted_);
  }

  int64_t result_vertices() const { return state_.num_vertices; }
  int64_t work_scale() const { return std::max(state_.compute_work, k_work_floor); }
  double default_budget() const { return k_default_repair_budget; }
  void grow(int64_t n) { state_.num_vertices = n; }
  void shrink(int64_t n) noexcept {
    state_.num_vertices = n;
    state_.count = saved_;
  }

  void count_changes(stats_t& stats) const {
    stats.deletions = static_cast<int64_t>(deleted_.size());
    stats.insertions = static_cast<int64_t>(inserted_.size());
    stats.frontier_visits = stats.deletions + stats.insertions;
  }

  bool repair(const change_log_t<vid_t>&, int64_t budget, stats_t& stats) {
    stats.record({"operators", "edge_intersection"});
    count_changes(stats);
    uint64_t removed = 0, added = 0;
    int64_t work = 0;
    {
      const stage_scope_t count_stage("triangle_delta.count_batch");
      if (!engine_.count_batch(deleted_, inserted_, budget, removed, added, work)) return false;
    }
    if (removed > state_.count) {
      throw internal_error("triangle_delta.update(): " + std::to_string(removed) +
                           " triangles removed but only " + std::to_string(state_.count) +
                           " counted; this is a bug in dyng");
    }
    state_.count = state_.count - removed + added;
    stats.triangles_removed = removed;
    stats.triangles_added = added;
    stats.affected = state_.count != saved_ ? 1 : 0;
    return true;
  }

  void undo() noexcept { state_.count = saved_; }

  void recompute(stats_t& stats) {
    stats_t fresh = engine_.compute(state_);
    count_changes(fresh);
    // A recompute does not see which triangles went and came: it reports the net change.
    (state_.count > saved_ ? fresh.triangles_added : fresh.triangles_removed) =
        state_.count > saved_ ? state_.count - saved_ : saved_ - state_.count;
    fresh.affected = state_.count != saved_ ? 1 : 0;
    stats = fresh;
  }

 private:
  engine_t& engine_;
  state_t<vid_t>& state_;
  uint64_t saved_;
  std::vector<edge_pair_t<vid_t>> deleted_, inserted_;
};

}  // namespace dyng::triangle_delta::detail
