// The host entry points of sssp (sequential and OpenMP backends), written against adjacency views
// so that the tests can drive them with hand-made views: the choice between the sequential and
// the OpenMP kernel, compute, and update() as the shared dynamic-update policy
// (core/dynamic_update.hpp) over sssp's repair, undo and recompute steps.
//
// Kernel choice: the OpenMP kernel runs when host_team_size() grants a team (enough stored edges
// to pay for it, a machine that is not oversubscribed). Both kernels give identical results.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/sssp/detail/canonical_parents.hpp"
#include "dyng/sssp/detail/delta_stepping_openmp.hpp"
#include "dyng/sssp/detail/dijkstra_sequential.hpp"
#include "dyng/sssp/detail/incremental_repair.hpp"
#include "dyng/sssp/detail/search_rows.hpp"
#include "dyng/sssp/detail/sssp_checks.hpp"
#include "dyng/sssp/detail/sssp_common.hpp"

namespace dyng::sssp::detail {

/// About how many times faster the OpenMP kernel computes than the sequential one on `threads`
/// threads: the line through two measured speedups, on 2 and on 16 cores (bench/README.md,
/// "Figures behind design choices", which gives them and the command that measures them).
inline double parallel_compute_speedup(int threads) { return 0.2 + 0.65 * threads; }

/// update()'s default budget when its fallback would run the OpenMP kernel on `threads`
/// threads: the sequential budget (k_default_repair_budget) over the speedup of that
/// recompute, so that a repair that gives up wastes about the same share of a recompute on any
/// team (a fixed fraction wasted a third of a 16-thread recompute on 100,000 changes).
inline double default_repair_budget(int threads) {
  return threads > 1 ? k_default_repair_budget / parallel_compute_speedup(threads)
                     : k_default_repair_budget;
}

/// Out-edges and in-edges of one graph plus its stored edge count.
template <class vid_t, class eid_t>
struct graph_views_t {
  adjacency_view_t<vid_t, eid_t> out;
  adjacency_view_t<vid_t, eid_t> in;
  int64_t num_edges = 0;
  /// Rows sorted by neighbour id (edge order "sorted"): the parent scan may stop early.
  bool sorted = false;
};

template <class vid_t, class eid_t>
graph_views_t<vid_t, eid_t> views_of(const graph_t<vid_t, eid_t>& graph) {
  return {graph.out_view(), graph.in_view(), static_cast<int64_t>(graph.num_edges()),
          graph.properties().order == edge_order_t::sorted};
}

/// Threads for the OpenMP kernel, or 1 for the sequential one.
template <class vid_t, class eid_t>
int kernel_threads(const graph_views_t<vid_t, eid_t>& g, const options_t& options,
                   const execution_t& exec) {
  const int64_t cutoff =
      options.parallel_min_edges >= 0 ? options.parallel_min_edges : k_default_parallel_min_edges;
  return host_team_size(exec, g.num_edges, cutoff);
}

/// engine_used follows the backend, as 0.2 reports it ("fused" on OpenMP even when a small graph
/// runs the sequential kernel); method names the kernel that ran.
inline engine_t engine_of(const execution_t& exec, int threads) {
  return {exec.backend == backend_t::openmp ? "fused" : "operators",
          threads > 1 ? "delta_stepping" : "dijkstra"};
}

/// Scratch a caller running several searches hands to each (mosp): `packed` receives the
/// objective's packed rows and keeps its blocks for the next search; `objectives`, when usable,
/// already holds every objective's rows (search_rows.hpp), so the search packs nothing.
template <class vid_t, class eid_t>
struct row_scratch_t {
  packed_rows_t<vid_t, eid_t>* packed = nullptr;
  const packed_objectives_t<vid_t, eid_t>* objectives = nullptr;
};

/// The sequential kernel: the objective's rows, packed when the graph keeps several weights per
/// slot or the caller gives scratch (search_rows.hpp), their weights checked on the way (`fn`
/// words the message), then compute_sequential(). The check throws before anything in `state`
/// is written; a stop (`cancel`) throws as compute_sequential() says.
template <class vid_t, class eid_t>
int64_t run_sequential(const graph_views_t<vid_t, eid_t>& g, vid_t source, int objective,
                       state_t<vid_t>& state, search_counters_t& counters, const char* fn,
                       const int64_t* previous, row_scratch_t<vid_t, eid_t> scratch = {},
                       cancel_token_t cancel = {}) {
  const weight_column_t w = column_of(g.out, objective);
  auto run = [&](const auto& rows, const weight_range_t<vid_t, eid_t>& range) {
    check_weight_range(range, g.out, objective, fn);
    return compute_sequential(rows, g.in, g.sorted, objective, source,
                              std::max<int64_t>(1, range.max_weight), state.distances,
                              state.parents, counters, previous, cancel);
  };
  weight_range_t<vid_t, eid_t> range;
  if (scratch.objectives != nullptr && scratch.objectives->usable &&
      objective < scratch.objectives->num_objectives) {
    // Every weight is known to be >= 1: the range needs only its maximum.
    range.max_weight = scratch.objectives->max_weight[static_cast<size_t>(objective)];
    return run(rows_of_objective(*scratch.objectives, objective), range);
  }
  if (g.out.num_weights > 1 || scratch.packed != nullptr) {
    packed_rows_t<vid_t, eid_t> own;
    packed_rows_t<vid_t, eid_t>& rows = scratch.packed ? *scratch.packed : own;
    {
      stage_scope_t pack_stage("sssp.pack_rows");
      pack_rows(g.out, w, rows, range);
    }
    return run(rows, range);
  }
  {
    stage_scope_t scan_stage("sssp.scan_weights");
    scan_weights(g.out, w, vid_t{0}, g.out.num_vertices, range);
  }
  return run(column_rows_t<vid_t, eid_t>{g.out, w}, range);
}

/// Full compute into `state`; arguments other than the weights must be checked by the caller
/// (mosp's searches call it with their own `fn` and scratch for run_sequential()).
/// With `previous` distances (and the previous parents still in state.parents), also counts the
/// vertices whose distance or parent changed into `changed`.
template <class vid_t, class eid_t>
stats_t run_compute(const graph_views_t<vid_t, eid_t>& g, vid_t source, const options_t& options,
                    const execution_t& exec, state_t<vid_t>& state, const char* fn,
                    const int64_t* previous = nullptr, int64_t* changed = nullptr,
                    row_scratch_t<vid_t, eid_t> scratch = {}) {
  const int threads = kernel_threads(g, options, exec);
  search_counters_t counters;
  state.source = source;
  if (threads > 1) {
    weight_range_t<vid_t, eid_t> range;
    const packed_objectives_t<vid_t, eid_t>* pack = scratch.objectives;
    if (pack != nullptr && pack->usable && options.objective < pack->num_objectives) {
      // The caller's pack of all objectives: weights known >= 1, 8 bytes an arc instead of the
      // neighbour and a strided weight (mosp's search_objectives() has the figures).
      const auto rows = rows_of_objective(*pack, options.objective);
      const known_rows_t<decltype(rows)> known{
          rows, pack->max_weight[static_cast<size_t>(options.objective)],
          static_cast<int64_t>(pack->offsets[static_cast<size_t>(g.out.num_vertices)])};
      compute_openmp(g.out, g.in, g.sorted, options.objective, source, options.delta, threads,
                     state.distances, state.parents, range, counters, previous, changed, &known,
                     exec.cancel);
    } else if (const known_rows_t<column_rows_t<vid_t, eid_t>>* own_rows = nullptr;
               !compute_openmp(g.out, g.in, g.sorted, options.objective, source, options.delta,
                               threads, state.distances, state.parents, range, counters, previous,
                               changed, own_rows, exec.cancel)) {
      // The parallel kernel scans the weights inside its own region.
      check_weight_range(range, g.out, options.objective, fn);
    }
  } else {
    const int64_t n_changed = run_sequential(g, source, options.objective, state, counters, fn,
                                             previous, scratch, exec.cancel);
    if (changed) *changed += n_changed;
  }
  stage_scope_t finalize_stage("sssp.finalize");
  stats_t stats;
  stats.record(engine_of(exec, threads));
  stats.path = update_path_t::compute;
  stats.iterations = counters.buckets;
  stats.frontier_visits = counters.relaxations;
  stats.pushes = counters.pushes;
  // A compute starts from nothing, so every vertex it reaches counts as affected.
  int64_t reached = 0;
  for (const int64_t d : state.distances) reached += d != k_infinite_distance ? 1 : 0;
  stats.affected = reached;
  return stats;
}

template <class vid_t, class eid_t>
stats_t compute_views(const graph_views_t<vid_t, eid_t>& g, vid_t source, const options_t& options,
                      const execution_t& exec, state_t<vid_t>& state) {
  const char* fn = "sssp.compute()";
  check_options(options, g.out.num_weights, fn);
  check_source(source, g.out.num_vertices, fn);
  return run_compute(g, source, options, exec, state, fn);
}

/// update()'s fallback: a compute in place of `state` as the batch left it (grown, the repair
/// undone), counting into stats.affected the vertices whose distance or parent changed; the
/// counters of the abandoned repair that a compute does not produce (`invalidated`) are kept, and
/// so are `path` and `fallback_used` (a deferred recompute's stats say recompute already).
/// The weight check throws before any parent is written, and a stop (exec.cancel) leaves the
/// parents as they were (run_compute()'s kernels say how); either way the old distances are put
/// back, so the state is as it was. `scratch` as for run_compute(). With `replaced`, the
/// distances it replaced end up there (mosp keeps them to take its update back).
template <class vid_t, class eid_t>
void recompute_counting(const graph_views_t<vid_t, eid_t>& g, const options_t& options,
                        const execution_t& exec, state_t<vid_t>& state, stats_t& stats,
                        row_scratch_t<vid_t, eid_t> scratch = {},
                        std::vector<int64_t>* replaced = nullptr) {
  const int64_t invalidated = stats.invalidated;
  const update_path_t path = stats.path;
  const bool fallback_used = stats.fallback_used;
  std::vector<int64_t> previous = std::move(state.distances);
  state.distances = {};
  int64_t affected = 0;
  try {
    stats = run_compute(g, state.source, options, exec, state, "sssp.update()", previous.data(),
                        &affected, scratch);
  } catch (...) {
    state.distances = std::move(previous);
    throw;
  }
  stats.affected = affected;
  stats.invalidated = invalidated;
  stats.path = path;
  stats.fallback_used = fallback_used;
  if (replaced != nullptr) *replaced = std::move(previous);
}

/// sssp's steps for run_update() on the host: the sequential incremental repair
/// (incremental_repair.hpp) and a compute on the call's backend as the fallback.
template <class vid_t, class eid_t>
class host_update_steps_t {
 public:
  using stats_type = stats_t;

