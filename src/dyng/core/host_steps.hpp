// Ready-made host steps for run_update() (core/dynamic_update.hpp), for an algorithm whose state
// describes its arrays (core/result_arrays.hpp): growth, shrinking and the size come from the
// arrays, the repair object does the repair and its undo, and the recompute computes a fresh
// state and counts the vertices whose entries differ. An algorithm with a cheaper recompute of
// its own (sssp counts the differences inside its parent pass) writes its own steps instead.
#pragma once

#include <cstdint>
#include <tuple>
#include <utility>

#include "dyng/core/result_arrays.hpp"

namespace dyng {

/// Vertices whose entry differs between `a` and `b` in any array (same sizes).
template <class S>
int64_t count_differences(const S& a, const S& b) {
  const int64_t n = covered_vertices(a);
  int64_t count = 0;
  for (int64_t v = 0; v < n; ++v) {
    bool differs = false;
    for_each_array<S>([&](const auto& array) {
      differs = differs || (a.*array.member)[v] != (b.*array.member)[v];
    });
    count += differs ? 1 : 0;
  }
  return count;
}

/// `repair_t` has run(log, budget, stats) -> bool and undo(); `engine` is what a repair reports
/// in Stats.engine_used and Stats.method; `compute_t` is called as
/// compute(fresh_state, attempt_stats) -> stats: a compute into `fresh_state` (its source set),
/// which may copy counters a compute does not produce from the abandoned attempt. A state
/// without a `source` (a whole-graph result with per-vertex arrays: components) computes from
/// the graph alone.
template <class S, class stats_t, class repair_t, class compute_t>
class host_steps_t {
 public:
  using stats_type = stats_t;

  host_steps_t(S& state, repair_t& repair, compute_t compute, int64_t work_scale,
               double default_budget, engine_t engine)
      : state_(state),
        repair_(repair),
        compute_(std::move(compute)),
        work_scale_(work_scale),
        default_budget_(default_budget),
        engine_(engine) {}

  int64_t result_vertices() const { return covered_vertices(state_); }
  int64_t work_scale() const { return work_scale_; }
  double default_budget() const { return default_budget_; }
  void grow(int64_t n) { resize_arrays(state_, n); }
  void shrink(int64_t n) noexcept { resize_arrays(state_, n); }
  template <class log_t>
  bool repair(const log_t& log, int64_t budget, stats_t& stats) {
    stats.record(engine_);
    return repair_.run(log, budget, stats);
  }
  void undo() noexcept { repair_.undo(); }
  void recompute(stats_t& stats) {
    S fresh;
    if constexpr (requires { state_.source; }) fresh.source = state_.source;
    stats_t computed = compute_(fresh, stats);
    computed.affected = count_differences(state_, fresh);
    state_ = std::move(fresh);
    stats = computed;
  }

 private:
  S& state_;
  repair_t& repair_;
  compute_t compute_;
  int64_t work_scale_;
  double default_budget_;
  engine_t engine_;
};

}  // namespace dyng
