// Strong components on the GPU, host side: the compute (trim, then signature phases over the
// rest, signature_kernels.cuh) and the repair of an update. The hub trees (hub_trees.cuh) decide
// the hub's component, the giant one, for the cost of what the batch moved; the repair then
// decides again only the vertices whose component may have changed besides it:
//   - those that left the hub's component;
//   - those of another component that a deleted edge ran inside (it may split);
//   - those both reachable from the head of an inserted edge between two components and
//     reaching its tail, outside the hub's component (every vertex of a component that a new
//     edge closes lies on such paths, and a cycle through the hub's component lies in it);
//   - the batch's new vertices.
// Their components consist of such vertices only, so the phases over them, with every other
// vertex decided and its edges dead, give the same labels as a full compute. Nothing of the
// result is written until the new labels are known, so a repair past its budget leaves the
// labels as they were (and drops the trees, which the next repair builds again). Included by
// components_cuda.cu only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "dyng/backend/cuda/device_stop.hpp"
#include "dyng/components/detail/cuda/hub_trees.cuh"
#include "dyng/components/detail/cuda/launch_common.cuh"
#include "dyng/components/detail/cuda/signature_kernels.cuh"
#include "dyng/core/stage_scope.hpp"

namespace dyng::components::detail::cuda {

/// The signature search's arrays and vertex lists for n vertices; `labels` is the caller's. The
/// counters share one block, so that a list's length and the overflow status come back in one
/// copy: [0] vertices listed, [1] the status word, [2] the moved flag.
template <class vid_t>
struct signature_space_t {
  device_buffer<vid_t> first, second, group_first, group_second, list, next, heavy;
  device_buffer<unsigned long long> counts;
  signatures_t<vid_t> view;

  unsigned long long* listed() { return counts.data(); }
  int* status() { return reinterpret_cast<int*>(counts.data() + 1); }
  int* moved() { return reinterpret_cast<int*>(counts.data() + 2); }
  void clear_listed(void* stream) {
    ::dyng::cuda::fill_bytes(counts.data(), 0, sizeof(unsigned long long), stream);
  }
  void clear_moved(void* stream) {
    ::dyng::cuda::fill_bytes(counts.data() + 2, 0, sizeof(unsigned long long), stream);
  }
  /// The vertices listed, after the work before them; throws internal_error when a list
  /// overflowed.
  unsigned long long read_listed() const {
    const auto [listed, status] = read_first<2>(counts);
    throw_if_list_overflowed(status);
    return listed;
  }

