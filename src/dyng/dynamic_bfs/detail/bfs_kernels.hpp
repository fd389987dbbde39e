// Full BFS for compute() and the recompute fallback: a sequential queue BFS and a
// level-synchronous OpenMP BFS (each thread relaxes a share of a wide frontier, claims vertices
// with a compare-and-swap on the level and collects them in its own list; the lists make the
// next frontier; narrow frontiers are expanded by the calling thread). Both give the same levels
// and the same counters (levels settled, edges scanned), so stats agree across backends. Both poll
// the caller's stop flag (backend/cancel.hpp) every k_cancel_poll_mask + 1 vertices, and every 64
// vertices of a thread's share of a frontier, and throw interrupted_error with `levels`
// part-written (compute and the recompute fill a fresh state).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(DYNG_HAVE_OPENMP)
#include <omp.h>
#endif

#include "dyng/backend/profile.hpp"
#include "dyng/backend/execution.hpp"
#include "dyng/dynamic_bfs/dynamic_bfs.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::dynamic_bfs::detail {

/// Work of one BFS: levels settled and edges scanned.
struct bfs_counters_t {
  int64_t levels = 0;
  int64_t edges = 0;
};

/// What a search throws when its caller's flag asks it to stop.
inline constexpr const char* k_bfs_stopped = "dynamic_bfs search";

template <class vid_t, class eid_t>
bfs_counters_t bfs_sequential(const adjacency_view_t<vid_t, eid_t>& out, vid_t source,
                              std::vector<int64_t>& levels, cancel_token_t cancel = {}) {
  levels.assign(static_cast<size_t>(out.num_vertices), k_unreached);
  std::vector<vid_t> queue;
  queue.reserve(static_cast<size_t>(out.num_vertices));
  queue.push_back(source);
  levels[static_cast<size_t>(source)] = 0;
  bfs_counters_t counters;
  for (size_t head = 0; head < queue.size(); ++head) {
    if ((head & k_cancel_poll_mask) == 0) throw_if_cancelled(cancel, k_bfs_stopped);
    const vid_t u = queue[head];
    const int64_t next = levels[static_cast<size_t>(u)] + 1;
    for (eid_t slot = out.begin(u); slot < out.end(u); ++slot) {
      const vid_t v = out.neighbour(slot);
      if (levels[static_cast<size_t>(v)] == k_unreached) {
        levels[static_cast<size_t>(v)] = next;
        queue.push_back(v);
      }
    }
    counters.edges += out.degree(u);
  }
  if (!queue.empty()) counters.levels = levels[static_cast<size_t>(queue.back())] + 1;
  return counters;
}

/// Frontiers below this many vertices are expanded by the calling thread: waking the team costs
/// more than they do, and a high-diameter graph (a grid: thousands of levels, none wide) would
/// otherwise pay a team wake-up per level and run slower than the sequential kernel.
inline constexpr size_t k_parallel_frontier = 2048;

/// `parallel_frontier` is the width from which the team expands a frontier (0: always, for the
/// tests; k_parallel_frontier otherwise).
template <class vid_t, class eid_t>
bfs_counters_t bfs_openmp(const adjacency_view_t<vid_t, eid_t>& out, vid_t source, int threads,
                          size_t parallel_frontier, std::vector<int64_t>& levels,
                          cancel_token_t cancel = {}) {
#if defined(DYNG_HAVE_OPENMP)
  const size_t n = static_cast<size_t>(out.num_vertices);
  levels.assign(n, k_unreached);
  levels[static_cast<size_t>(source)] = 0;
  std::vector<vid_t> frontier{source}, next;
  std::vector<std::vector<vid_t>> found(static_cast<size_t>(threads));
  bfs_counters_t counters;
  for (int64_t level = 1; !frontier.empty(); ++level) {
    ++counters.levels;
    next.clear();
    throw_if_cancelled(cancel, k_bfs_stopped);
    if (frontier.size() < parallel_frontier) {
      for (const vid_t u : frontier) {
        for (eid_t slot = out.begin(u); slot < out.end(u); ++slot) {
          const vid_t v = out.neighbour(slot);
          if (levels[static_cast<size_t>(v)] == k_unreached) {
            levels[static_cast<size_t>(v)] = level;
            next.push_back(v);
          }
        }
        counters.edges += out.degree(u);
      }
    } else {
      int64_t edges = 0;
      team_stop_t stop(cancel);
#pragma omp parallel num_threads(threads) reduction(+ : edges)
      {
        std::vector<vid_t>& mine = found[static_cast<size_t>(omp_get_thread_num())];
        mine.clear();
        bool stopping = false;
#pragma omp for schedule(dynamic, 64) nowait
        for (size_t i = 0; i < frontier.size(); ++i) {
          if ((i & 63) == 0) stopping = stop.poll();
          if (stopping) continue;
          const vid_t u = frontier[i];
          for (eid_t slot = out.begin(u); slot < out.end(u); ++slot) {
            const vid_t v = out.neighbour(slot);
            std::atomic_ref<int64_t> cell(levels[static_cast<size_t>(v)]);
            int64_t expected = k_unreached;
            if (cell.load(std::memory_order_relaxed) == k_unreached &&
                cell.compare_exchange_strong(expected, level, std::memory_order_relaxed)) {
              mine.push_back(v);
            }
          }
          edges += out.degree(u);
        }
      }
      throw_if_cancelled(stop, k_bfs_stopped);
      counters.edges += edges;
      for (const auto& list : found) next.insert(next.end(), list.begin(), list.end());
    }
    frontier.swap(next);
  }
  return counters;
#else
  (void)threads;
  (void)parallel_frontier;
  return bfs_sequential(out, source, levels, cancel);
#endif
}

/// A full BFS into `levels` on the kernel the call's backend and the graph's size call for, with
/// stats as a compute reports them (compute() and the recompute fallback).
template <class vid_t, class eid_t>
stats_t full_bfs(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
                 const execution_t& exec, std::vector<int64_t>& levels) {
  const stage_scope_t loop_stage("dynamic_bfs.loop");
  const bool forced = options.parallel_min_edges == 0;  // the tests' team on every frontier
  const int threads = host_team_size(
      exec, static_cast<int64_t>(graph.num_edges()),
      options.parallel_min_edges >= 0 ? options.parallel_min_edges : k_default_parallel_min_edges);
  const bfs_counters_t counters =
      threads > 1 ? bfs_openmp(graph.out_view(), source, threads,
                               forced ? size_t{0} : k_parallel_frontier, levels, exec.cancel)
                  : bfs_sequential(graph.out_view(), source, levels, exec.cancel);
  stats_t stats;
  stats.record(threads > 1 ? engine_t{"fused", "frontier"} : engine_t{"operators", "queue"});
  stats.iterations = counters.levels;
  stats.frontier_visits = counters.edges;
  for (const int64_t level : levels) stats.affected += level != k_unreached ? 1 : 0;
  return stats;
}

}  // namespace dyng::dynamic_bfs::detail
