// The one dynamic-update policy. Every algorithm's update() on every backend is run_update() over
// that algorithm's own steps, the way GAP's BenchmarkKernel and Gunrock's enact() own the loop
// that kernels plug into: the algorithm says how to repair, undo and recompute; this file decides
// when, and what happens when a step fails.
//
//  1. Sizes: the result must cover the graph as it was before the batch (the change log's
//     num_vertices_before) and the graph must be the one after it (num_vertices_after); vertices
//     are never deleted, so the graph cannot have shrunk.
//  2. Growth: vertices the batch added join the result in the algorithm's "untouched" state
//     (unreached, no parent, ...).
//  3. Repair within a work budget of fraction x steps.work_scale() units (stored edges for the
//     traversals); the steps count their own work and return false once past the budget.
//     A fraction of 0 always recomputes; a negative one takes steps.default_budget().
//  4. Budget exhausted: undo the repair, then recompute from scratch. The recompute counts the
//     entries that differ from the state before the batch into stats.affected. Steps whose
//     recompute overwrites the whole state without reading it (they keep their own snapshot for
//     the count, as the GPU steps do) say so with `k_recompute_overwrites = true`, and the undo
//     before it is skipped.
//  5. Exception safety: if any step throws, the result is put back as it was before the call
//     (undo, then shrink back to the old vertex count) and the exception propagates.
// Stats.path and fallback_used are set here and nowhere else. The profile stages of every update
// are opened here too: `<algo>.repair` around the whole call, `<algo>.undo` and
// `<algo>.recompute` inside it when the budget runs out.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

#include "dyng/core/errors.hpp"
#include "dyng/core/log.hpp"
#include "dyng/core/stage_scope.hpp"
#include "dyng/core/update_stats.hpp"

namespace dyng {

/// What run_update() needs from an algorithm's update on one backend. `stats_type` derives from
/// update_stats_t. Contracts beyond the signatures:
///  - grow(n) gives the result n vertices, the new ones untouched; strong guarantee;
///  - shrink(n) undoes a grow back to n vertices; never throws;
///  - repair(log, budget, stats) returns false once its work passes `budget` (the state is then
///    partly repaired); it may throw (bad input found late, device failure);
///  - undo() restores every entry repair() changed; safe to call whether or not repair() ran to
///    the end or threw; never throws;
///  - recompute(stats) computes from scratch, fills stats (affected: entries that differ from the
///    state before the batch) and, if it throws, leaves the state as it found it.
template <class S, class log_t>
concept update_steps =
    std::derived_from<typename S::stats_type, update_stats_t> &&
    requires(S& s, const S& cs, const log_t& log, int64_t count, typename S::stats_type& stats) {
      { cs.result_vertices() } -> std::convertible_to<int64_t>;
      { cs.work_scale() } -> std::convertible_to<int64_t>;
      { cs.default_budget() } -> std::convertible_to<double>;
      s.grow(count);
      s.shrink(count);
      { s.repair(log, count, stats) } -> std::same_as<bool>;
      s.undo();
      s.recompute(stats);
    };

/// True when S declares `static constexpr bool k_recompute_overwrites = true`.
template <class S, class = void>
struct recompute_overwrites : std::false_type {};
template <class S>
struct recompute_overwrites<S, std::void_t<decltype(S::k_recompute_overwrites)>>
    : std::bool_constant<S::k_recompute_overwrites> {};

namespace update_detail {

/// The size check of step 1, with the one wording every algorithm reports.
inline void check_update_sizes(const char* fn, int64_t result_vertices, int64_t before,
                               int64_t after, int64_t graph_vertices) {
  if (result_vertices == before && after == graph_vertices && before <= after) return;
  throw invalid_argument_error(
      std::string(fn) + ": the result covers " + std::to_string(result_vertices) +
      " vertices and the change log goes from " + std::to_string(before) + " to " +
      std::to_string(after) + " vertices, but the graph has " + std::to_string(graph_vertices) +
      "; pass the result computed on the graph before this batch and the log of that batch");
}

/// Budget units for `fraction` of `scale`, saturating instead of overflowing.
inline int64_t budget_units(double fraction, int64_t scale) {
  const double units = fraction * static_cast<double>(scale);
  return units >= 0x1p62 ? int64_t{1} << 62 : static_cast<int64_t>(units);
}

}  // namespace update_detail

/// Repairs the result behind `steps` for the batch recorded in `log` (applied to a graph that now
/// has `graph_vertices` vertices). `budget_fraction` as in step 3; `fn` names the public call in
/// error messages and, up to its first dot, the profile stages.
template <class S, class log_t>
  requires update_steps<S, log_t>
typename S::stats_type run_update(S& steps, const log_t& log, int64_t graph_vertices,
                                  double budget_fraction, const char* fn) {
  using stats_t = typename S::stats_type;
  const std::string_view algorithm = algorithm_of_call(fn);
  stage_scope_t whole_stage(algorithm, ".repair");
  const int64_t before = static_cast<int64_t>(log.num_vertices_before);
  const int64_t after = static_cast<int64_t>(log.num_vertices_after);
  update_detail::check_update_sizes(fn, steps.result_vertices(), before, after, graph_vertices);
  const double fraction = budget_fraction < 0.0 ? steps.default_budget() : budget_fraction;
  steps.grow(after);
  stats_t attempt{};
  const int64_t budget = update_detail::budget_units(fraction, steps.work_scale());
  try {
    if (fraction > 0.0 && steps.repair(log, budget, attempt)) {
      attempt.path = update_path_t::incremental;
      attempt.fallback_used = false;
      ::dyng::log(log_level_t::debug, [&] {
        return std::string(fn) + ": repaired in place (" + attempt.engine_used + ", " +
               attempt.method + "): " + std::to_string(attempt.affected) +
               " affected, within a budget of " + std::to_string(budget) + " work units";
      });
      return attempt;
    }
  } catch (...) {
    steps.undo();
    steps.shrink(before);
    throw;
  }
  if constexpr (!recompute_overwrites<S>::value) {
    stage_scope_t undo_stage(algorithm, ".undo");
    steps.undo();
  }
  count_in_profile("update.recomputes", 1);
  // The recompute starts from what the abandoned repair learnt (its counters that a compute does
  // not produce, such as sssp's `invalidated`) and overwrites the rest.
  stats_t stats = attempt;
  try {
    stage_scope_t recompute_stage(algorithm, ".recompute");
    steps.recompute(stats);
  } catch (...) {
    steps.shrink(before);
    throw;
  }
  stats.path = update_path_t::recompute;
  stats.fallback_used = true;
  ::dyng::log(log_level_t::info, [&] {
    return std::string(fn) + ": " +
           (fraction > 0.0 ? "the repair passed its budget of " + std::to_string(budget) +
                                 " work units; recomputed instead"
                           : std::string("repair budget 0; recomputed")) +
           " (" + stats.engine_used + ", " + stats.method + ")";
  });
  return stats;
}

}  // namespace dyng