  signature_space_t(int64_t n, int64_t* labels, void* stream)
      : first(room_for<vid_t>(n, stream)),
        second(room_for<vid_t>(n, stream)),
        group_first(room_for<vid_t>(n, stream)),
        group_second(room_for<vid_t>(n, stream)),
        list(room_for<vid_t>(n, stream)),
        next(room_for<vid_t>(n, stream)),
        heavy(room_for<vid_t>(n, stream)),
        counts(zeros<unsigned long long>(3, stream)),
        view{labels, first.data(), second.data(), group_first.data(), group_second.data()} {}
};

/// Runs the phases until every listed vertex is decided; returns the rounds run. Stops
/// (interrupted_error) between rounds when the call is asked to.
template <class vid_t, class eid_t>
int64_t run_phases(const rows_t<vid_t, eid_t>& rows, signature_space_t<vid_t>& space,
                   unsigned long long items, void* stream) {
  const auto s = as_stream(stream);
  int64_t rounds = 0;
  while (items > 0) {
    start_phase<<<grid_for(items), k_block_threads, 0, s>>>(space.list.data(), items, space.view);
    space.clear_listed(stream);
    list_heavy<<<grid_for(items), k_block_threads, 0, s>>>(rows.out, space.list.data(), items,
                                                           space.heavy.data(), space.listed());
    check_launch();
    const auto heavy = read_entry(space.counts);
    for (bool moving = true; moving; ++rounds) {
      space.clear_moved(stream);
      with_group(rows, [&](auto width) {
        constexpr int G = decltype(width)::value;
        propagate<G><<<grid_for(items, G), k_block_threads, 0, s>>>(
            rows.out, space.list.data(), items, space.view, space.moved());
      });
      if (heavy > 0) {
        propagate_heavy<<<static_cast<unsigned>(std::min<unsigned long long>(heavy, 65535)),
                          k_block_threads, 0, s>>>(rows.out, space.heavy.data(), heavy, space.view,
                                                   space.moved());
      }
      check_launch();
      moving = read_entry(space.counts, 2) != 0;
      ::dyng::cuda::throw_if_cancelled_on(stream, "components (strong)");
    }
    space.clear_listed(stream);
    finish_phase<<<grid_for(items), k_block_threads, 0, s>>>(
        space.list.data(), items, space.view, space.next.data(), space.listed(), space.status());
    check_launch();
    items = space.read_listed();
    std::swap(space.list, space.next);
  }
  return rounds;
}

/// The label of the hub's component after the batch (its smallest vertex) and before it.
template <class vid_t>
std::pair<int64_t, int64_t> giant_labels(const hub_trees_t<vid_t>& trees, int64_t hub,
                                         const int64_t* labels, int64_t old_vertices, int64_t n,
                                         void* stream) {
  // The smallest vertex, then the hub's old label beside it: both come back in one copy.
  auto found = room_for<unsigned long long>(2, stream);
  found.fill_bytes(0xff);
  smallest_in_both<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(giant_of(trees), n,
                                                                           found.data());
  check_launch();
  const bool had_hub = hub >= 0 && hub < old_vertices;
  if (had_hub) {
    ::dyng::cuda::copy_on_device(found.data() + 1, labels + hub, sizeof(int64_t), stream);
  }
  const auto [smallest, hub_label] = read_first<2>(found);
  return {static_cast<int64_t>(smallest), had_hub ? static_cast<int64_t>(hub_label) : -1};
}

/// The strong components of the whole graph into labels and sizes, and fresh hub trees; returns
/// the count. The trees decide the hub's component first (two breadth-first searches), so the
/// signature phases, whose rounds grow with a component's diameter, run over the rest only.
template <class vid_t, class eid_t>
int64_t strong_compute(const rows_t<vid_t, eid_t>& rows, int64_t* labels, int64_t* sizes,
                       hub_trees_t<vid_t>& trees, stats_t& stats, void* stream) {
  const int64_t n = rows.num_vertices;
  trees.hub = -1;
  prepare_trees(rows, trees, stream);
  const int64_t hub = trees.hub;
  if (hub >= 0) trees.hub = -1;  // until the labels are written
  const auto giant_label = giant_labels(trees, hub, labels, 0, n, stream).first;
  const stage_scope_t stage("components.signatures");
  signature_space_t<vid_t> space(n, labels, stream);
  trim_and_list<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(
      rows.out, rows.in, giant_of(trees), giant_label, n, space.view, space.list.data(),
      space.listed(), space.status());
  check_launch();
  stats.iterations = run_phases(rows, space, space.read_listed(), stream);
  const int64_t count = sizes_and_count(labels, n, sizes, stream);
  trees.hub = hub;
  return count;
}

/// Marks (with `bit`) and counts the vertices reachable from the `items` listed in `frontier`
/// through `direction`; returns the edges read, stopping once they pass `budget`.
template <class vid_t, class eid_t>
unsigned long long reach(const rows_t<vid_t, eid_t>& rows,
                         const adjacency_view_t<vid_t, eid_t>& direction, giant_view_t<vid_t> giant,
                         device_buffer<vid_t>& frontier, unsigned long long items,
                         device_buffer<vid_t>& next, unsigned* marks, unsigned bit, int64_t budget,
                         void* stream) {
  const stage_scope_t stage("components.reach");
  auto counts = zeros<unsigned long long>(2, stream);  // next items, edges read
  unsigned long long edges = 0;
  while (items > 0 && static_cast<int64_t>(edges) <= budget) {
    counts.fill_bytes(0);
    with_group(rows, [&](auto width) {
      constexpr int G = decltype(width)::value;
      reach_level<G><<<grid_for(items, G), k_block_threads, 0, as_stream(stream)>>>(
          direction, giant, frontier.data(), items, marks, bit, next.data(), counts.data(),
          counts.data() + 1);
    });
    check_launch();
    const auto read = read_first<2>(counts);
    items = read[0];
    edges += read[1];
    std::swap(frontier, next);
  }
  return edges;
}

/// The vertices outside the hub's component on paths from the heads to the tails of the batch's
/// inserted edges between components get marks 3; returns the edges read (past `budget`:
/// stopped early).
template <class vid_t, class eid_t>
unsigned long long mark_closed_paths(const rows_t<vid_t, eid_t>& rows,
                                     const edge_change_t<vid_t>* changes, int64_t num_changes,
                                     const int64_t* labels, giant_view_t<vid_t> giant,
                                     unsigned* marks, int64_t budget, stats_t& stats,
                                     void* stream) {
  const int64_t n = rows.num_vertices;
  auto heads = room_for<vid_t>(n, stream), tails = room_for<vid_t>(n, stream);
  auto next = room_for<vid_t>(n, stream);
  auto ends = zeros<unsigned long long>(2, stream);
  mark_crossing_ends<<<grid_for(num_changes), k_block_threads, 0, as_stream(stream)>>>(
      changes, num_changes, labels, giant, marks, heads.data(), ends.data(), tails.data(),
      ends.data() + 1);
  check_launch();
  const auto [head_count, tail_count] = read_first<2>(ends);
  if (head_count == 0) return 0;
  stats.searches += 2;
  const auto forward =
      reach(rows, rows.out, giant, heads, head_count, next, marks, 1u, budget, stream);
  if (static_cast<int64_t>(forward) > budget) return forward;
  return forward + reach(rows, rows.in, giant, tails, tail_count, next, marks, 2u,
                         budget - static_cast<int64_t>(forward), stream);
}

/// The strong repair of labels, sizes and count (grown to the graph's vertices) and of `trees`
/// for the batch's `changes` (in device memory), within `budget` vertices and edges; false once
/// past it, with nothing written.
template <class vid_t, class eid_t>
bool strong_repair(const rows_t<vid_t, eid_t>& rows, const edge_change_t<vid_t>* changes,
                   int64_t num_changes, int64_t old_vertices, int64_t budget, int64_t* labels,
                   int64_t* sizes, int64_t& count, hub_trees_t<vid_t>& trees, stats_t& stats,
                   void* stream) {
  const int64_t n = rows.num_vertices;
  unsigned long long edges = 0;
  const bool built_before = prepare_trees(rows, trees, stream);
  const int64_t hub = trees.hub;
  if (hub >= 0) trees.hub = -1;  // dropped unless this repair ends with the new labels
  if (built_before && !repair_trees(rows, changes, num_changes, trees, budget, edges, stream)) {
    return false;
  }
  const auto [giant_label, giant_was] = giant_labels(trees, hub, labels, old_vertices, n, stream);
  const auto cut = cut_components(changes, num_changes, labels, n, stream);
  auto marks = zeros<unsigned>(n, stream);
  edges += mark_closed_paths(rows, changes, num_changes, labels, giant_of(trees), marks.data(),
                             budget - static_cast<int64_t>(edges), stats, stream);
  stats.frontier_visits = static_cast<int64_t>(edges);
  if (static_cast<int64_t>(edges) > budget) return false;
  const stage_scope_t stage("components.signatures");
  auto fresh = room_for<int64_t>(n, stream);
  signature_space_t<vid_t> space(n, fresh.data(), stream);
  open_affected<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(
      labels, cut.data(), marks.data(), giant_of(trees), giant_was, giant_label, n, space.view,
      space.list.data(), space.listed(), space.status());
  check_launch();
  const auto reopened = space.read_listed();
  stats.searches += reopened > 0 ? 1 : 0;
  stats.search_size = static_cast<int64_t>(reopened);
  if (static_cast<int64_t>(reopened + edges) > budget) return false;
  stats.iterations = run_phases(rows, space, reopened, stream);
  write_new_labels(fresh_label_t{fresh.data()}, n, old_vertices, labels, sizes, count, stats,
                   stream);
  trees.hub = hub;
  return true;
}

}  // namespace dyng::components::detail::cuda
