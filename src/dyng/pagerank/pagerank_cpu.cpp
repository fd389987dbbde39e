// Host entry points of pagerank (sequential and OpenMP backends): compute is the power iteration
// from the uniform vector, or a given start (compute_from: networkx.pagerank's nstart)
// (detail/power_iteration.hpp); the personalization and dangling vectors come from
// detail/teleport.hpp, prepared once per call. update is the shared dynamic-update policy
// (core/host_steps.hpp) whose repair starts from the previous ranks, new vertices at their
// teleport share (1 - alpha) * p[v], iterates on a frontier around the changed edges (detail/frontier_iteration.hpp)
// and then runs full iterations until a compute's convergence test holds (a small batch leaves
// one or two). A repair that runs past the budget gives up for the cold compute.
#include "dyng/pagerank/pagerank.hpp"

#include <cstdint>
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
                             const detail::teleport_t& teleport, const options_t& options, const execution_t& exec, int threads,
                             int64_t edge_budget, const char* fn, std::vector<double>& x,
                             stats_t& stats) {
  const stage_scope_t stage("pagerank.iterate");
  const auto run = detail::power_iterate(t, teleport, options.alpha, options.tol, options.max_iter,
                                         edge_budget, threads, exec, fn, x);
  stats.iterations += run.iterations;
  stats.residual = run.residual;
  stats.frontier_visits += run.edges_read;
  stats.vertices_touched += run.iterations * static_cast<int64_t>(x.size());
  stats.converged = run.converged;
  return run;
}

engine_t engine_of(int threads, const char* method) {
  return threads > 1 ? engine_t{"fused", method} : engine_t{"operators", method};
}

/// The uniform start, 1/n each.
std::vector<double> uniform_ranks(int64_t n) {
  return std::vector<double>(static_cast<size_t>(n), n == 0 ? 0.0 : 1.0 / static_cast<double>(n));
}

/// The compute into `state` from `x` (n entries summing to 1; checks done).
template <class vid_t, class eid_t>
stats_t compute_into(const graph_t<vid_t, eid_t>& graph, const detail::teleport_t& teleport,
                     const options_t& options, const execution_t& exec, const char* fn,
                     std::vector<double> x, state_t<vid_t>& state) {
  const auto n = static_cast<int64_t>(graph.num_vertices());
  stats_t stats;
  const int threads = team_size(graph, options, exec);
  const auto t = transition_of(graph, options, threads);
  const auto run = iterate(t, teleport, options, exec, threads, int64_t{1} << 62, fn, x, stats);
  stats.record(engine_of(threads, "pull_power_iteration"));
  stats.frontier_size = n;
  state.ranks = std::move(x);
  state.iterations = run.iterations;
  state.residual = run.residual;
  stats.affected = n;
  return stats;
}

/// Scales `x` to sum 1 (uniform when it sums to 0). The full iteration keeps a sum of 1; a
/// frontier round, which moves some ranks only, does not.
void scale_to_one(std::vector<double>& x) {
  const auto n = static_cast<int64_t>(x.size());
  const double total = detail::chunked_sum(n, 1, [&](int64_t v) { return x[v]; });
  for (double& r : x) r = total > 0.0 ? r / total : 1.0 / static_cast<double>(n);
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

/// The repair: frontier rounds from the warm start (detail/frontier_iteration.hpp), then full
/// iterations until a compute's convergence test holds. Commits to the state only when
/// converged within the budget, so undo has nothing to take back.
template <class vid_t, class eid_t>
struct frontier_repair_t {
  const graph_t<vid_t, eid_t>& graph;
  const detail::teleport_t& teleport;
  const options_t& options;
  const execution_t& exec;
  const char* fn;
  state_t<vid_t>& state;

  bool run(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    const auto n = static_cast<int64_t>(state.ranks.size());
    std::vector<double> x = warm_ranks(
        state.ranks, static_cast<int64_t>(log.num_vertices_before), teleport, options.alpha);
    const int threads = team_size(graph, options, exec);
    const auto t = transition_of(graph, options, threads);
    stats.record(engine_of(threads, "frontier_power_iteration"));
    detail::frontier_result_t phase;
    {
      const stage_scope_t stage("pagerank.frontier");
      detail::frontier_iteration_t<vid_t, eid_t> frontier(
          t, graph.out_view(), graph.properties().directed, threads);
      phase = frontier.run(log, teleport, options.alpha, options.tol * k_frontier_threshold,
                           options.max_iter, budget, exec, fn, x);
    }
    stats.iterations = phase.rounds;
    stats.frontier_visits = phase.edges_read;
    stats.vertices_touched = phase.vertices_touched;
    stats.frontier_size = phase.seeds;
    if (!phase.within_budget) return false;
    scale_to_one(x);
    const auto full = iterate(t, teleport, options, exec, threads, budget - phase.edges_read, fn, x, stats);
    if (!full.converged) return false;
    int64_t changed = 0;
    for (int64_t v = 0; v < n; ++v) changed += x[v] != state.ranks[v] ? 1 : 0;
    state.ranks = std::move(x);
    state.iterations = stats.iterations;
    state.residual = full.residual;
    stats.affected = changed;
    return true;
  }
  void undo() noexcept {}
};

}  // namespace

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "pagerank.compute()";
  detail::check_call(graph, options, exec, fn);
  const auto n = static_cast<int64_t>(graph.num_vertices());
  const auto teleport = detail::prepare_teleport(options, n, fn);
  return compute_into(graph, teleport, options, exec, fn, uniform_ranks(n), state);
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
  return compute_into(graph, teleport, options, exec, fn, std::move(x), state);
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "pagerank.update()";
  detail::check_call(graph, options, exec, fn);
  const auto n = static_cast<int64_t>(graph.num_vertices());
  const auto teleport = detail::prepare_teleport(options, n, fn);
  frontier_repair_t<vid_t, eid_t> repair{graph, teleport, options, exec, fn, state};
  auto recompute = [&](state_t<vid_t>& fresh, const stats_t&) {
    return compute_into(graph, teleport, options, exec, fn, uniform_ranks(n), fresh);
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

#define DYNG_PAGERANK_COMPUTE_FROM(V, E)                                                      \
  template stats_t compute_from(const graph_t<V, E>&, const std::vector<double>&,            \
                                const options_t&, const execution_t&, state_t<V>&);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_PAGERANK_COMPUTE_FROM)

}  // namespace dyng::pagerank
