// Host entry points of pagerank (sequential and OpenMP backends): compute is the power iteration
// from the uniform vector, or a given start (compute_from: networkx.pagerank's nstart)
// (detail/power_iteration.hpp); the personalization and dangling vectors come from
// detail/teleport.hpp, prepared once per call. update is the shared dynamic-update policy
// (core/host_steps.hpp) whose repair starts from the previous ranks, new vertices at their
// teleport share (1 - alpha) * p[v], iterates on a frontier around the changed edges
// (detail/frontier_iteration.hpp)
// and then runs full iterations until a compute's convergence test holds, none when the
// frontier's bound on one more full iteration's change already meets it. A repair that runs past
// the budget (or a budget of 0) gives up for full iterations from the previous ranks, the warm
// start, not the cold compute.
#include "dyng/pagerank/pagerank.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/entry_points.hpp"
#include "dyng/core/host_steps.hpp"
#include "dyng/core/stage_scope.hpp"
#include "dyng/pagerank/detail/call_checks.hpp"
#include "dyng/pagerank/detail/frontier_iteration.hpp"
#include "dyng/pagerank/detail/power_iteration.hpp"
#include "dyng/pagerank/detail/teleport.hpp"

namespace dyng::pagerank {

namespace {

template <class vid_t, class eid_t>
int team_size(const graph_t<vid_t, eid_t>& graph, const options_t& options,
              const execution_t& exec) {
  return host_team_size(exec, static_cast<int64_t>(graph.num_edges()),
                        options.min_parallel_edges(k_default_parallel_min_edges));
}

template <class vid_t, class eid_t>
detail::transition_t<vid_t, eid_t> transition_of(const graph_t<vid_t, eid_t>& graph,
                                                 const options_t& options, int threads) {
  return detail::make_transition(graph.out_view(),
                                 in_edges_view(graph, graph.properties().directed),
                                 options.weighted, threads);
}

/// Full iterations on `x` (with transition `t`) added to what `stats` reports.
template <class vid_t, class eid_t>
detail::run_result_t iterate(const detail::transition_t<vid_t, eid_t>& t,
                             const detail::teleport_t& teleport, const options_t& options,
                             const execution_t& exec, int threads, int64_t edge_budget,
                             const char* fn, std::vector<double>& x, stats_t& stats) {
  const stage_scope_t stage("pagerank.iterate");
  const auto run = detail::power_iterate(t, teleport, options.alpha, options.tol, options.max_iter,
                                         edge_budget, threads, exec, fn, x);
  stats.iterations += run.iterations;
  stats.residual = run.residual;
  stats.frontier_visits += run.edges_read;
  stats.vertices_touched += run.iterations * static_cast<int64_t>(x.size());
  stats.touched_per_iteration.insert(stats.touched_per_iteration.end(),
                                     static_cast<size_t>(run.iterations),
                                     static_cast<int64_t>(x.size()));
  stats.converged = run.converged;
  return run;
}

/// The totals a run of full iterations leaves of its last iterate, for the next update (only
/// an unweighted one starts from them: frontier_iteration.hpp).
template <class vid_t>
void keep_totals(const detail::run_result_t& run, int64_t n, const options_t& options,
                 state_t<vid_t>& state) {
  state.totals_known = !options.weighted;
  state.dangling_mass = run.dangling;
  state.dangling_error = detail::chunked_sum_error(n, run.dangling);
  state.rank_sum = run.sum;
}

engine_t engine_of(int threads, const char* method) {
  return threads > 1 ? engine_t{"fused", method} : engine_t{"operators", method};
}

/// Full iterations from `x` (n entries summing to 1) into `state` (checks done): the cold
/// compute starts from the uniform vector, an update's fallback from the previous ranks.
template <class vid_t, class eid_t>
stats_t iterate_into(const graph_t<vid_t, eid_t>& graph, const detail::teleport_t& teleport,
                     const options_t& options, const execution_t& exec, const char* fn,
                     const char* method, std::vector<double> x, state_t<vid_t>& state) {
  const auto n = static_cast<int64_t>(x.size());
  stats_t stats;
  const int threads = team_size(graph, options, exec);
  const auto t = transition_of(graph, options, threads);
  const auto run = iterate(t, teleport, options, exec, threads, int64_t{1} << 62, fn, x, stats);
  stats.record(engine_of(threads, method));
  stats.frontier_size = n;
  state.ranks = std::move(x);
  state.iterations = run.iterations;
  state.residual = run.residual;
  keep_totals(run, n, options, state);
  stats.affected = n;
  return stats;
}

/// The uniform start, 1/n each.
std::vector<double> uniform_ranks(int64_t n) {
  return std::vector<double>(static_cast<size_t>(n), n == 0 ? 0.0 : 1.0 / static_cast<double>(n));
}

/// Scales `x` to sum 1 (uniform when it sums to 0); returns the sum it had. The full iteration
/// keeps a sum of 1; a frontier round, which moves some ranks only, does not.
double scale_to_one(std::vector<double>& x) {
  const auto n = static_cast<int64_t>(x.size());
  const double total = detail::chunked_sum(n, 1, [&](int64_t v) { return x[v]; });
  for (double& r : x) r = total > 0.0 ? r / total : 1.0 / static_cast<double>(n);
  return total;
}

/// The warm start: the previous ranks, new vertices at their teleport share (1 - alpha) * p[v],
/// scaled to sum 1 (a batch of new vertices alone leaves them summing to more).
std::vector<double> warm_ranks(const std::vector<double>& previous, int64_t old_vertices,
                               const detail::teleport_t& teleport, double alpha) {
  const auto n = static_cast<int64_t>(previous.size());
  std::vector<double> x = previous;
  for (int64_t v = old_vertices; v < n; ++v)
    x[static_cast<size_t>(v)] = (1.0 - alpha) * teleport.personalization_of(v);
  scale_to_one(x);
  return x;
}

/// The ranks multiplied by `inverse` (1 / their sum) in place; returns the vertices whose rank
/// now differs from before the batch, `previous` holding the earlier ranks of the ones the
/// frontier wrote (its first write of a vertex holds the rank before the batch). Multiplying, not
/// dividing: the pass is bound by the divisions, and either rounds each rank by at most one eps
/// (scaled_bound's margin). An inverse of exactly 1 (a batch that moved no rank, or left the sum
/// as it was) changes no bits, so then only the written ranks are looked at. Every rank, not only
/// the written ones: the rounds mostly move rank onto the frontier towards its fixed point, and
/// taking the difference back from the frontier alone would undo part of that: it raises the
/// bound by (1 + alpha) |1 - s|, where scaling all adds (1 - alpha) |1 - 1 / s| (measured on
/// R-MAT 20: bench/README.md).
template <class vid_t>
int64_t scale_and_count(std::vector<double>& x, double inverse,
                        std::vector<std::pair<vid_t, double>> previous, int threads) {
  std::stable_sort(previous.begin(), previous.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  int64_t written_changed = 0, adjust = 0;
  for (size_t i = 0; i < previous.size(); ++i) {
    if (i > 0 && previous[i].first == previous[i - 1].first) continue;
    const auto v = static_cast<size_t>(previous[i].first);
    const double after = x[v] * inverse;
    written_changed += after != previous[i].second ? 1 : 0;
    adjust += (after != previous[i].second ? 1 : 0) - (after != x[v] ? 1 : 0);
  }
  if (inverse == 1.0) return written_changed;
  const auto n = static_cast<int64_t>(x.size());
  int64_t changed = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : changed)
  for (int64_t v = 0; v < n; ++v) {
    const double after = x[static_cast<size_t>(v)] * inverse;
    changed += after != x[static_cast<size_t>(v)] ? 1 : 0;
    x[static_cast<size_t>(v)] = after;
  }
  return changed + adjust;
}

/// The repair: frontier rounds on the ranks in place (detail/frontier_iteration.hpp), then,
/// unless their bound on one more full iteration's change already meets a compute's convergence
/// test, full iterations on a copy until it holds. undo() puts back what the rounds wrote.
template <class vid_t, class eid_t>
struct frontier_repair_t {
  const graph_t<vid_t, eid_t>& graph;
  const detail::teleport_t& teleport;
  const options_t& options;
  const execution_t& exec;
  const char* fn;
  state_t<vid_t>& state;
  std::vector<double> before_growth{};  ///< The ranks before a batch that added vertices.
  /// (vertex, rank before) of every rank the frontier overwrote, in order, undone in reverse
  /// order. The frontier writes it as it goes, so an interrupted round leaves it complete.
  std::vector<std::pair<vid_t, double>> previous{};

