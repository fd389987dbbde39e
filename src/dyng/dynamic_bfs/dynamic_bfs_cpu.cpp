// Host entry points of dynamic BFS (sequential and OpenMP backends), with update() as the shared
// dynamic-update policy over the level repair (core/host_steps.hpp).
#include "dyng/dynamic_bfs/dynamic_bfs.hpp"

#include <cstdint>
#include <vector>

#include "dyng/core/argument_checks.hpp"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/entry_points.hpp"
#include "dyng/core/host_steps.hpp"
#include "dyng/dynamic_bfs/detail/bfs_kernels.hpp"
#include "dyng/dynamic_bfs/detail/level_repair.hpp"

namespace dyng::dynamic_bfs {

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "dynamic_bfs.compute()";
  check_host_backend(exec, fn);
  require_in_edges(graph, fn, "dynamic_bfs");
  check_vertex_id(source, graph.num_vertices(), fn, "source");
  state.source = source;
  return detail::full_bfs(graph, source, options, exec, state.levels);
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "dynamic_bfs.update()";
  check_host_backend(exec, fn);
  require_in_edges(graph, fn, "dynamic_bfs");
  detail::level_repair_t<vid_t, eid_t> repair(
      graph.out_view(), in_edges_view(graph, graph.properties().directed), state, exec.cancel);
  auto recompute = [&](state_t<vid_t>& fresh, const stats_t& attempt) {
    stats_t stats = detail::full_bfs(graph, fresh.source, options, exec, fresh.levels);
    stats.invalidated = attempt.invalidated;
    stats.invalidation_rounds = attempt.invalidation_rounds;
    return stats;
  };
  host_steps_t<state_t<vid_t>, stats_t, decltype(repair), decltype(recompute)> steps(
      state, repair, recompute, static_cast<int64_t>(graph.num_edges()), k_default_repair_budget,
      engine_t{"operators", "queue"});  // the level repair is sequential, queue-driven
  return run_update(steps, log, static_cast<int64_t>(graph.num_vertices()), options.repair_budget,
                    fn);
}

DYNG_INSTANTIATE_ENTRY_POINTS(host, sourced)

}  // namespace dyng::dynamic_bfs
