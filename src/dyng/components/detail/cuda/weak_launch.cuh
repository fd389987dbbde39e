// Weak components on the GPU, host side: the compute (Afforest over all vertices) and the
// repair of an update, which re-links only the components the batch's deletions may have cut:
// their vertices start trees of their own, every other vertex stays a child of its label, and
// the same Afforest steps run over the reopened vertices only; inserted edges are linked on top.
// Nothing of the result is written until the new labels are known, so a repair past its budget
// leaves the state as it was. Included by components_cuda.cu only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dyng/components/detail/cuda/launch_common.cuh"
#include "dyng/components/detail/cuda/union_find_kernels.cuh"
#include "dyng/core/stage_scope.hpp"

namespace dyng::components::detail::cuda {

/// Afforest's sampling rounds (the first slots of each row), as its authors found enough to
/// join most of a skewed graph's giant component.
inline constexpr int k_sample_rounds = 2;
/// Vertices whose roots vote for the component whose rows are skipped.
inline constexpr int k_giant_samples = 1024;

/// The root most of `samples` items spread over the list share (-1 for no items).
template <class vid_t>
long long most_common_root(vid_t* parent, const vid_t* list, unsigned long long items,
                           void* stream) {
  if (items == 0) return -1;
  auto roots = room_for<vid_t>(k_giant_samples, stream);
  sample_roots<<<(k_giant_samples + k_block_threads - 1) / k_block_threads, k_block_threads, 0,
                 as_stream(stream)>>>(parent, list, items, k_giant_samples, roots.data());
  check_launch();
  std::vector<vid_t> host(k_giant_samples);
  roots.copy_to_host(host.data(), host.size());
  std::sort(host.begin(), host.end());
  long long best = host[0];
  size_t best_run = 0;
  for (size_t i = 0; i < host.size();) {
    size_t j = i;
    while (j < host.size() && host[j] == host[i]) ++j;
    if (j - i > best_run) best = host[i], best_run = j - i;
    i = j;
  }
  return best;
}

/// Afforest over the listed vertices (all with no list): sampled links, flattening, then the
/// whole rows of the vertices outside the most common tree. Returns the edges read.
template <class vid_t, class eid_t>
unsigned long long link_rows(const rows_t<vid_t, eid_t>& rows, vid_t* parent, const vid_t* list,
                             unsigned long long items, void* stream) {
  if (items == 0) return 0;
  const auto s = as_stream(stream);
  for (int round = 0; round < k_sample_rounds; ++round) {
    link_sampled<<<grid_for(items), k_block_threads, 0, s>>>(rows.out, list, items, round, parent);
  }
  if (rows.directed) {
    link_sampled<<<grid_for(items), k_block_threads, 0, s>>>(rows.in, list, items, 0, parent);
  }
  flatten<<<grid_for(items), k_block_threads, 0, s>>>(parent, list, items);
  check_launch();
  const long long giant = most_common_root(parent, list, items, stream);
  auto read = zeros<unsigned long long>(1, stream);
  with_group(rows, [&](auto width) {
    constexpr int G = decltype(width)::value;
    link_rows_outside<G><<<grid_for(items, G), k_block_threads, 0, s>>>(rows.out, list, items,
                                                                       giant, parent, read.data());
    if (rows.directed) {
      link_rows_outside<G><<<grid_for(items, G), k_block_threads, 0, s>>>(
          rows.in, list, items, giant, parent, read.data());
    }
  });
  check_launch();
  return read_entry(read);
}

/// labels[v] = the root of v, for all n vertices.
template <class vid_t>
void write_roots(vid_t* parent, int64_t n, int64_t* labels, void* stream) {
  if (n == 0) return;
  roots_as_labels<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(parent, n, labels);
  check_launch();
}

/// The weak components of the whole graph into labels and sizes; returns the count.
template <class vid_t, class eid_t>
int64_t weak_compute(const rows_t<vid_t, eid_t>& rows, int64_t* labels, int64_t* sizes,
                     stats_t& stats, void* stream) {
  const stage_scope_t stage("components.afforest");
  const int64_t n = rows.num_vertices;
  auto parent = room_for<vid_t>(n, stream);
  if (n > 0) {
    start_trees<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(parent.data(), n);
    check_launch();
  }
  stats.frontier_visits = static_cast<int64_t>(
      link_rows(rows, parent.data(), static_cast<const vid_t*>(nullptr), n, stream));
  write_roots(parent.data(), n, labels, stream);
  return sizes_and_count(labels, n, sizes, stream);
}

/// The weak repair of labels, sizes and count (grown to the graph's vertices) for the batch's
/// `changes` (in device memory), within `budget` vertices and edges; false once past it, with
/// nothing written.
template <class vid_t, class eid_t>
bool weak_repair(const rows_t<vid_t, eid_t>& rows, const edge_change_t<vid_t>* changes,
                 int64_t num_changes, int64_t old_vertices, int64_t budget, int64_t* labels,
                 int64_t* sizes, int64_t& count, stats_t& stats, void* stream) {
  const stage_scope_t stage("components.relink");
  const int64_t n = rows.num_vertices;
  const auto cut = cut_components(changes, num_changes, labels, n, stream);
  auto parent = room_for<vid_t>(n, stream);
  auto list = room_for<vid_t>(n, stream);
  auto listed = zeros<unsigned long long>(1, stream);
  auto status = zeros<int>(1, stream);
  reopen_trees<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(
      labels, cut.data(), n, parent.data(), list.data(), listed.data(), status.data());
  check_launch();
  check_lists(status);
  const auto reopened = read_entry(listed);
  stats.searches = reopened > 0 ? 1 : 0;
  stats.search_size = static_cast<int64_t>(reopened);
  if (static_cast<int64_t>(reopened) > budget) return false;
  const auto edges = link_rows(rows, parent.data(), list.data(), reopened, stream);
  stats.frontier_visits = static_cast<int64_t>(edges);
  if (static_cast<int64_t>(reopened + edges) > budget) return false;
  if (num_changes > 0) {
    link_inserted<<<grid_for(num_changes), k_block_threads, 0, as_stream(stream)>>>(
        changes, num_changes, parent.data());
    check_launch();
  }
  auto fresh = room_for<int64_t>(n, stream);
  write_roots(parent.data(), n, fresh.data(), stream);
  write_fresh_labels(fresh.data(), n, old_vertices, labels, sizes, count, stats, stream);
  return true;
}

}  // namespace dyng::components::detail::cuda
