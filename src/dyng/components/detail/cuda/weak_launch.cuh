// Weak components on the GPU, host side: the compute (Afforest over all vertices) and the
// repair of an update. A deleted edge inside a component is first asked by bounded searches from
// its ends (endpoint_search.cuh); a component they leave undecided is re-linked whole: its
// vertices start trees of their own, every other vertex stays a child of its label, and the
// same Afforest steps run over the reopened vertices only; inserted edges are linked on top.
// When the searches decide every deletion (relink_uncut), no vertex is reopened: each starts at
// its label, the inserted edges are linked between those starts, and one pass writes the roots.
// That path is queued behind the searches before their outcome is known (one wait, not two):
// its last pass checks on the device whether a search cut, and writes nothing if one did.
// Nothing of the result is written until the new labels are known, so a repair past its budget
// leaves the state as it was. Included by components_cuda.cu only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "dyng/components/detail/cuda/endpoint_search.cuh"
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

/// Afforest's first steps over the listed vertices (all with no list): the sampled links,
/// flattening, and the vote; returns the root of the largest tree (-1 for no items).
template <class vid_t, class eid_t>
long long link_samples(const rows_t<vid_t, eid_t>& rows, vid_t* parent, const vid_t* list,
                       unsigned long long items, void* stream) {
  const stage_scope_t stage("components.sample");
  const auto s = as_stream(stream);
  for (int round = 0; round < k_sample_rounds; ++round) {
    link_sampled<<<grid_for(items), k_block_threads, 0, s>>>(rows.out, list, items, round, parent);
  }
  if (rows.directed) {
    link_sampled<<<grid_for(items), k_block_threads, 0, s>>>(rows.in, list, items, 0, parent);
  }
  flatten<<<grid_for(items), k_block_threads, 0, s>>>(parent, list, items);
  check_launch();
  return most_common_root(parent, list, items, stream);
}

