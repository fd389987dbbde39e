// The update steps of a whole-graph count (a histogram by length, or one number), one
// copy for every such algorithm and backend, for the shared policy (core/dynamic_update.hpp):
// the batch's effective edge changes, growth and undo of the counts, and the repair that takes
// away what the deleted edges closed (counted on the graph before the batch) and adds what the
// inserted ones close (on the graph after it).
//
// The algorithm describes its counts by a `tally_t` (in its folder's detail/tally.hpp):
//   vid_type, state_type, stats_type, counts_type (uint64_t or a histogram, counts.hpp)
//   k_name                       the algorithm, in messages
//   k_normalize_stage, k_count_stage, k_count_batch_stage   its profile stages
//   k_undirected                 an undirected change is logged both ways; count it once
//   k_compute_engine, k_repair_engine   what stats.record() reports for each path
//   k_default_repair_budget
//   k_removed, k_added           the stats_type members the batch's counts go to
//   counts(state)                the state's counts member
//   fit(state)                   sizes the counts for state.num_vertices (growth, undo)
//   add(counts, added)           counts += added, refusing to wrap (capacity_error)
// and the backend's `engine` counts:
//   bool count_batch(deleted, inserted, int64_t limit, counts_type& removed,
//                    counts_type& added, int64_t& work)
//       what each deleted edge closed on the graph before the batch (its insertions hidden, its
//       deletions shown) into `removed`, what each inserted edge closes on the graph after it
//       into `added`, the structures through edge i avoiding edges 0..i-1 of its list (so each
//       is counted once); `removed` and `added` arrive zeroed and sized as the state's counts.
//       Adds its work to `work`; false once `work` passes `limit`.
//   stats_type compute(state_type& state)   a full count into `state` (count_fresh() below).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "dyng/backend/profile.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/changed_pairs.hpp"
#include "dyng/whole_graph_count/counts.hpp"

namespace dyng::whole_graph_count {

/// A repair's work below this many units is never given up, so a tiny graph's repair (whose
/// compute costs next to nothing) is not abandoned at once.
inline constexpr int64_t k_work_floor = 1024;

/// A compute's stats for its fresh state: every non-zero entry is affected, every vertex was
/// searched from.
template <class tally_t>
typename tally_t::stats_type compute_stats(const typename tally_t::state_type& fresh) {
  typename tally_t::stats_type stats;
  stats.record(tally_t::k_compute_engine);
  stats.path = update_path_t::compute;
  stats.affected = nonzero_entries(tally_t::counts(fresh));
  stats.frontier_visits = fresh.num_vertices;
  return stats;
}

/// A compute on `num_vertices` vertices: count(fresh) fills a fresh state (its num_vertices
/// set, the rest default), which replaces `state` once it is complete.
template <class tally_t, class F>
typename tally_t::stats_type count_fresh(typename tally_t::state_type& state, int64_t num_vertices,
                                         F&& count) {
  const stage_scope_t count_stage(tally_t::k_count_stage);
  typename tally_t::state_type fresh;
  fresh.num_vertices = num_vertices;
  count(fresh);
  const auto stats = compute_stats<tally_t>(fresh);
  state = std::move(fresh);
  return stats;
}

/// The policy's steps for a whole-graph count; owns its engine, made from `engine_args`.
template <class tally_t, class engine_t>
class update_steps_t {
 public:
  using state_type = typename tally_t::state_type;
  using stats_type = typename tally_t::stats_type;
  using counts_type = typename tally_t::counts_type;
  using vid_type = typename tally_t::vid_type;

  template <class... engine_args_t>
  update_steps_t(const change_log_t<vid_type>& log, state_type& state,
                 engine_args_t&&... engine_args)
      : engine_(std::forward<engine_args_t>(engine_args)...),
        state_(state),
        saved_(tally_t::counts(state)) {
    const stage_scope_t normalize_stage(tally_t::k_normalize_stage);
    changed_pairs(log, tally_t::k_undirected, deleted_, inserted_);
  }

  int64_t result_vertices() const { return state_.num_vertices; }
  /// The last compute's work: an update's searches cost about what the same ones cost it.
  int64_t work_scale() const { return std::max(state_.compute_work, k_work_floor); }
  double default_budget() const { return tally_t::k_default_repair_budget; }
  void grow(int64_t n) {
    state_.num_vertices = n;
    tally_t::fit(state_);
  }
  void shrink(int64_t n) noexcept {
    state_.num_vertices = n;
    tally_t::counts(state_) = saved_;
  }

  bool repair(const change_log_t<vid_type>&, int64_t budget, stats_type& stats) {
    stats.record(tally_t::k_repair_engine);
    count_changes(stats);
    counts_type removed = zeroed_like(tally_t::counts(state_)), added = removed;
    int64_t work = 0;
    {
      const stage_scope_t count_stage(tally_t::k_count_batch_stage);
      if (!engine_.count_batch(deleted_, inserted_, budget, removed, added, work)) return false;
    }
    counts_type counts = tally_t::counts(state_);
    take_away(counts, removed, tally_t::k_name);
    tally_t::add(counts, added);
    stats.*tally_t::k_removed += total(removed);
    stats.*tally_t::k_added += total(added);
    stats.affected = changed_entries(counts, saved_);
    std::swap(tally_t::counts(state_), counts);
    return true;
  }

  void undo() noexcept {
    restore(tally_t::counts(state_), saved_);
    tally_t::fit(state_);
  }

  void recompute(stats_type& stats) {
    stats_type fresh = engine_.compute(state_);
    count_changes(fresh);
    // A recompute does not see what went and what came: it reports the net change per entry.
    add_net_change(saved_, tally_t::counts(state_), fresh.*tally_t::k_added,
                   fresh.*tally_t::k_removed);
    fresh.affected = changed_entries(tally_t::counts(state_), saved_);
    stats = fresh;
  }

 private:
  /// The batch's counters, whichever path the update takes.
  void count_changes(stats_type& stats) const {
    stats.deletions = static_cast<int64_t>(deleted_.size());
    stats.insertions = static_cast<int64_t>(inserted_.size());
    stats.frontier_visits = stats.deletions + stats.insertions;
  }

  engine_t engine_;
  state_type& state_;
  counts_type saved_;
  std::vector<edge_pair_t<vid_type>> deleted_, inserted_;
};

}  // namespace dyng::whole_graph_count
