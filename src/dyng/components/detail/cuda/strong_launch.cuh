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

/// The signature search's arrays and vertex lists for n vertices; `labels` is the caller's.
template <class vid_t>
struct signature_space_t {
  device_buffer<vid_t> first, second, group_first, group_second, list, next, heavy;
  device_buffer<unsigned long long> listed;
  device_buffer<int> moved, status;
  signatures_t<vid_t> view;

  signature_space_t(int64_t n, int64_t* labels, void* stream)
      : first(room_for<vid_t>(n, stream)),
        second(room_for<vid_t>(n, stream)),
        group_first(room_for<vid_t>(n, stream)),
        group_second(room_for<vid_t>(n, stream)),
        list(room_for<vid_t>(n, stream)),
        next(room_for<vid_t>(n, stream)),
        heavy(room_for<vid_t>(n, stream)),
        listed(zeros<unsigned long long>(1, stream)),
        moved(zeros<int>(1, stream)),
        status(zeros<int>(1, stream)),
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
    space.listed.fill_bytes(0);
    list_heavy<<<grid_for(items), k_block_threads, 0, s>>>(rows.out, space.list.data(), items,
                                                           space.heavy.data(), space.listed.data());
    check_launch();
    const auto heavy = read_entry(space.listed);
    for (bool moving = true; moving; ++rounds) {
      space.moved.fill_bytes(0);
      with_group(rows, [&](auto width) {
        constexpr int G = decltype(width)::value;
        propagate<G><<<grid_for(items, G), k_block_threads, 0, s>>>(
            rows.out, space.list.data(), items, space.view, space.moved.data());
      });
      if (heavy > 0) {
        propagate_heavy<<<static_cast<unsigned>(std::min<unsigned long long>(heavy, 65535)),
                          k_block_threads, 0, s>>>(rows.out, space.heavy.data(), heavy, space.view,
                                                   space.moved.data());
      }
      check_launch();
      moving = read_entry(space.moved) != 0;
      ::dyng::cuda::throw_if_cancelled_on(stream, "components (strong)");
    }
    space.listed.fill_bytes(0);
    finish_phase<<<grid_for(items), k_block_threads, 0, s>>>(space.list.data(), items, space.view,
                                                             space.next.data(), space.listed.data(),
                                                             space.status.data());
    check_launch();
    check_lists(space.status);
    items = read_entry(space.listed);
    std::swap(space.list, space.next);
  }
  return rounds;
}

/// The label of the hub's component after the batch (its smallest vertex) and before it.
template <class vid_t>
std::pair<int64_t, int64_t> giant_labels(const hub_trees_t<vid_t>& trees, int64_t hub,
                                         const int64_t* labels, int64_t old_vertices, int64_t n,
                                         void* stream) {
  auto smallest = room_for<unsigned long long>(1, stream);
  smallest.fill_bytes(0xff);
  smallest_in_both<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(giant_of(trees), n,
                                                                           smallest.data());
  check_launch();
  const auto label = static_cast<int64_t>(read_entry(smallest));
  int64_t was = -1;
  if (hub >= 0 && hub < old_vertices) {
    ::dyng::cuda::copy_to_host(&was, labels + hub, sizeof(was), stream);
    ::dyng::cuda::synchronize(stream);
  }
  return {label, was};
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
      space.listed.data(), space.status.data());
  check_launch();
  check_lists(space.status);
  stats.iterations = run_phases(rows, space, read_entry(space.listed), stream);
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
      space.list.data(), space.listed.data(), space.status.data());
  check_launch();
  check_lists(space.status);
  const auto reopened = read_entry(space.listed);
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