  host_update_steps_t(const graph_views_t<vid_t, eid_t>& g, const options_t& options,
                      const execution_t& exec, state_t<vid_t>& state, bool defer_recompute)
      : g_(g),
        options_(options),
        exec_(exec),
        state_(state),
        defer_recompute_(defer_recompute),
        repair_(g.out, g.in, g.sorted, options.objective, state, exec.cancel) {}

  int64_t result_vertices() const { return covered_vertices(state_); }
  /// Stored edges, at least one: a large fraction must stay a large budget on an edgeless graph
  /// (its batch still costs the repair a tree test per deletion).
  int64_t work_scale() const { return std::max<int64_t>(g_.num_edges, 1); }
  /// A parallel recompute is cheaper, so the repair may spend less before it gives up.
  double default_budget() const {
    return default_repair_budget(kernel_threads(g_, options_, exec_));
  }
  void grow(int64_t n) { resize_arrays(state_, n); }
  void shrink(int64_t n) noexcept { resize_arrays(state_, n); }
  bool repair(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    stats.record(engine_of(exec_, 1));  // the repair is sequential (incremental_repair.hpp)
    return repair_.run(log, budget, stats);
  }
  void undo() noexcept { repair_.undo(); }
  /// The fallback compute (recompute_counting()), or with a deferred recompute nothing: the
  /// state stays as it was before the batch, grown, and the caller recomputes it.
  void recompute(stats_t& stats) {
    if (!defer_recompute_) recompute_counting(g_, options_, exec_, state_, stats);
  }

