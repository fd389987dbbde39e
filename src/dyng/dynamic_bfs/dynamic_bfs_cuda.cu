// Host side of dynamic_bfs on the GPU: the entry points and dynamic_bfs's steps for the shared
// dynamic-update policy. The kernels' launches are in detail/cuda/bfs_launch.cuh. Over budget,
// the policy recomputes over the partly repaired levels (the compute overwrites them all);
// `affected` counts the levels that differ from the snapshot either way, and a step that throws
// puts the snapshot back.
#include "dyng/dynamic_bfs/dynamic_bfs_cuda.hpp"

#include <string>
#include <utility>

#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/core/argument_checks.hpp"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/dynamic_bfs/detail/bfs_checks.hpp"
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
  detail::check_graph(host, fn);
  ::dyng::cuda::check_level(host, graph, fn);
}

/// dynamic_bfs's steps for run_update() on the GPU (see the file comment).
template <class vid_t, class eid_t>
class device_steps_t {
 public:
  using stats_type = stats_t;
  /// recompute() writes every entry and counts against its own snapshot.
  static constexpr bool k_recompute_overwrites = true;

  device_steps_t(const views_t<vid_t, eid_t>& v, void* stream, device_state_t<vid_t>& state)
      : v_(v), stream_(stream), state_(state) {}

  int64_t result_vertices() const { return state_.num_vertices; }
  int64_t work_scale() const { return v_.stored_edges; }
  double default_budget() const { return k_default_gpu_repair_budget; }
  void grow(int64_t n) { ::dyng::cuda::grow(state_, n, stream_); }
  void shrink(int64_t n) noexcept { state_.num_vertices = n; }

  bool repair(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    stats.engine_used = kernels::k_engine;
    if (log.changes.empty()) return true;
    take_snapshot();
    return kernels::repair_levels(v_, levels(), snapshot(), state_.source, log,
                                  static_cast<unsigned long long>(budget), stats, stream_);
  }

  /// Puts the snapshot back. A CUDA failure here leaves nothing to restore from, so it is
  /// swallowed: the error that made the policy undo is the one the caller sees.
  void undo() noexcept {
    if (old_.num_vertices == 0) return;
    try {
      ::dyng::cuda::copy_values(state_, old_, stream_);
    } catch (...) {
    }
  }

  void recompute(stats_t& stats) {
    take_snapshot();
    try {
      stats_t fresh = kernels::full_bfs(v_, state_.source, state_.levels.data(), stream_);
      fresh.affected = kernels::count_changed(levels(), snapshot(), state_.num_vertices, stream_);
      fresh.invalidated = stats.invalidated;
      fresh.invalidation_rounds = stats.invalidation_rounds;
      stats = fresh;
    } catch (...) {
      undo();
      throw;
    }
  }

 private:
  level_t* levels() { return reinterpret_cast<level_t*>(state_.levels.data()); }
  const level_t* snapshot() const { return reinterpret_cast<const level_t*>(old_.levels.data()); }
  void take_snapshot() {
    if (old_.num_vertices == 0) old_ = ::dyng::cuda::clone(state_, stream_);
  }

  views_t<vid_t, eid_t> v_;
  void* stream_;
  device_state_t<vid_t>& state_;
  device_state_t<vid_t> old_;  ///< the (grown) state before the batch
};

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
  ::dyng::cuda::check_on_device(state, graph.device(), fn);
  ::dyng::cuda::device_scope_t scope(graph.device());
  device_steps_t<vid_t, eid_t> steps(views_t<vid_t, eid_t>(host, graph), stream, state);
  return run_update(steps, log, static_cast<int64_t>(host.num_vertices()), options.repair_budget,
                    fn);
}

#define DYNG_INSTANTIATE_DYNAMIC_BFS_CUDA(VID, EID)                                             \
  template stats_t compute(const graph_t<VID, EID>&, const device_graph_t<VID, EID>&, VID,     \
                           const options_t&, void*, device_state_t<VID>&);                     \
  template stats_t update(const graph_t<VID, EID>&, const device_graph_t<VID, EID>&,           \
                          const change_log_t<VID>&, const options_t&, void*,                   \
                          device_state_t<VID>&);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_DYNAMIC_BFS_CUDA)
#undef DYNG_INSTANTIATE_DYNAMIC_BFS_CUDA

}  // namespace dyng::dynamic_bfs::cuda
