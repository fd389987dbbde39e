// The hub trees of the strong update, host side (kernels: hub_tree_kernels.cuh). The hub is the
// vertex of largest total degree; its component is the giant one on the graphs where a deletion
// inside a component would otherwise reopen millions of vertices. The vertices in both trees are
// exactly that component, so after a batch the trees answer, for the cost of what the batch
// moved, which of its vertices stay in it:
//   1. a deleted tree edge cuts the subtree below it (one walk up the parents per vertex);
//   2. each cut vertex claims a neighbour still in the tree, and each inserted edge from a tree
//      vertex claims its other end;
//   3. the claimed vertices join, and the tree grows from them level by level.
// What remains outside after 3 is outside on the new graph: a vertex the hub reaches has a path
// from it whose first vertex outside the kept tree follows a kept vertex, over an edge that is
// either old (then it was cut, and 2 finds it) or new (2 again). Claims take the smallest
// (depth, parent) key, so the trees do not depend on the order of the GPU's work.
// Included by strong_launch.cuh only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <utility>

#include "dyng/components/components_cuda.hpp"
#include "dyng/components/detail/cuda/hub_tree_kernels.cuh"
#include "dyng/components/detail/cuda/launch_common.cuh"
#include "dyng/core/stage_scope.hpp"

namespace dyng::components::detail::cuda {

using ::dyng::components::cuda::hub_trees_t;

/// hub_trees_t::hub when this result's graph gave trees too deep to keep: the strong repairs do
/// without them until the next compute tries again.
inline constexpr int64_t k_trees_declined = -2;

template <class vid_t>
tree_view_t<vid_t> forward_view(hub_trees_t<vid_t>& trees) {
  return {trees.forward_parent.data(), trees.forward_depth.data()};
}

template <class vid_t>
tree_view_t<vid_t> backward_view(hub_trees_t<vid_t>& trees) {
  return {trees.backward_parent.data(), trees.backward_depth.data()};
}

/// Whether a vertex is in the hub's component, for the kernels.
template <class vid_t>
giant_view_t<vid_t> giant_of(const hub_trees_t<vid_t>& trees) {
  return {trees.forward_parent.data(), trees.backward_parent.data()};
}

/// The rows a tree grows along and those it claims parents from.
template <class vid_t, class eid_t>
struct tree_rows_t {
  adjacency_view_t<vid_t, eid_t> expand;
  adjacency_view_t<vid_t, eid_t> against;
  bool reversed;  ///< The tree runs against the edges (what reaches the hub).
};

/// Scratch of the tree work for n vertices: claims, a vertex list and the next one, and the
/// counters in one block, so that one copy brings all of them back: the claims listed (two
/// entries, as the levels alternate between them), edges read, heavy rows listed, the frontier
/// settled, and a status word (a list overflowed, or the tree got too deep) that stays set until
/// the repair ends.
template <class vid_t>
struct tree_space_t {
  static constexpr size_t k_counters = 6;
  device_buffer<unsigned long long> keys;
  device_buffer<vid_t> list, next, heavy;
  device_buffer<unsigned long long> counts;

  tree_space_t(int64_t n, void* stream)
      : keys(room_for<unsigned long long>(n, stream)),
        list(room_for<vid_t>(n, stream)),
        next(room_for<vid_t>(n, stream)),
        heavy(room_for<vid_t>(n, stream)),
        counts(zeros<unsigned long long>(k_counters, stream)) {}

