// Host side of components on the GPU: the entry points, with update() as the shared policy over
// the ready-made snapshot steps (backend/cuda/snapshot_steps.hpp) and the weak or strong repair
// of detail/cuda/weak_launch.cuh and strong_launch.cuh.
#include "dyng/components/components_cuda.hpp"

#include <algorithm>
#include <utility>

#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/backend/cuda/snapshot_steps.hpp"
#include "dyng/components/detail/call_checks.hpp"
#include "dyng/components/detail/cuda/strong_launch.cuh"
#include "dyng/components/detail/cuda/weak_launch.cuh"
#include "dyng/core/entry_points.hpp"
#include "dyng/graph/cuda/device_update.hpp"

namespace dyng::components::cuda {
namespace {

namespace kernels = ::dyng::components::detail::cuda;
using ::dyng::cuda::device_graph_t;

template <class vid_t, class eid_t>
void check_call(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                const options_t& options, const char* fn) {
  detail::check_graph(host, options, fn);
  ::dyng::cuda::check_level(host, graph, fn);
}

/// The whole graph's components into `state` (grown to the graph, checks done).
template <class vid_t, class eid_t>
stats_t compute_into(const kernels::rows_t<vid_t, eid_t>& rows, kind_t kind,
                     device_state_t<vid_t>& state, void* stream) {
  stats_t stats;
  state.kind = kind;
  if (kind == kind_t::weak) {
    state.count =
        kernels::weak_compute(rows, state.labels.data(), state.sizes.data(), stats, stream);
    stats.record(engine_t{"operators", "afforest"});
    stats.iterations = 1;
  } else {
    state.count = kernels::strong_compute(rows, state.labels.data(), state.sizes.data(),
                                          state.trees, stats, stream);
    stats.record(engine_t{"operators", "signatures"});
  }
  stats.affected = rows.num_vertices;
  return stats;
}

/// The batch's effective changes in device memory.
template <class vid_t>
::dyng::cuda::device_buffer<edge_change_t<vid_t>> upload_changes(const change_log_t<vid_t>& log,
                                                                 void* stream) {
  auto changes =
      kernels::room_for<edge_change_t<vid_t>>(static_cast<int64_t>(log.changes.size()), stream);
  changes.copy_from_host(log.changes.data(), log.changes.size());
  return changes;
}

}  // namespace

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                const options_t& options, void* stream, device_state_t<vid_t>& state) {
  check_call(host, graph, options, "components.compute()");
  const ::dyng::cuda::device_scope_t scope(graph.device());
  auto fresh = ::dyng::cuda::allocate_result<device_state_t<vid_t>>(
      graph.device(), static_cast<int64_t>(host.num_vertices()));
  const kernels::rows_t<vid_t, eid_t> rows(host, graph);
  stats_t stats = compute_into(rows, options.kind, fresh, stream);
  ::dyng::cuda::reserve_snapshot(fresh);
  state = std::move(fresh);
  return stats;
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state) {
  constexpr const char* fn = "components.update()";
  check_call(host, graph, options, fn);
  detail::check_kind(state.kind, options, fn);
  const kernels::rows_t<vid_t, eid_t> rows(host, graph);
  auto differences = [&](const device_state_t<vid_t>& s, const device_state_t<vid_t>& before) {
    return kernels::count_differences(s.labels.data(), s.sizes.data(), before.labels.data(),
                                      before.sizes.data(), s.num_vertices, stream);
  };
  // The repairs write labels and sizes in their last step only and count `affected` there
  // (snapshot_t::for_recompute): the snapshot is not theirs.
  auto repair = [&](const change_log_t<vid_t>& l, int64_t budget, stats_t& stats,
                    const device_state_t<vid_t>&) {
    const auto changes = upload_changes(l, stream);
    const auto count = static_cast<int64_t>(l.changes.size());
    if (options.kind == kind_t::weak) {
      const auto deleted = std::count_if(l.changes.begin(), l.changes.end(), [](const auto& c) {
        return c.kind == edge_change_kind_t::deleted;
      });
      return kernels::weak_repair(rows, changes.data(), count, static_cast<int64_t>(deleted),
                                  l.num_vertices_before, budget, state.labels.data(),
                                  state.sizes.data(), state.count, stats, stream);
    }
    return kernels::strong_repair(rows, changes.data(), count, l.num_vertices_before, budget,
                                  state.labels.data(), state.sizes.data(), state.count, state.trees,
                                  stats, stream);
  };
  auto recompute = [&](device_state_t<vid_t>& s, const device_state_t<vid_t>& snapshot,
                       const stats_t& attempt) {
    stats_t fresh = compute_into(rows, options.kind, s, stream);
    fresh.affected = differences(s, snapshot);
    fresh.searches = attempt.searches;
    fresh.search_size = attempt.search_size;
    return fresh;
  };
  const engine_t engine = options.kind == kind_t::weak
                              ? engine_t{"operators", "relink"}
                              : engine_t{"operators", "restricted_signatures"};
  // Searches visit vertices as well as edges, and a graph of isolated vertices has no edges.
  const auto scale =
      static_cast<int64_t>(host.num_edges()) + static_cast<int64_t>(host.num_vertices());
  using steps_t = ::dyng::cuda::snapshot_steps_t<device_state_t<vid_t>, stats_t, decltype(repair),
                                                 decltype(recompute)>;
  return ::dyng::cuda::update_on_device<steps_t>(
      state, graph, log, static_cast<int64_t>(host.num_vertices()), options.repair_budget, fn,
      state, stream, scale, k_default_gpu_repair_budget, engine, repair, recompute,
      ::dyng::cuda::snapshot_t::for_recompute);
}

DYNG_INSTANTIATE_ENTRY_POINTS(cuda, whole)

}  // namespace dyng::components::cuda
