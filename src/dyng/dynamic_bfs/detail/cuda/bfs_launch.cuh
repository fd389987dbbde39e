// The host side of dynamic_bfs's GPU kernels (bfs_kernels.cuh): their workspaces, launches and
// counters, for a full search (compute and the recompute fallback) and for the three stages of
// the repair, each followed by one host synchronisation whose counters decide what comes next:
//   1. the first candidates from the deleted changes, then the invalidation rounds;
//   2. the dead vertices lose their level, then they and the heads of inserted edges are
//      reseeded;
//   3. the frontier search from the seeds, within what is left of the budget.
// Included by dynamic_bfs_cuda.cu only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "dyng/backend/profile.hpp"
#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_stop.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/errors.hpp"
#include "dyng/dynamic_bfs/detail/cuda/bfs_kernels.cuh"
#include "dyng/dynamic_bfs/dynamic_bfs.hpp"
#include "dyng/graph/cuda/device_graph.hpp"

namespace dyng::dynamic_bfs::detail::cuda {

using ::dyng::cuda::as_stream;
using ::dyng::cuda::device_buffer;
using ::dyng::cuda::k_block_threads;
using ::dyng::cuda::stride_blocks;

/// One cooperative (persistent) kernel per search: fused, as 0.2 names it.
inline constexpr engine_t k_engine{"fused", "frontier"};
inline constexpr unsigned long long k_no_budget = 1ull << 62;

/// The graph as the kernels see it, with the lane-group width for its mean degree.
template <class vid_t, class eid_t>
struct views_t {
  adjacency_view_t<vid_t, eid_t> out;
  adjacency_view_t<vid_t, eid_t> in;
  int64_t stored_edges = 0;
  int group = 4;

  views_t(const graph_t<vid_t, eid_t>& host,
          const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph)
      : out(graph.out_view()),
        in(in_edges_view(graph, host.properties().directed)),
        stored_edges(static_cast<int64_t>(host.num_edges())) {
    // Sparse rows waste the lanes of wide groups; dense and skewed ones need them.
    const int64_t n = std::max<int64_t>(1, host.num_vertices());
    group = stored_edges <= 6 * n ? 4 : 32;
  }
};

/// The scratch memory of one loop: stamps, two vertex lists and the counters.
template <class vid_t, class eid_t>
struct loop_space_t {
  device_buffer<int> stamp;
  device_buffer<vid_t> lists;
  device_buffer<loop_control_t> control;
  loop_params_t<vid_t, eid_t> params;

  loop_space_t(const views_t<vid_t, eid_t>& v, level_t* levels, void* stream)
      : stamp(static_cast<size_t>(std::max<int64_t>(1, v.out.num_vertices)), stream),
        lists(2 * static_cast<size_t>(std::max<int64_t>(1, v.out.num_vertices)), stream),
        control(1, stream) {
    stamp.fill_bytes(0xff);  // -1: no round has claimed the vertex
    control.fill_bytes(0);
    const auto n = static_cast<unsigned long long>(std::max<int64_t>(1, v.out.num_vertices));
    params.out = v.out;
    params.in = v.in;
    params.levels = levels;
    params.stamp = stamp.data();
    params.list[0] = lists.data();
    params.list[1] = lists.data() + n;
    params.capacity = n;
    params.control = control.data();
  }