  bool run(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    const auto n = static_cast<int64_t>(state.ranks.size());
    const bool grew = static_cast<int64_t>(log.num_vertices_before) < n;
    // The previous result's residual bounds one more full iteration's change on the old graph (a
    // compute's last change c does: one more moves the ranks by at most alpha * c). Growth
    // changes every vertex's teleport share, so an update that adds vertices iterates fully.
    const double start_bound = grew ? std::numeric_limits<double>::infinity() : state.residual;
    if (grew) {
      before_growth = state.ranks;
      state.ranks = warm_ranks(before_growth, static_cast<int64_t>(log.num_vertices_before),
                               teleport, options.alpha);
    }
    const int threads = team_size(graph, options, exec);
    // Unweighted, the frontier takes 1 / out-degree from the graph: no pass over every vertex.
    const auto t = options.weighted
                       ? transition_of(graph, options, threads)
                       : detail::transition_t<vid_t, eid_t>{
                             in_edges_view(graph, graph.properties().directed), {}, false};
    stats.record(engine_of(threads, "frontier_power_iteration"));
    // A batch that adds vertices rewrote every rank: the rounds sum the totals again.
    const rank_totals_t totals = grew ? rank_totals_t{} : static_cast<const rank_totals_t&>(state);
    const auto phase = frontier_phase(log, t, threads, budget, start_bound, totals);
    stats.iterations = phase.rounds;
    stats.frontier_visits = phase.edges_read;
    stats.vertices_touched = phase.vertices_touched;
    stats.frontier_size = phase.seeds;
    stats.touched_per_iteration = phase.touched_per_round;
    if (!phase.within_budget) return false;
    const double inverse = 1.0 / phase.sum;
    const double bound = detail::scaled_bound(phase.residual_bound, inverse, options.alpha);
    if (bound < static_cast<double>(n) * options.tol * k_certified_fraction) {
      stats.affected = scale_and_count(state.ranks, inverse, previous, threads);
      keep_scaled_totals(phase, inverse);
      finish(bound, stats);
      return true;
    }
    return iterate_fully(t, threads, budget - phase.edges_read, stats);
  }

