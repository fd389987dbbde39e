// Full BFS for compute() and the recompute fallback: a sequential queue BFS and a
// level-synchronous OpenMP BFS (each thread relaxes a share of the frontier, claims vertices
// with a compare-and-swap on the level and collects them in its own list; the lists make the
// next frontier). Both give the same levels and the same counters (levels settled, edges
// scanned), so stats agree across backends.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(DYNG_HAVE_OPENMP)
#include <omp.h>
#endif

#include "dyng/dynamic_bfs/dynamic_bfs.hpp"
#include "dyng/graph/adjacency_view.hpp"

namespace dyng::dynamic_bfs::detail {

/// Work of one BFS: levels settled and edges scanned.
struct bfs_counters_t {
  int64_t levels = 0;
  int64_t edges = 0;
};

template <class vid_t, class eid_t>
bfs_counters_t bfs_sequential(const adjacency_view_t<vid_t, eid_t>& out, vid_t source,
                              std::vector<int64_t>& levels) {
  levels.assign(static_cast<size_t>(out.num_vertices), k_unreached);
  std::vector<vid_t> queue;
  queue.reserve(static_cast<size_t>(out.num_vertices));
  queue.push_back(source);
  levels[static_cast<size_t>(source)] = 0;
  bfs_counters_t counters;
  for (size_t head = 0; head < queue.size(); ++head) {
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

template <class vid_t, class eid_t>
bfs_counters_t bfs_openmp(const adjacency_view_t<vid_t, eid_t>& out, vid_t source, int threads,
                          std::vector<int64_t>& levels) {
#if defined(DYNG_HAVE_OPENMP)
  const size_t n = static_cast<size_t>(out.num_vertices);
  levels.assign(n, k_unreached);
  levels[static_cast<size_t>(source)] = 0;
  std::vector<vid_t> frontier{source};
  std::vector<std::vector<vid_t>> found(static_cast<size_t>(threads));
  std::vector<size_t> offset(static_cast<size_t>(threads) + 1, 0);
  bfs_counters_t counters;
  int64_t edges = 0;
#pragma omp parallel num_threads(threads) reduction(+ : edges)
  {
    std::vector<vid_t>& mine = found[static_cast<size_t>(omp_get_thread_num())];
    for (int64_t level = 1; !frontier.empty(); ++level) {
      mine.clear();
#pragma omp for schedule(dynamic, 64) nowait
      for (size_t i = 0; i < frontier.size(); ++i) {
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
#pragma omp barrier
#pragma omp single
      {
        for (size_t t = 0; t < found.size(); ++t) offset[t + 1] = offset[t] + found[t].size();
        frontier.resize(offset.back());
        ++counters.levels;
      }
      const size_t t = static_cast<size_t>(omp_get_thread_num());
      std::copy(mine.begin(), mine.end(), frontier.begin() + static_cast<std::ptrdiff_t>(offset[t]));
#pragma omp barrier
    }
  }
  counters.edges = edges;
  return counters;
#else
  (void)threads;
  return bfs_sequential(out, source, levels);
#endif
}

}  // namespace dyng::dynamic_bfs::detail
