// Host side of dynamic_bfs on the GPU: the entry points, with update() as the shared policy over
// the ready-made snapshot steps (backend/cuda/snapshot_steps.hpp) and the kernels' launches of
// detail/cuda/bfs_launch.cuh.
#include "dyng/dynamic_bfs/dynamic_bfs_cuda.hpp"

#include <string>
#include <utility>

#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/graph/cuda/device_update.hpp"
#include "dyng/backend/cuda/snapshot_steps.hpp"
#include "dyng/core/argument_checks.hpp"
#include "dyng/core/entry_points.hpp"
#include "dyng/dynamic_bfs/detail/cuda/bfs_launch.cuh"

namespace dyng::dynamic_bfs::cuda {
namespace {

namespace kernels = ::dyng::dynamic_bfs::detail::cuda;
using ::dyng::cuda::device_graph_t;
using kernels::level_t;
using kernels::views_t;

template <class vid_t, class eid_t>
void check_call(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                const char* fn) {
  require_in_edges(host, fn, "dynamic_bfs");
  ::dyng::cuda::check_level(host, graph, fn);
}

template <class vid_t>
level_t* levels_of(device_state_t<vid_t>& state) {
  return reinterpret_cast<level_t*>(state.levels.data());
}
template <class vid_t>
const level_t* levels_of(const device_state_t<vid_t>& state) {
  return reinterpret_cast<const level_t*>(state.levels.data());
}

}  // namespace

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                vid_t source, const options_t&, void* stream, device_state_t<vid_t>& state) {
  constexpr const char* fn = "dynamic_bfs.compute()";
  check_call(host, graph, fn);
  check_vertex_id(source, host.num_vertices(), fn, "source");
  ::dyng::cuda::device_scope_t scope(graph.device());
  auto fresh = ::dyng::cuda::allocate_result<device_state_t<vid_t>>(source, graph.device(),
                                                                    host.num_vertices());
  stats_t stats =
      kernels::full_bfs(views_t<vid_t, eid_t>(host, graph), source, fresh.levels.data(), stream);
  state = std::move(fresh);
  return stats;
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state) {
  constexpr const char* fn = "dynamic_bfs.update()";
  check_call(host, graph, fn);
  const views_t<vid_t, eid_t> v(host, graph);
  auto repair = [&](const change_log_t<vid_t>& l, int64_t budget, stats_t& stats,
                    const device_state_t<vid_t>& snapshot) {
    return kernels::repair_levels(v, levels_of(state), levels_of(snapshot), state.source, l,
                                  static_cast<unsigned long long>(budget), stats, stream);
  };
  auto recompute = [&](device_state_t<vid_t>& s, const device_state_t<vid_t>& snapshot,
                       const stats_t& attempt) {
    stats_t fresh = kernels::full_bfs(v, s.source, s.levels.data(), stream);
    fresh.affected =
        kernels::count_changed(levels_of(s), levels_of(snapshot), s.num_vertices, stream);
    fresh.invalidated = attempt.invalidated;
    fresh.invalidation_rounds = attempt.invalidation_rounds;
    return fresh;
  };
  using steps_t = ::dyng::cuda::snapshot_steps_t<device_state_t<vid_t>, stats_t, decltype(repair),
                                                 decltype(recompute)>;
  return ::dyng::cuda::update_on_device<steps_t>(
      state, graph, log, static_cast<int64_t>(host.num_vertices()), options.repair_budget, fn,
      state, stream, v.stored_edges, k_default_gpu_repair_budget, kernels::k_engine, repair,
      recompute);
}

DYNG_INSTANTIATE_ENTRY_POINTS(cuda, sourced)

}  // namespace dyng::dynamic_bfs::cuda