  loop_control_t read() const {
    loop_control_t host{};
    control.copy_to_host(&host, 1);
    if (host.status == k_overflow) {
      throw internal_error("dynamic_bfs (CUDA): a vertex list overflowed; this is a bug in dyng");
    }
    return host;
  }
};

/// Launches one of the cooperative loops with the group width of `v`.
template <template <int, class, class> class kernel_of, class vid_t, class eid_t>
void launch_loop(const views_t<vid_t, eid_t>& v, const loop_params_t<vid_t, eid_t>& p,
                 void* stream) {
  auto run = [&](auto* kernel) {
    ::dyng::cuda::launch_cooperative(
        kernel, ::dyng::cuda::cooperative_blocks(kernel, 4, "dynamic_bfs"), p, as_stream(stream));
  };
  if (v.group == 4) {
    run(kernel_of<4, vid_t, eid_t>::get());
  } else {
    run(kernel_of<32, vid_t, eid_t>::get());
  }
}

template <int G, class vid_t, class eid_t>
struct frontier_of {
  static auto get() { return frontier_kernel<G, vid_t, eid_t>; }
};
template <int G, class vid_t, class eid_t>
struct invalidate_of {
  static auto get() { return invalidate_kernel<G, vid_t, eid_t>; }
};

inline int64_t count_changed(const level_t* levels, const level_t* old, int64_t n, void* stream) {
  device_buffer<unsigned long long> changed(1, stream);
  changed.fill_bytes(0);
  count_changed_kernel<<<stride_blocks(n, 8), k_block_threads, 0, as_stream(stream)>>>(
      n, levels, old, changed.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  unsigned long long host = 0;
  changed.copy_to_host(&host, 1);
  return static_cast<int64_t>(host);
}

/// A full BFS from `source` into `levels` (n entries), with stats as a compute reports them.
template <class vid_t, class eid_t>
stats_t full_bfs(const views_t<vid_t, eid_t>& v, vid_t source, int64_t* levels, void* stream) {
  const stage_scope_t loop_stage("dynamic_bfs.loop");
  // The search is one persistent kernel: a stop (Ctrl-C) is honoured before it writes anything.
  ::dyng::cuda::throw_if_cancelled_on(stream, "dynamic_bfs search");
  const int64_t n = v.out.num_vertices;
  auto* l = reinterpret_cast<level_t*>(levels);
  ::dyng::cuda::fill_values(levels, k_unreached, static_cast<size_t>(n), stream);
  const int64_t zero = 0;
  ::dyng::cuda::copy_to_device(levels + source, &zero, sizeof zero, stream);
  loop_space_t<vid_t, eid_t> space(v, l, stream);
  space.params.budget = k_no_budget;
  loop_control_t start{};
  start.count[0] = 1;
  ::dyng::cuda::copy_to_device(space.lists.data(), &source, sizeof source, stream);
  ::dyng::cuda::copy_to_device(space.control.data(), &start, sizeof start, stream);
  launch_loop<frontier_of>(v, space.params, stream);
  const loop_control_t done = space.read();
  stats_t stats;
  stats.record(k_engine);
  stats.iterations = done.rounds;
  stats.frontier_visits = static_cast<int64_t>(done.total_work);
  stats.affected = count_changed(l, nullptr, n, stream);  // the reached vertices
  return stats;
}

/// The repair of `levels` (grown, the snapshot of the state before the batch in `snapshot`) for
/// `log` within `budget` scanned edges; false once past it (the levels are then partly repaired).
template <class vid_t, class eid_t>
bool repair_levels(const views_t<vid_t, eid_t>& v, level_t* levels, const level_t* snapshot,
                   vid_t source, const change_log_t<vid_t>& log, unsigned long long budget,
                   stats_t& stats, void* stream) {
  const stage_scope_t loop_stage("dynamic_bfs.loop");
  const auto num_changes = static_cast<long long>(log.changes.size());
  device_buffer<edge_change_t<vid_t>> changes(static_cast<size_t>(num_changes), stream);
  changes.copy_from_host(log.changes.data(), static_cast<size_t>(num_changes));
  const int64_t n = v.out.num_vertices;

  // (1) Invalidation rounds.
  loop_space_t<vid_t, eid_t> rounds(v, levels, stream);
  device_buffer<vid_t> falling(static_cast<size_t>(std::max<int64_t>(1, n)), stream);
  device_buffer<vid_t> dead(static_cast<size_t>(std::max<int64_t>(1, n)), stream);
  device_buffer<unsigned> dead_flag(static_cast<size_t>(std::max<int64_t>(1, n)), stream);
  dead_flag.fill_bytes(0);
  rounds.params.falling = falling.data();
  rounds.params.dead = dead.data();
  rounds.params.dead_flag = dead_flag.data();
  rounds.params.budget = budget;
  first_candidates_kernel<<<stride_blocks(num_changes, 8), k_block_threads, 0, as_stream(stream)>>>(
      rounds.params, changes.data(), num_changes, source);
  DYNG_CUDA_CHECK(cudaGetLastError());
  launch_loop<invalidate_of>(v, rounds.params, stream);
  const loop_control_t cut = rounds.read();
  ::dyng::cuda::throw_if_cancelled_on(stream, "dynamic_bfs repair");  // the undo puts it back
  stats.invalidated = static_cast<int64_t>(cut.dead);
  stats.invalidation_rounds = cut.rounds;
  if (cut.status == k_over_budget) return false;

  // (2) Dead vertices lose their level, then take the best offer of a live in-neighbour;
  // inserted edges offer too. The seeds form the search's first frontier.
  if (cut.dead > 0) {
    clear_dead_kernel<<<stride_blocks(static_cast<long long>(cut.dead), 8), k_block_threads, 0,
                        as_stream(stream)>>>(levels, dead.data(), cut.dead);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }
  loop_space_t<vid_t, eid_t> search(v, levels, stream);
  const long long seeds = static_cast<long long>(cut.dead) + num_changes;
  reseed_kernel<<<stride_blocks(seeds, 8), k_block_threads, 0, as_stream(stream)>>>(
      search.params, dead.data(), cut.dead, changes.data(), num_changes);
  DYNG_CUDA_CHECK(cudaGetLastError());
  const loop_control_t seeded = search.read();
  ::dyng::cuda::throw_if_cancelled_on(stream, "dynamic_bfs repair");
  const unsigned long long used = cut.total_work + seeded.seed_work;
  if (used > budget) return false;

  // (3) The search from the seeds.
  search.params.budget = budget - used;
  launch_loop<frontier_of>(v, search.params, stream);
  const loop_control_t found = search.read();
  if (found.status == k_over_budget) return false;
  stats.iterations = found.rounds;
  stats.frontier_visits = static_cast<int64_t>(used + found.total_work);
  stats.affected = count_changed(levels, snapshot, n, stream);
  return true;
}

}  // namespace dyng::dynamic_bfs::detail::cuda