/// Afforest over the listed vertices (all with no list): link_samples(), then the whole rows
/// of the vertices outside the largest tree. Returns the edges read.
template <class vid_t, class eid_t>
unsigned long long link_rows(const rows_t<vid_t, eid_t>& rows, vid_t* parent, const vid_t* list,
                             unsigned long long items, void* stream) {
  if (items == 0) return 0;
  const long long giant = link_samples(rows, parent, list, items, stream);
  const stage_scope_t stage("components.rows");
  const auto s = as_stream(stream);
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

/// The bounded searches from the ends of the batch's deleted edges (endpoint_search.cuh):
/// the cut flags of the components to re-link whole, and the closed searches' components to
/// plant into a forest (`plant`). The searches are launched for both ends of every deletion the
/// host counted, without asking the device how many ends lie inside a component: the slots of
/// ends left unlisted stay (0, 0), a search that starts at its target and decides nothing.
template <class vid_t, class eid_t>
struct end_searches_t {
  /// The counters, the listed ends and their targets, and the cut flags, in one zeroed block
  /// (one allocation and one memset where there were four of each).
  device_buffer<unsigned char> zeroed;
  unsigned long long* counters = nullptr;  ///< Ends listed, ends that cut.
  vid_t* ends = nullptr;
  vid_t* targets = nullptr;
  unsigned char* cut = nullptr;  ///< By label: the component must be re-linked whole.
  device_buffer<vid_t> visited;
  device_buffer<end_search_t<vid_t>> results;
  unsigned long long count = 0;  ///< Search slots: twice the deletions.
  bool all_cut = false;          ///< Too many ends to search: every touched component is cut.

  end_searches_t(const rows_t<vid_t, eid_t>& rows, const edge_change_t<vid_t>* changes,
                 int64_t num_changes, int64_t num_deleted, const int64_t* labels, void* stream)
      : count(2 * static_cast<unsigned long long>(num_deleted)) {
    const auto s = as_stream(stream);
    if (count > k_max_searched_ends) {
      count = 0;
      all_cut = true;
    }
    // Offsets rounded up to 8 bytes: the counters first, then the ends, the targets, the flags.
    const auto round_up = [](size_t bytes) { return (bytes + 7) & ~size_t{7}; };
    const size_t list_bytes = round_up(count * sizeof(vid_t));
    const size_t head = 2 * sizeof(unsigned long long);
    zeroed = zeros<unsigned char>(
        static_cast<int64_t>(head + 2 * list_bytes + static_cast<size_t>(rows.num_vertices)),
        stream);
    counters = reinterpret_cast<unsigned long long*>(zeroed.data());
    ends = reinterpret_cast<vid_t*>(zeroed.data() + head);
    targets = reinterpret_cast<vid_t*>(zeroed.data() + head + list_bytes);
    cut = zeroed.data() + head + 2 * list_bytes;
    if (all_cut) {
      mark_cut<<<grid_for(num_changes), k_block_threads, 0, s>>>(changes, num_changes, labels, cut);
      check_launch();
      return;
    }
    if (count == 0) return;
    visited = room_for<vid_t>(static_cast<int64_t>(count) * k_search_vertices, stream);
    results = room_for<end_search_t<vid_t>>(static_cast<int64_t>(count), stream);
    list_deleted_ends<<<grid_for(num_changes), k_block_threads, 0, s>>>(
        changes, num_changes, labels, ends, targets, counters);
    search_ends<<<blocks(), k_search_warps * 32, 0, s>>>(
        rows.out, rows.in, rows.directed, ends, targets, count, results.data(), visited.data());
    cut_where_undecided<<<grid_for(count), k_block_threads, 0, s>>>(results.data(), targets, count,
                                                                    cut, counters + 1);
    check_launch();
  }

  /// Plants the closed searches' components into `parent` (and their bits into `planted`, if
  /// given).
  void plant(vid_t* parent, unsigned* planted, void* stream) const {
    if (count == 0) return;
    plant_closed<<<blocks(), k_search_warps * 32, 0, as_stream(stream)>>>(
        results.data(), targets, visited.data(), count, cut, parent, planted);
    check_launch();
  }

  unsigned blocks() const {
    return static_cast<unsigned>((count + k_search_warps - 1) / k_search_warps);
  }
};

/// The repair when no component is cut: a forest that starts as every vertex on its own, where
/// a vertex's tree starts at its label (base_of: its own vertex where a closed search planted it
/// or it is new), the inserted edges linked between those starts, and one pass that writes each
/// vertex's root as its label. It is launched without waiting for the searches: the pass writes
/// nothing when a search cut (relabel_guard_t), and the host learns both at its one wait.
/// Returns whether it applied, and the ends searched.
template <class vid_t, class eid_t>
std::pair<bool, int64_t> relink_uncut(const rows_t<vid_t, eid_t>& rows,
                                      const end_searches_t<vid_t, eid_t>& searches,
                                      const edge_change_t<vid_t>* changes, int64_t num_changes,
                                      int64_t old_vertices, int64_t* labels, int64_t* sizes,
                                      int64_t& count, stats_t& stats, void* stream) {
  const int64_t n = rows.num_vertices;
  auto parent = room_for<vid_t>(n, stream);
  // The planted bits, then the linked ones (forest_label_t), in one zeroed block.
  const int64_t words = (n + 31) / 32;
  auto bits = zeros<unsigned>(2 * words, stream);
  unsigned* const planted = bits.data();
  unsigned* const linked = bits.data() + words;
  start_trees<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(parent.data(), n);
  check_launch();
  searches.plant(parent.data(), planted, stream);
  if (num_changes > 0) {
    link_inserted_bases<<<grid_for(num_changes), k_block_threads, 0, as_stream(stream)>>>(
        changes, num_changes, labels, planted, parent.data(), linked);
    check_launch();
  }
  stats.search_size = 0;
  stats.frontier_visits = 0;
  relabel_guard_t guard{searches.counters};
  const bool applied =
      write_new_labels(forest_label_t<vid_t>{parent.data(), planted, linked}, n, old_vertices,
                       labels, sizes, count, stats, stream, searches.count > 0 ? &guard : nullptr);
  return {applied, static_cast<int64_t>(guard.values[0])};
}

/// The weak repair of labels, sizes and count (grown to the graph's vertices) for the batch's
/// `changes` (in device memory; `num_deleted` of them deletions), within `budget` vertices and
/// edges; false once past it, with nothing written. Deletions are first asked by bounded
/// searches (end_searches_t); only the components they leave undecided are re-linked whole.
template <class vid_t, class eid_t>
bool weak_repair(const rows_t<vid_t, eid_t>& rows, const edge_change_t<vid_t>* changes,
                 int64_t num_changes, int64_t num_deleted, int64_t old_vertices, int64_t budget,
                 int64_t* labels, int64_t* sizes, int64_t& count, stats_t& stats, void* stream) {
  const stage_scope_t stage("components.relink");
  const int64_t n = rows.num_vertices;
  const end_searches_t<vid_t, eid_t> searches(rows, changes, num_changes, num_deleted, labels,
                                              stream);
  stats.searches = 0;
  if (!searches.all_cut) {
    const auto [applied, searched] = relink_uncut(
        rows, searches, changes, num_changes, old_vertices, labels, sizes, count, stats, stream);
    stats.searches = searched;
    if (applied) return true;
  }
  auto parent = room_for<vid_t>(n, stream);
  auto list = room_for<vid_t>(n, stream);
  auto listed = zeros<unsigned long long>(1, stream);
  auto status = zeros<int>(1, stream);
  reopen_trees<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(
      labels, searches.cut, n, parent.data(), list.data(), listed.data(), status.data());
  check_launch();
  searches.plant(parent.data(), nullptr, stream);
  check_lists(status);
  const auto reopened = read_entry(listed);
  stats.searches += reopened > 0 ? 1 : 0;
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
  write_new_labels(fresh_label_t{fresh.data()}, n, old_vertices, labels, sizes, count, stats,
                   stream);
  return true;
}

}  // namespace dyng::components::detail::cuda
