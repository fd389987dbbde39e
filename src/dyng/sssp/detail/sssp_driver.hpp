// The entry points of sssp_cpu.cpp, written against adjacency views so that the tests can drive
// them with hand-made views: argument checks, the choice between the sequential and the OpenMP
// kernel, and update()'s fallback to a full compute.
//
// Kernel choice: the OpenMP kernel runs only when the backend asks for more than one thread and
// the graph has at least options.parallel_min_edges stored edges; below that, waking a thread team
// costs more than the whole sequential search. Both produce identical results.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/sssp/detail/canonical_parents.hpp"
#include "dyng/sssp/detail/delta_stepping_openmp.hpp"
#include "dyng/sssp/detail/dijkstra_sequential.hpp"
#include "dyng/sssp/detail/dynamic_update.hpp"
#include "dyng/sssp/detail/sssp_common.hpp"

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace dyng::sssp::detail {

/// update()'s default budget when its fallback would run the parallel kernel (see
/// k_default_repair_budget for the sequential one).
inline constexpr double k_default_repair_budget_parallel = 0.012;

/// Out-edges and in-edges of one graph plus its stored edge count.
template <class vid_t, class eid_t>
struct graph_views_t {
  adjacency_view_t<vid_t, eid_t> out;
  adjacency_view_t<vid_t, eid_t> in;
  int64_t num_edges = 0;
  /// Rows sorted by neighbour id (edge order "sorted"): the parent scan may stop early.
  bool sorted = false;
};

/// The graph shape every sssp entry point needs, on any backend: weights and in-edges.
template <class vid_t, class eid_t>
void check_graph(const graph_t<vid_t, eid_t>& graph, const char* fn) {
  if (graph.num_weights() == 0) {
    throw not_supported_error(std::string(fn) +
                              ": the graph is unweighted; sssp needs a weighted graph "
                              "(num_weights >= 1)");
  }
  if (!graph.has_transposed()) {
    throw not_supported_error(std::string(fn) +
                              ": the graph keeps no in-edges, which sssp needs for its parents; "
                              "build the graph with store_transposed=True");
  }
}

inline void check_options(const options_t& options, int num_weights, const char* fn) {
  if (options.delta < 0) {
    throw invalid_argument_error(std::string(fn) + ": delta " + std::to_string(options.delta) +
                                 " is negative; pass 0 to choose it from the weights or a "
                                 "positive bucket width");
  }
  if (options.objective < 0 || options.objective >= num_weights) {
    throw invalid_argument_error(std::string(fn) + ": objective " +
                                 std::to_string(options.objective) + " is not a weight column " +
                                 "of this graph, which has " + std::to_string(num_weights) +
                                 "; pass an objective in [0, " + std::to_string(num_weights) + ")");
  }
}

template <class vid_t>
void check_source(vid_t source, vid_t n, const char* fn) {
  if (source < 0 || source >= n) {
    throw invalid_argument_error(std::string(fn) + ": source " + std::to_string(source) +
                                 " is not a vertex of this graph, which has " +
                                 std::to_string(n) + " vertices; pass a source in [0, " +
                                 std::to_string(n) + ")");
  }
}

/// Throws for a scanned range whose smallest weight is below 1, naming that edge.
template <class vid_t, class eid_t>
void check_weight_range(const weight_range_t<vid_t, eid_t>& range,
                        const adjacency_view_t<vid_t, eid_t>& out, int objective, const char* fn) {
  if (range.min_slot >= 0 && range.min_weight < 1) {
    throw invalid_argument_error(
        std::string(fn) + ": edge (" + std::to_string(range.min_src) + ", " +
        std::to_string(out.neighbour(range.min_slot)) + ") has weight " +
        std::to_string(range.min_weight) + " in objective column " + std::to_string(objective) +
        "; sssp needs weights in [1, 2^31-1], so fix the weights or choose another objective");
  }
}

/// Scans the objective column and throws for a weight < 1, naming the edge. Returns the range.
template <class vid_t, class eid_t>
weight_range_t<vid_t, eid_t> checked_weight_range(const adjacency_view_t<vid_t, eid_t>& out,
                                                  int objective, const char* fn) {
  weight_range_t<vid_t, eid_t> range;
  scan_weights(out, column_of(out, objective), vid_t{0}, out.num_vertices, range);
  check_weight_range(range, out, objective, fn);
  return range;
}

/// True when the machine is oversubscribed: the 1-minute load average exceeds the online CPUs
/// plus the threads we would add. A barrier then waits for a descheduled thread (a scheduler time
/// slice, milliseconds), and delta-stepping has a barrier per phase: on the shared 2-core
/// development machine at load 4-8 the 2-thread kernel ran 3-10x slower than the sequential one.
inline bool machine_saturated(int threads) {
#if defined(__unix__) || defined(__APPLE__)
  double load = 0.0;
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  return cpus > 0 && getloadavg(&load, 1) == 1 && load > static_cast<double>(cpus + threads);
#else
  (void)threads;
  return false;
#endif
}

/// Threads for the OpenMP kernel, or 1 when the sequential kernel should run: too few edges to
/// pay for a thread team, or an oversubscribed machine. parallel_min_edges == 0 forces the
/// parallel kernel (tests).
template <class vid_t, class eid_t>
int kernel_threads(const graph_views_t<vid_t, eid_t>& g, const options_t& options,
                   const execution_t& exec) {
  if (exec.backend != backend_t::openmp) return 1;
  const int threads = resolved_thread_count(exec);
  if (threads <= 1) return 1;
  if (options.parallel_min_edges == 0) return threads;
  const int64_t cutoff =
      options.parallel_min_edges > 0 ? options.parallel_min_edges : k_default_parallel_min_edges;
  return (g.num_edges >= cutoff && !machine_saturated(threads)) ? threads : 1;
}

inline const char* engine_name(const execution_t& exec) {
  return exec.backend == backend_t::openmp ? "fused" : "operators";
}

/// Full compute into `state`; arguments other than the weights must be checked by the caller.
/// With `previous` distances (and the previous parents still in state.parents), also counts the
/// vertices whose distance or parent changed into `changed`.
template <class vid_t, class eid_t>
stats_t run_compute(const graph_views_t<vid_t, eid_t>& g, vid_t source, const options_t& options,
                    const execution_t& exec, state_t<vid_t>& state, const char* fn,
                    const int64_t* previous = nullptr, int64_t* changed = nullptr) {
  const int threads = kernel_threads(g, options, exec);
  search_counters_t counters;
  state.source = source;
  if (threads > 1) {
    // The parallel kernel scans the weights inside its own region.
    weight_range_t<vid_t, eid_t> range;
    if (!compute_openmp(g.out, g.in, g.sorted, options.objective, source, options.delta, threads,
                        state.distances, state.parents, range, counters, previous, changed)) {
      check_weight_range(range, g.out, options.objective, fn);
    }
  } else {
    const weight_range_t<vid_t, eid_t> range = checked_weight_range(g.out, options.objective, fn);
    const int64_t n_changed = compute_sequential(
        g.out, g.in, g.sorted, options.objective, source, std::max<int64_t>(1, range.max_weight),
        state.distances, state.parents, counters, previous);
    if (changed) *changed += n_changed;
  }
  stats_t stats;
  stats.engine_used = engine_name(exec);
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

template <class vid_t, class eid_t>
stats_t update_views(const graph_views_t<vid_t, eid_t>& g, const change_log_t<vid_t>& log,
                     const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  const char* fn = "sssp.update()";
  check_options(options, g.out.num_weights, fn);
  const vid_t n = g.out.num_vertices;
  const size_t before = static_cast<size_t>(log.num_vertices_before);
  if (state.distances.size() != before || state.parents.size() != before ||
      log.num_vertices_after != n || n < log.num_vertices_before) {
    throw invalid_argument_error(
        std::string(fn) + ": the result holds " + std::to_string(state.distances.size()) +
        " distances and " + std::to_string(state.parents.size()) + " parents, the change log " +
        "goes from " + std::to_string(log.num_vertices_before) + " to " +
        std::to_string(log.num_vertices_after) + " vertices and the graph has " +
        std::to_string(n) + "; pass the result computed on the graph before this batch and the " +
        "log of that batch");
  }
  check_source(state.source, n, fn);
  state.distances.resize(static_cast<size_t>(n), k_infinite_distance);
  state.parents.resize(static_cast<size_t>(n), vid_t{-1});

  // A parallel recompute is cheaper, so the repair may spend less before it gives up.
  const double fraction = options.repair_budget >= 0.0 ? options.repair_budget
                          : kernel_threads(g, options, exec) > 1
                              ? k_default_repair_budget_parallel
                              : k_default_repair_budget;
  stats_t stats;
  int64_t invalidated = 0;
  if (fraction > 0.0) {
    const int64_t budget = static_cast<int64_t>(fraction * static_cast<double>(g.num_edges));
    incremental_repair_t<vid_t, eid_t> repair(g.out, g.in, g.sorted, options.objective, state);
    bool done = false;
    try {
      done = repair.run(log, budget, stats);
    } catch (...) {
      repair.undo();
      state.distances.resize(before);
      state.parents.resize(before);
      throw;
    }
    if (done) {
      stats.engine_used = engine_name(exec);
      stats.path = update_path_t::incremental;
      return stats;
    }
    invalidated = repair.invalidated();
    repair.undo();
  }

  // Fallback: recompute into new distances and the old parent array, counting on the way what
  // differs from the old (grown) state.
  std::vector<int64_t> previous = std::move(state.distances);
  state.distances = {};
  int64_t affected = 0;
  try {
    stats = run_compute(g, state.source, options, exec, state, fn, previous.data(), &affected);
  } catch (...) {  // only the weight check throws, before any parent is written
    state.distances = std::move(previous);
    state.distances.resize(before);
    state.parents.resize(before);
    throw;
  }
  stats.affected = affected;
  stats.invalidated = invalidated;
  stats.fallback_used = true;
  stats.path = update_path_t::recompute;
  return stats;
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
  canonical_parents(g.in, column_of(g.in, options.objective), state.distances.data(),
                    state.source, g.sorted, state.parents.data(), kernel_threads(g, options, exec));
}

}  // namespace dyng::sssp::detail