  void undo() noexcept {
    for (auto it = previous.rbegin(); it != previous.rend(); ++it)
      state.ranks[static_cast<size_t>(it->first)] = it->second;
    previous.clear();
    if (!before_growth.empty()) state.ranks.swap(before_growth);
    before_growth.clear();
  }

 private:
  detail::frontier_result_t<vid_t> frontier_phase(const change_log_t<vid_t>& log,
                                                  const detail::transition_t<vid_t, eid_t>& t,
                                                  int threads, int64_t budget, double start_bound,
                                                  const rank_totals_t& totals) {
    const stage_scope_t stage("pagerank.frontier");
    detail::frontier_iteration_t<vid_t, eid_t> frontier(t, graph.out_view(), threads);
    // A first round past this share of one full iteration's reads costs more than the
    // iteration: its in-edges are gathered vertex by vertex (k_host_first_round_share).
    const auto scale =
        static_cast<double>(graph.num_edges()) + static_cast<double>(graph.num_vertices());
    const auto round_limit = first_round_limit(k_host_first_round_share, scale);
    auto phase = frontier.run(log, teleport, options.alpha, options.tol * k_frontier_threshold,
                              options.max_iter, budget, round_limit, start_bound, totals, exec, fn,
                              state.ranks, previous);
    return phase;
  }

  /// The rounds' totals after scale_and_count() multiplied the ranks by `inverse`: D and its
  /// error bound multiplied too, plus the rounding of the products (half an eps of each dangling
  /// rank and of D itself, counted twice; the rounding of `inverse` scales both alike).
  void keep_scaled_totals(const detail::frontier_result_t<vid_t>& phase, double inverse) {
    const double eps = std::numeric_limits<double>::epsilon();
    const double dangling = phase.dangling * inverse;
    state.totals_known = !options.weighted;
    state.dangling_mass = dangling;
    state.dangling_error =
        (1.0 + eps) * phase.dangling_error * inverse + 2.0 * eps * std::fabs(dangling);
    state.rank_sum = phase.sum * inverse;
  }

