// Host entry points of dynamic BFS (sequential and OpenMP backends): the shape checks, the kernel
// choice, and update() as the shared dynamic-update policy over the level repair.
#include "dyng/dynamic_bfs/dynamic_bfs.hpp"

#include <string>
#include <utility>

#include "dyng/core/argument_checks.hpp"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/dynamic_bfs/detail/bfs_checks.hpp"
#include "dyng/dynamic_bfs/detail/bfs_kernels.hpp"
#include "dyng/dynamic_bfs/detail/level_repair.hpp"

namespace dyng::dynamic_bfs {
namespace {

template <class vid_t, class eid_t>
void check_host_call(const graph_t<vid_t, eid_t>& graph, const execution_t& exec, const char* fn) {
  if (exec.backend == backend_t::cuda) {
    throw not_supported_error(std::string(fn) + ": this is the host implementation; use the "
                              "sequential or OpenMP backend");
  }
  detail::check_graph(graph, fn);
}

template <class vid_t, class eid_t>
int team(const graph_t<vid_t, eid_t>& graph, const options_t& options, const execution_t& exec) {
  const int64_t cutoff = options.parallel_min_edges >= 0 ? options.parallel_min_edges
                                                         : k_default_parallel_min_edges;
  return host_team_size(exec, static_cast<int64_t>(graph.num_edges()), cutoff);
}

/// A full BFS into `levels`, with stats as a compute reports them.
template <class vid_t, class eid_t>
stats_t run_bfs(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
                const execution_t& exec, std::vector<int64_t>& levels) {
  const int threads = team(graph, options, exec);
  const detail::bfs_counters_t counters =
      threads > 1 ? detail::bfs_openmp(graph.out_view(), source, threads, levels)
                  : detail::bfs_sequential(graph.out_view(), source, levels);
  stats_t stats;
  stats.engine_used = threads > 1 ? "fused" : "operators";
  stats.iterations = counters.levels;
  stats.frontier_visits = counters.edges;
  for (const int64_t level : levels) stats.affected += level != k_unreached ? 1 : 0;
  return stats;
}

/// dynamic_bfs's steps for run_update() on the host.
template <class vid_t, class eid_t>
class host_steps_t {
 public:
  using stats_type = stats_t;

  host_steps_t(const graph_t<vid_t, eid_t>& graph, const options_t& options,
               const execution_t& exec, state_t<vid_t>& state)
      : graph_(graph),
        options_(options),
        exec_(exec),
        state_(state),
        repair_(graph.out_view(), in_edges_of(graph, graph.properties().directed), state) {}

  int64_t result_vertices() const { return covered_vertices(state_); }
  int64_t work_scale() const { return static_cast<int64_t>(graph_.num_edges()); }
  double default_budget() const { return k_default_repair_budget; }
  void grow(int64_t n) { resize_arrays(state_, n); }
  void shrink(int64_t n) noexcept { resize_arrays(state_, n); }
  bool repair(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    stats.engine_used = "operators";
    return repair_.run(log, budget, stats);
  }
  void undo() noexcept { repair_.undo(); }
  void recompute(stats_t& stats) {
    std::vector<int64_t> fresh;
    stats_t computed = run_bfs(graph_, state_.source, options_, exec_, fresh);
    int64_t affected = 0;
    for (size_t v = 0; v < fresh.size(); ++v) affected += fresh[v] != state_.levels[v] ? 1 : 0;
    computed.affected = affected;
    computed.invalidated = stats.invalidated;
    computed.invalidation_rounds = stats.invalidation_rounds;
    stats = computed;
    state_.levels = std::move(fresh);
  }

 private:
  const graph_t<vid_t, eid_t>& graph_;
  options_t options_;
  execution_t exec_;
  state_t<vid_t>& state_;
  detail::level_repair_t<vid_t, eid_t> repair_;
};

}  // namespace

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "dynamic_bfs.compute()";
  check_host_call(graph, exec, fn);
  check_vertex_id(source, graph.num_vertices(), fn, "source");
  state.source = source;
  return run_bfs(graph, source, options, exec, state.levels);
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "dynamic_bfs.update()";
  check_host_call(graph, exec, fn);
  host_steps_t<vid_t, eid_t> steps(graph, options, exec, state);
  return run_update(steps, log, static_cast<int64_t>(graph.num_vertices()), options.repair_budget,
                    fn);
}

#define DYNG_INSTANTIATE_DYNAMIC_BFS_CPU(VID, EID)                                         \
  template stats_t compute(const graph_t<VID, EID>&, VID, const options_t&,               \
                           const execution_t&, state_t<VID>&);                            \
  template stats_t update(const graph_t<VID, EID>&, const change_log_t<VID>&,            \
                          const options_t&, const execution_t&, state_t<VID>&);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_DYNAMIC_BFS_CPU)
#undef DYNG_INSTANTIATE_DYNAMIC_BFS_CPU

}  // namespace dyng::dynamic_bfs