  unsigned long long* listed(int which = 0) { return counts.data() + which; }
  unsigned long long* edges_read() { return counts.data() + 2; }
  unsigned long long* heavy_listed() { return counts.data() + 3; }
  unsigned long long* frontier() { return counts.data() + 4; }
  int* status() { return reinterpret_cast<int*>(counts.data() + 5); }
  /// Zeroes `count` counters from `first` on.
  void clear(unsigned long long* first, size_t count, void* stream) {
    ::dyng::cuda::fill_bytes(first, 0, count * sizeof(unsigned long long), stream);
  }
  /// Zeroes every counter but the status word.
  void clear_counts(void* stream) { clear(counts.data(), k_counters - 1, stream); }
  /// All counters, after the work before them: [0] and [1] listed, [2] edges read, [5] status.
  std::array<unsigned long long, k_counters> read() const { return read_first<k_counters>(counts); }
};

/// Levels one growth may take: each costs launches, and a read-back every k_levels_per_wait, so a
/// graph of long paths (a road network) is better left to the signature phases, whose halving
/// step takes a path in logarithmically many rounds.
inline constexpr int k_max_tree_levels = 256;

/// Levels queued between two reads of the counters. A level whose list is empty costs its
/// launches only (its kernels find a zero count and return), a read-back costs a wait for the
/// device and a copy: the trees of the graphs kept (shallow ones) regrow in a few levels.
inline constexpr int k_levels_per_wait = 4;

/// claim_heavy()'s grid: slices of one row at once, rows at once.
inline constexpr unsigned k_heavy_slices = 32;
inline constexpr unsigned k_heavy_rows_at_once = 64;

/// Grows `tree` from the `items` claims listed in space.list (keys set; the count also in
/// *space.listed(0)): settles them, then claims level by level. Returns the edges read, stopping
/// once past `budget` (or past any budget after k_max_tree_levels levels, or when the tree got
/// too deep for its keys).
template <class vid_t, class eid_t>
unsigned long long grow_tree(const rows_t<vid_t, eid_t>& rows, const tree_rows_t<vid_t, eid_t>& dir,
                             tree_view_t<vid_t> tree, tree_space_t<vid_t>& space,
                             unsigned long long items, int64_t budget, void* stream) {
  const auto s = as_stream(stream);
  // Every kernel of a level reads its counts on the device, so k_levels_per_wait levels are
  // queued back to back on grids for the most a level can hold (every vertex), and the host
  // waits once for them: the level's claims alternate between the two listed counters.
  const auto n = static_cast<unsigned long long>(rows.num_vertices);
  unsigned long long edges = 0, status = 0;
  space.clear(space.edges_read(), 1, stream);
  int level = 0, which = 0;
  while (items > 0 && static_cast<int64_t>(edges) <= budget) {
    if (level >= k_max_tree_levels) return ~0ull >> 1;
    for (int queued = 0; queued < k_levels_per_wait && level < k_max_tree_levels;
         ++queued, ++level, which = 1 - which) {
      space.clear(space.heavy_listed(), 2, stream);  // heavy rows and the frontier
      space.clear(space.listed(1 - which), 1, stream);
      settle_claims<<<grid_for(n), k_block_threads, 0, s>>>(
          space.list.data(), space.listed(which), space.keys.data(), tree, space.next.data(),
          space.frontier(), space.status());
      with_group(rows, [&](auto width) {
        constexpr int G = decltype(width)::value;
        claim_level<G><<<grid_for(n, G), k_block_threads, 0, s>>>(
            dir.expand, space.next.data(), space.frontier(), tree, space.keys.data(),
            space.list.data(), space.listed(1 - which), space.edges_read(), space.heavy.data(),
            space.heavy_listed());
      });
      claim_heavy<<<dim3(k_heavy_slices, k_heavy_rows_at_once), k_block_threads, 0, s>>>(
          dir.expand, space.heavy.data(), space.heavy_listed(), tree, space.keys.data(),
          space.list.data(), space.listed(1 - which), space.edges_read());
    }
    check_launch();
    const auto counts = space.read();
    items = counts[which];
    edges = counts[2];
    status = counts[5];
  }
  if (status != 0) edges = ~0ull >> 1;  // too deep, or a list overflowed: past any budget
  return edges;
}

/// A fresh tree of `hub` over the whole graph in `dir`; false when it came out too deep to keep.
template <class vid_t, class eid_t>
bool build_tree(const rows_t<vid_t, eid_t>& rows, const tree_rows_t<vid_t, eid_t>& dir, int64_t hub,
                tree_view_t<vid_t> tree, tree_space_t<vid_t>& space, void* stream) {
  const int64_t n = rows.num_vertices;
  ::dyng::cuda::fill_values(tree.parent, static_cast<vid_t>(-1), static_cast<size_t>(n), stream);
  space.keys.fill_bytes(0xff);
  const unsigned long long root_key = static_cast<unsigned long long>(hub);  // depth 0
  ::dyng::cuda::copy_to_device(space.keys.data() + hub, &root_key, sizeof(root_key), stream);
  const auto root = static_cast<vid_t>(hub);
  ::dyng::cuda::copy_to_device(space.list.data(), &root, sizeof(root), stream);
  space.clear_counts(stream);
  const unsigned long long one = 1;
  ::dyng::cuda::copy_to_device(space.listed(0), &one, sizeof(one), stream);
  ::dyng::cuda::synchronize(stream);
  const auto unbounded = std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(grow_tree(rows, dir, tree, space, 1, unbounded, stream)) < unbounded;
}

/// The vertex of largest total degree, the smallest such.
template <class vid_t, class eid_t>
int64_t pick_hub(const rows_t<vid_t, eid_t>& rows, void* stream) {
  const int64_t n = rows.num_vertices;
  auto found = zeros<unsigned long long>(2, stream);
  largest_degree<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(rows.out, rows.in, n,
                                                                         found.data());
  check_launch();
  const auto degree = read_entry(found);
  const unsigned long long none = ~0ull;
  ::dyng::cuda::copy_to_device(found.data() + 1, &none, sizeof(none), stream);
  first_of_degree<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(rows.out, rows.in, n,
                                                                          degree, found.data() + 1);
  check_launch();
  return static_cast<int64_t>(read_entry(found, 1));
}

/// Brings `tree` (for the graph before the batch) to the graph after it. Returns the edges and
/// vertices read, past `budget` when it stopped early (the tree is then unusable).
template <class vid_t, class eid_t>
unsigned long long repair_tree(const rows_t<vid_t, eid_t>& rows,
                               const tree_rows_t<vid_t, eid_t>& dir,
                               const edge_change_t<vid_t>* changes, int64_t num_changes,
                               tree_view_t<vid_t> tree, tree_space_t<vid_t>& space, int64_t budget,
                               void* stream) {
  const int64_t n = rows.num_vertices;
  const auto s = as_stream(stream);
  // Launched back to back, with one wait at the end: whether a tree edge was lost and how many
  // vertices were cut are read by the kernels on the device, and those that find nothing to do
  // return at once.
  auto lost = zeros<unsigned char>(n, stream), cut = zeros<unsigned char>(n, stream);
  auto any_lost = zeros<int>(1, stream);
  flag_lost_edges<<<grid_for(num_changes), k_block_threads, 0, s>>>(
      changes, num_changes, dir.reversed, tree.parent, lost.data(), any_lost.data());
  space.clear_counts(stream);
  mark_cut_subtrees<<<grid_for(n), k_block_threads, 0, s>>>(lost.data(), tree, n, k_max_tree_levels,
                                                            any_lost.data(), cut.data());
  take_out_cut<<<grid_for(n), k_block_threads, 0, s>>>(cut.data(), n, any_lost.data(), tree.parent,
                                                       space.list.data(), space.listed(),
                                                       space.status());
  space.keys.fill_bytes(0xff);
  with_group(rows, [&](auto width) {
    constexpr int G = decltype(width)::value;
    claim_from_kept<G>
        <<<grid_for(n, G), k_block_threads, 0, s>>>(dir.against, space.list.data(), space.listed(),
                                                    tree, space.keys.data(), space.edges_read());
  });
  claim_from_insertions<<<grid_for(num_changes), k_block_threads, 0, s>>>(
      changes, num_changes, dir.reversed, tree, cut.data(), space.keys.data(), space.list.data(),
      space.listed());
  check_launch();
  const auto counts = space.read();
  if (counts[5] != 0) return ~0ull >> 1;  // a list overflowed: past any budget
  const unsigned long long items = counts[0], claimed = counts[2] + items;
  if (items == 0 || static_cast<int64_t>(claimed) > budget) return claimed;
  return claimed +
         grow_tree(rows, dir, tree, space, items, budget - static_cast<int64_t>(claimed), stream);
}

/// Makes `trees` fit the graph's vertices (new ones outside both trees), building them when
/// there are none. Returns false when they were built now (they already describe the new graph)
/// or there are none to repair (no vertices, or declined).
template <class vid_t, class eid_t>
bool prepare_trees(const rows_t<vid_t, eid_t>& rows, hub_trees_t<vid_t>& trees, void* stream) {
  const int64_t n = rows.num_vertices;
  const auto room = static_cast<size_t>(std::max<int64_t>(1, n));
  const tree_rows_t<vid_t, eid_t> forward{rows.out, rows.in, false};
  const tree_rows_t<vid_t, eid_t> backward{rows.in, rows.out, true};
  if (n == 0) {  // no hub: nothing is in its component
    trees = hub_trees_t<vid_t>{};
    return false;
  }
  if (trees.hub == k_trees_declined) return false;
  if (trees.hub < 0 || trees.forward_parent.size() == 0) {
    const stage_scope_t stage("components.hub_trees");
    trees.forward_parent = device_buffer<vid_t>(room);
    trees.backward_parent = device_buffer<vid_t>(room);
    trees.forward_depth = device_buffer<int32_t>(room);
    trees.backward_depth = device_buffer<int32_t>(room);
    const int64_t hub = pick_hub(rows, stream);
    tree_space_t<vid_t> space(n, stream);
    if (build_tree(rows, forward, hub, forward_view(trees), space, stream) &&
        build_tree(rows, backward, hub, backward_view(trees), space, stream)) {
      trees.hub = hub;
    } else {
      trees = hub_trees_t<vid_t>{};  // a path-like graph: the phases decide everything
      trees.hub = k_trees_declined;
    }
    return false;
  }
  const auto old = static_cast<int64_t>(trees.forward_parent.size());
  if (old < n) {
    for (auto* parent : {&trees.forward_parent, &trees.backward_parent}) {
      device_buffer<vid_t> grown(room);
      ::dyng::cuda::copy_on_device(grown.data(), parent->data(),
                                   static_cast<size_t>(old) * sizeof(vid_t), stream);
      ::dyng::cuda::fill_values(grown.data() + old, static_cast<vid_t>(-1),
                                static_cast<size_t>(n - old), stream);
      *parent = std::move(grown);
    }
    for (auto* depth : {&trees.forward_depth, &trees.backward_depth}) {
      device_buffer<int32_t> grown(room);
      ::dyng::cuda::copy_on_device(grown.data(), depth->data(),
                                   static_cast<size_t>(old) * sizeof(int32_t), stream);
      *depth = std::move(grown);
    }
  }
  return true;
}

/// Repairs both trees for the batch; false once past `budget` edges read (the trees are then
/// unusable: the caller drops them).
template <class vid_t, class eid_t>
bool repair_trees(const rows_t<vid_t, eid_t>& rows, const edge_change_t<vid_t>* changes,
                  int64_t num_changes, hub_trees_t<vid_t>& trees, int64_t budget,
                  unsigned long long& edges, void* stream) {
  const stage_scope_t stage("components.hub_trees");
  const tree_rows_t<vid_t, eid_t> forward{rows.out, rows.in, false};
  const tree_rows_t<vid_t, eid_t> backward{rows.in, rows.out, true};
  tree_space_t<vid_t> space(rows.num_vertices, stream);
  edges +=
      repair_tree(rows, forward, changes, num_changes, forward_view(trees), space, budget, stream);
  if (static_cast<int64_t>(edges) <= budget) {
    edges += repair_tree(rows, backward, changes, num_changes, backward_view(trees), space,
                         budget - static_cast<int64_t>(edges), stream);
  }
  return static_cast<int64_t>(edges) <= budget;
}

}  // namespace dyng::components::detail::cuda