  /// Full iterations from the frontier's ranks, scaled to sum 1, on a copy; commits them when
  /// converged within the budget.
  bool iterate_fully(const detail::transition_t<vid_t, eid_t>& t, int threads, int64_t budget,
                     stats_t& stats) {
    std::vector<double> x = state.ranks;
    scale_to_one(x);
    const auto full = t.inverse_out_weight.empty()
                          ? iterate(transition_of(graph, options, threads), teleport, options, exec,
                                    threads, budget, fn, x, stats)
                          : iterate(t, teleport, options, exec, threads, budget, fn, x, stats);
    if (!full.converged) return false;
    undo();
    int64_t changed = 0;
    for (size_t v = 0; v < x.size(); ++v) changed += x[v] != state.ranks[v] ? 1 : 0;
    state.ranks = std::move(x);
    keep_totals(full, static_cast<int64_t>(state.ranks.size()), options, state);
    stats.affected = changed;
    finish(full.residual, stats);
    return true;
  }

  /// The summary of the committed ranks, with the residual bound the next update starts from.
  void finish(double residual, stats_t& stats) {
    state.iterations = stats.iterations;
    state.residual = residual;
    stats.residual = residual;
    stats.converged = true;
    previous.clear();
    before_growth.clear();
  }
};

}  // namespace

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "pagerank.compute()";
  detail::check_call(graph, options, exec, fn);
  const auto n = static_cast<int64_t>(graph.num_vertices());
  const auto teleport = detail::prepare_teleport(options, n, fn);
  return iterate_into(graph, teleport, options, exec, fn, "pull_power_iteration", uniform_ranks(n),
                      state);
}

template <class vid_t, class eid_t>
stats_t compute_from(const graph_t<vid_t, eid_t>& graph, const std::vector<double>& start,
                     const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "pagerank.compute()";
  detail::check_call(graph, options, exec, fn);
  const auto n = static_cast<int64_t>(graph.num_vertices());
  const auto teleport = detail::prepare_teleport(options, n, fn);
  auto x = detail::normalised_vector(start, n, "nstart", fn);
  if (x.empty()) x = uniform_ranks(n);
  return iterate_into(graph, teleport, options, exec, fn, "pull_power_iteration", std::move(x),
                      state);
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "pagerank.update()";
  detail::check_call(graph, options, exec, fn);
  const auto teleport =
      detail::prepare_teleport(options, static_cast<int64_t>(graph.num_vertices()), fn);
  frontier_repair_t<vid_t, eid_t> repair{graph, teleport, options, exec, fn, state};
  // The fallback is a warm-started full iteration: the previous ranks (the repair commits
  // nothing it gives up on) are still closer to the answer than the uniform vector.
  auto recompute = [&](state_t<vid_t>& fresh, const stats_t&) {
    return iterate_into(graph, teleport, options, exec, fn, "warm_power_iteration",
                        warm_ranks(state.ranks, static_cast<int64_t>(log.num_vertices_before),
                                   teleport, options.alpha),
                        fresh);
  };
  // One iteration reads every in-edge and every vertex.
  const auto scale =
      static_cast<int64_t>(graph.num_edges()) + static_cast<int64_t>(graph.num_vertices());
  host_steps_t<state_t<vid_t>, stats_t, decltype(repair), decltype(recompute)> steps(
      state, repair, recompute, scale, k_default_repair_budget,
      engine_t{"operators", "frontier_power_iteration"});
  return run_update(steps, log, static_cast<int64_t>(graph.num_vertices()), options.repair_budget,
                    fn);
}

DYNG_INSTANTIATE_ENTRY_POINTS(host, whole)

#define DYNG_PAGERANK_COMPUTE_FROM(V, E)                                          \
  template stats_t compute_from(const graph_t<V, E>&, const std::vector<double>&, \
                                const options_t&, const execution_t&, state_t<V>&);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_PAGERANK_COMPUTE_FROM)

}  // namespace dyng::pagerank
