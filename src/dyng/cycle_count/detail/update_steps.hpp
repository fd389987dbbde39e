// cycle_count's steps for the shared update policy (core/dynamic_update.hpp), one copy for every
// backend: the batch's effective edge changes, the histogram's growth and undo, and the repair
// that takes away the cycles through the deleted edges (counted on the graph before the batch)
// and adds those through the inserted edges (on the graph after it). The counting itself is the
// backend's `engine`:
//   bool count_batch(const std::vector<edge_pair_t<vid_t>>& deleted,
//                    const std::vector<edge_pair_t<vid_t>>& inserted, int64_t bound, int64_t limit,
//                    std::vector<uint64_t>& removed, std::vector<uint64_t>& added, int64_t& work)
//       the cycles of at most `bound` edges through each deleted edge on the graph before the
//       batch (its insertions hidden, its deletions shown) into `removed`, and through each
//       inserted edge on the graph after it into `added`; within each list the cycles through
//       edge i avoid edges 0..i-1. Adds its work to `work`; false once `work` passes `limit`.
//   stats_t compute(state_t<vid_t>& state)   a full count into `state`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "dyng/backend/profile.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/cycle_count/detail/cycle_graph.hpp"
#include "dyng/cycle_count/detail/histogram.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/changed_pairs.hpp"

namespace dyng::cycle_count::detail {

/// A repair's work below this many units is never given up, so a tiny graph's repair is not
/// abandoned at once.
inline constexpr int64_t k_work_floor = 1024;

inline int64_t changed_lengths(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  const size_t n = std::max(a.size(), b.size());
  int64_t changed = 0;
  for (size_t l = 0; l < n; ++l) {
    changed += (l < a.size() ? a[l] : 0) != (l < b.size() ? b[l] : 0) ? 1 : 0;
  }
  return changed;
}

inline int64_t nonzero_lengths(const std::vector<uint64_t>& counts) {
  return std::count_if(counts.begin(), counts.end(), [](uint64_t c) { return c != 0; });
}

/// A compute's stats for its fresh state: every non-zero length is affected, every vertex was a
/// root.
template <class vid_t>
stats_t compute_stats(const state_t<vid_t>& fresh) {
  stats_t stats;
  stats.record({"operators", "rooted_paths"});
  stats.path = update_path_t::compute;
  stats.affected = nonzero_lengths(fresh.counts);
  stats.frontier_visits = fresh.num_vertices;
  return stats;
}

/// The policy's steps for a histogram: growth resizes it to the new bound, the repair adds what
/// the batch added and takes away what it removed, undo restores the copy kept before the first
/// change.
template <class vid_t, class engine_t>
class update_steps_t {
 public:
  using stats_type = stats_t;

  update_steps_t(engine_t& engine, const change_log_t<vid_t>& log, state_t<vid_t>& state)
      : engine_(engine), state_(state), saved_(state.counts) {
    const stage_scope_t normalize_stage("cycle_count.normalize");
    changed_pairs(log, false, deleted_, inserted_);
  }

  int64_t result_vertices() const { return state_.num_vertices; }
  /// The last full count's work: an update's searches cost about what the same paths cost it.
  int64_t work_scale() const { return std::max(state_.compute_work, k_work_floor); }
  double default_budget() const { return k_default_repair_budget; }
  void grow(int64_t n) {
    state_.num_vertices = n;
    state_.counts.resize(static_cast<size_t>(bound_of(state_.max_length, n)) + 1, 0);
  }
  void shrink(int64_t n) noexcept {
    state_.num_vertices = n;
    state_.counts = saved_;
  }

  /// The batch's counters, whichever path the update takes.
  void count_changes(stats_t& stats) const {
    stats.deletions = static_cast<int64_t>(deleted_.size());
    stats.insertions = static_cast<int64_t>(inserted_.size());
    stats.frontier_visits = stats.deletions + stats.insertions;
  }

  bool repair(const change_log_t<vid_t>&, int64_t budget, stats_t& stats) {
    stats.record({"operators", "edge_paths"});
    count_changes(stats);
    const int64_t bound = bound_of(state_.max_length, state_.num_vertices);
    std::vector<uint64_t> removed(static_cast<size_t>(bound) + 1, 0), added = removed;
    int64_t work = 0;
    {
      const stage_scope_t count_stage("cycle_count.count_batch");
      if (!engine_.count_batch(deleted_, inserted_, bound, budget, removed, added, work)) {
        return false;
      }
    }
    std::vector<uint64_t> counts = state_.counts;
    for (size_t l = 0; l < counts.size(); ++l) {
      if (counts[l] < removed[l]) {
        throw internal_error("cycle_count.update(): more cycles of length " + std::to_string(l) +
                             " removed than there were; this is a bug in dyng");
      }
      counts[l] -= removed[l];
    }
    add_histogram(counts, added);
    for (size_t l = 0; l < counts.size(); ++l) {
      stats.cycles_removed += removed[l];
      stats.cycles_added += added[l];
    }
    stats.affected = changed_lengths(counts, saved_);
    state_.counts.swap(counts);
    return true;
  }

  void undo() noexcept {
    state_.counts.resize(saved_.size());
    std::copy(saved_.begin(), saved_.end(), state_.counts.begin());
    state_.counts.resize(static_cast<size_t>(bound_of(state_.max_length, state_.num_vertices)) + 1,
                         0);
  }

  void recompute(stats_t& stats) {
    stats_t fresh = engine_.compute(state_);
    count_changes(fresh);
    fresh.affected = changed_lengths(state_.counts, saved_);
    // A recompute does not see which cycles went and came: it reports the net change per length.
    for (size_t l = 0; l < state_.counts.size(); ++l) {
      const uint64_t before = l < saved_.size() ? saved_[l] : 0, now = state_.counts[l];
      (now > before ? fresh.cycles_added : fresh.cycles_removed) +=
          now > before ? now - before : before - now;
    }
    stats = fresh;
  }

 private:
  engine_t& engine_;
  state_t<vid_t>& state_;
  std::vector<uint64_t> saved_;
  std::vector<edge_pair_t<vid_t>> deleted_, inserted_;
};

/// The checks every update makes before its steps run. `fn` names the public call.
inline void check_same_length(const options_t& options, int64_t state_max_length, const char* fn) {
  if (options.max_length == state_max_length) return;
  throw invalid_argument_error(std::string(fn) + ": max_length " +
                               std::to_string(options.max_length) + " differs from the " +
                               std::to_string(state_max_length) +
                               " the result was computed with; compute a new result instead");
}

}  // namespace dyng::cycle_count::detail