 private:
  graph_views_t<vid_t, eid_t> g_;
  options_t options_;
  execution_t exec_;
  state_t<vid_t>& state_;
  bool defer_recompute_;
  incremental_repair_t<vid_t, eid_t> repair_;
};

/// update() on views. With `defer_recompute`, a repair that passes its budget is undone and the
/// stats say recompute (path, fallback_used, the repair's `invalidated`), but the compute is left
/// to the caller, who must run recompute_counting() on the state with those stats before anything
/// reads it (mosp runs the trees that fell back together, their rows packed once). With `kept`,
/// the steps stay there after the call, so that a caller can take a repair back later (undo(),
/// then shrink() to the old vertex count) when a later part of its own update fails.
template <class vid_t, class eid_t>
stats_t update_views(const graph_views_t<vid_t, eid_t>& g, const change_log_t<vid_t>& log,
                     const options_t& options, const execution_t& exec, state_t<vid_t>& state,
                     bool defer_recompute = false,
                     std::unique_ptr<host_update_steps_t<vid_t, eid_t>>* kept = nullptr) {
  const char* fn = "sssp.update()";
  check_options(options, g.out.num_weights, fn);
  check_source(state.source, std::max<vid_t>(g.out.num_vertices, log.num_vertices_before), fn);
  if (kept == nullptr) {
    host_update_steps_t<vid_t, eid_t> steps(g, options, exec, state, defer_recompute);
    return run_update(steps, log, g.out.num_vertices, options.repair_budget, fn);
  }
  *kept =
      std::make_unique<host_update_steps_t<vid_t, eid_t>>(g, options, exec, state, defer_recompute);
  return run_update(**kept, log, g.out.num_vertices, options.repair_budget, fn);
}

template <class vid_t, class eid_t>
void canonicalize_views(const graph_views_t<vid_t, eid_t>& g, const options_t& options,
                        const execution_t& exec, state_t<vid_t>& state) {
  const char* fn = "sssp.canonicalize_parents()";
  check_options(options, g.in.num_weights, fn);
  const vid_t n = g.in.num_vertices;
  check_source(state.source, n, fn);
  if (state.distances.size() != static_cast<size_t>(n)) {
    throw invalid_argument_error(std::string(fn) + ": got " +
                                 std::to_string(state.distances.size()) +
                                 " distances for a graph with " + std::to_string(n) +
                                 " vertices; pass one distance per vertex");
  }
  state.parents.resize(static_cast<size_t>(n));
  canonical_parents(g.in, column_of(g.in, options.objective), state.distances.data(), state.source,
                    g.sorted, state.parents.data(), kernel_threads(g, options, exec));
}

}  // namespace dyng::sssp::detail
