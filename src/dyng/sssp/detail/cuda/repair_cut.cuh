// update()'s first kernel: snapshot, cut and seed, in one cooperative launch.
//
// The scheme is the CPU's (incremental_repair.hpp; Ramalingam and Reps, J. Algorithms 1996): a
// deleted or reweighted tree edge (parents[v] == u) cuts v's subtree loose, whose vertices get
// distance infinity; what stays finite is realised by an unchanged tree path, so it is an upper
// bound of the new distance. Seeds are then every vertex that a cut vertex's best in-neighbour
// or an inserted/reweighted edge lowers, and the seeded near-far search (near_far.cuh) repairs
// from them. Phases, separated by grid.sync():
//
// 1. Snapshot: old distances and parents (parents and update's fallback compare against them),
//    stamps and flags reset, and each vertex's pointer word set to its tree parent.
// 2. Changes, one thread each: the head gets k_flag_head (its parent is redone by a full scan);
//    non-deleted changes look up the smallest objective weight of the (u, v) slots that exist
//    now (none: the slot was deleted again in the same batch) and flag weights < 1; tree edges
//    among deleted/reweighted changes mark their head as a cut root. A bad weight ends the
//    kernel here, before anything the caller owns is written. So does a batch predicted to
//    cost more than the budget: a changed edge that lowers its head by more than compute's
//    bucket width (on the old distances) moves a whole region downstream of it, and each such
//    far-reaching lowering is charged a share of the stored edges (gpu-sssp.md, "Update"; a
//    uniform batch on a 2048 x 2048 grid has ~250 of them and changes 97% of the distances).
// 3. Subtrees, only if a root was marked: pointer jumping (Wyllie's list ranking, as in JaJa,
//    "An Introduction to Parallel Algorithms", 1992, ch. 3) over the parent array. A word is
//    k_cut_bit (an ancestor or the vertex is a root) or 1 + the furthest ancestor known so far
//    with every vertex below it uncut, or 0 (the top of the tree reached uncut). Each pass
//    replaces a pointer by the target's own word, halving the distance to the answer, so a tree
//    of depth D needs log2(D) + 1 passes of O(n) each: 13 for a 2048 x 2048 grid, whose trees
//    are ~4600 deep, against 4600 barriers for a walk down the subtrees level by level. Words
//    are updated in place: a 64-bit word is read whole, every value it ever holds satisfies the
//    invariant, and a newer value read early only speeds things up. Passes stop when a pass
//    leaves no vertex unresolved (counts rotate over three slots, as the search's do).
// 4. Cut: distance infinity, k_flag_cut, and the vertex's in-row split into pieces of
//    k_seed_piece_slots for phase 5.
// 5. Seeds: an 8-lane group per piece takes the best dist[u] + w over in-neighbours still finite,
//    and one thread per inserted/reweighted change offers dist[u] + w to v. A lowering
//    (atomicMin) queues v in the search's far pile 0 once (its far stamp claimed with epoch 0).
//
// Data written in one phase and read in a later one is read with __ldcg (L2), as in near_far.cuh:
// an SM's L1 may still hold the line from before the barrier.
#pragma once

#include <cooperative_groups.h>

#include <climits>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/sssp/detail/cuda/device_common.cuh"

namespace dyng::sssp::detail::cuda {

/// Per-vertex flags of update(), one uint32 each (atomicOr needs a word).
enum : unsigned {
  k_flag_head = 1u,     ///< head of a changed edge: parent redone by a full in-row scan
  k_flag_cut = 2u,      ///< in a cut subtree
  k_flag_full = 4u,     ///< parent redone by a full in-row scan (set by classify_kernel)
  k_flag_lowered = 8u,  ///< parent lowered by merge_kernel (counted once)
};

/// repair_control_t::status.
enum : int {
  k_repair_ok = 0,
  k_repair_bad_weight = 1,
  k_repair_bad_tree = 2,
  k_repair_predicted_over_budget = 3,
};

inline constexpr unsigned long long k_cut_bit = 1ull << 63;
inline constexpr long long k_seed_piece_slots = 64;
inline constexpr int k_seed_group = 8;
/// More passes than log2(2^40) + 1 only happen when the parent array has a cycle (bad input).
inline constexpr long long k_max_jump_passes = 48;
inline constexpr long long k_no_edge = LLONG_MAX;

/// Counters of update()'s own kernels (the search keeps its control_t).
struct repair_control_t {
  unsigned long long roots;         ///< tree edges the batch cut
  unsigned long long invalidated;   ///< vertices cut
  unsigned long long cut_in_edges;  ///< in-slots the seeding scans (counted as repair work)
  unsigned long long seed_pieces;
  unsigned long long active[3];     ///< unresolved words per jump pass (rotating)
  long long jump_passes;
  long long bad_change;             ///< smallest index of a change with weight < 1
  unsigned long long far_lowerings; ///< changed edges that lower their head by > far_delta
  int status;
  int overflow;                     ///< a list outgrew its capacity (a sizing bug)
  // Written by repair_parents.cuh.
  unsigned long long full_count;
  unsigned long long merge_pieces;
  unsigned long long affected;
};

/// Both control blocks in one allocation, so one copy brings every counter back.
struct update_control_t {
  control_t search;
  repair_control_t repair;
};

template <class vid_t, class eid_t>
struct repair_params_t {
  adjacency_view_t<vid_t, eid_t> out;
  adjacency_view_t<vid_t, eid_t> in;
  int objective = 0;
  const edge_change_t<vid_t>* changes = nullptr;
  long long num_changes = 0;
  long long* change_weight = nullptr;  ///< per change: smallest weight now, or k_no_edge
  dist_t* dist = nullptr;
  vid_t* parents = nullptr;
  dist_t* old_dist = nullptr;
  vid_t* old_parents = nullptr;
  unsigned* flags = nullptr;
  unsigned long long* words = nullptr;
  unsigned long long* seed_pieces = nullptr;
  unsigned long long seed_piece_capacity = 0;
  int* near_stamp = nullptr;
  int* far_stamp = nullptr;
  item_t* far_queue = nullptr;  ///< the search's far pile 0
  unsigned long long queue_capacity = 0;
  update_control_t* control = nullptr;
  /// A lowering by more than this (compute's bucket width) counts as far-reaching; each is
  /// charged `far_charge` relaxations against `budget` before anything is cut.
  dist_t far_delta = 0;
  unsigned long long far_charge = 0;
  unsigned long long budget = 0;
};

/// Smallest objective weight over the (u, v) slots, scanning the shorter of u's out-row and v's
/// in-row; k_no_edge when there is none.
template <class vid_t, class eid_t>
__device__ long long edge_weight(const repair_params_t<vid_t, eid_t>& p, vid_t u, vid_t v) {
  const long long ob = p.out.row_begin[u];
  const long long oe = p.out.row_end[u];
  const long long ib = p.in.row_begin[v];
  const long long ie = p.in.row_end[v];
  const bool by_out = oe - ob <= ie - ib;
  const adjacency_view_t<vid_t, eid_t>& view = by_out ? p.out : p.in;
  const vid_t target = by_out ? v : u;
  const long long b = by_out ? ob : ib;
  const long long e = by_out ? oe : ie;
  long long best = k_no_edge;
  for (long long s = b; s < e; ++s) {
    if (view.col[s] == target) {
      const long long w = view.weights[s * view.num_weights + p.objective];
      best = w < best ? w : best;
    }
  }
  return best;
}

/// Lowers dist[v] to `value` where `flag` is set and queues v in far pile 0 the first time.
/// Must be reached by all 32 lanes.
template <class vid_t, class eid_t>
__device__ void offer_seed(const repair_params_t<vid_t, eid_t>& p, bool flag, long long v,
                           dist_t value) {
  control_t* control = &p.control->search;
  bool push = false;
  dist_t lowered = k_infinity;
  item_t item = make_ulonglong2(0, 0);
  if (flag && value < atomicMin(p.dist + v, value)) {
    lowered = value;
    const long long b = p.out.row_begin[v];
    const long long e = p.out.row_end[v];
    // A vertex without out-edges needs no relaxing: lowered, never queued.
    push = e > b && atomicExch(p.far_stamp + v, 0) != 0;
    item = make_item(b, e - b, static_cast<unsigned long long>(v));
  }
  warp_append(push, item, p.far_queue, &control->far_count[0], p.queue_capacity,
              &control->status, k_status_overflow);
  lowered = group_min<32>(lowered);
  if ((threadIdx.x & 31u) == 0 && lowered < k_infinity) atomicMin(&control->far_min[0], lowered);
}

template <class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    repair_cut_kernel(const repair_params_t<vid_t, eid_t> p) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const unsigned lane = threadIdx.x & 31u;
  const long long warp = thread / 32;
  const long long num_warps = threads / 32;
  const long long n = p.out.num_vertices;
  repair_control_t* repair = &p.control->repair;

  // (1) Snapshot.
  for (long long v = thread; v < n; v += threads) {
    const dist_t d = p.dist[v];
    const vid_t parent = p.parents[v];
    p.old_dist[v] = d;
    p.old_parents[v] = parent;
    p.near_stamp[v] = -1;
    p.far_stamp[v] = -1;
    p.flags[v] = 0;
    p.words[v] = parent >= 0 && d < k_infinity ? static_cast<unsigned long long>(parent) + 1 : 0;
  }
  if (thread == 0) {
    for (int k = 0; k < 3; ++k) p.control->search.far_min[k] = k_infinity;
    repair->bad_change = LLONG_MAX;
  }
  grid.sync();

  // (2) Changes.
  for (long long i = thread; i < p.num_changes; i += threads) {
    const edge_change_t<vid_t> change = p.changes[i];
    const vid_t u = change.src;
    const vid_t v = change.dst;
    atomicOr(p.flags + v, k_flag_head);
    long long weight = k_no_edge;
    if (change.kind != edge_change_kind_t::deleted) {
      weight = edge_weight(p, u, v);
      if (weight < 1) {
        atomicMin(&repair->bad_change, i);
        atomicExch(&repair->status, k_repair_bad_weight);
      }
    }
    p.change_weight[i] = weight;
    const dist_t dv = p.dist[v];
    if (change.kind != edge_change_kind_t::inserted && p.parents[v] == u && dv < k_infinity) {
      atomicOr(p.words + v, k_cut_bit);
      atomicAdd(&repair->roots, 1ull);
    }
    // Judged on the old distances, which nothing has changed yet (an upper bound for u).
    const dist_t du = p.dist[u];
    if (weight >= 1 && weight != k_no_edge && du < k_infinity && dv < k_infinity &&
        du + static_cast<dist_t>(weight) + p.far_delta < dv) {
      atomicAdd(&repair->far_lowerings, 1ull);
    }
  }
  grid.sync();
  // Both read after the barrier that ends their writes: every thread decides alike.
  if (__ldcg(&repair->status) != k_repair_ok) return;
  if (__ldcg(&repair->far_lowerings) * p.far_charge > p.budget) {
    if (thread == 0) repair->status = k_repair_predicted_over_budget;
    return;
  }

  // (3) Subtrees.
  if (__ldcg(&repair->roots) > 0) {
    for (long long pass = 0;; ++pass) {
      unsigned long long active = 0;
      for (long long v = thread; v < n; v += threads) {
        const unsigned long long word = __ldcg(p.words + v);
        if ((word & k_cut_bit) == 0 && word != 0) {
          const unsigned long long above = __ldcg(p.words + (word - 1));
          const unsigned long long next = (above & k_cut_bit) != 0 ? k_cut_bit : above;
          __stcg(p.words + v, next);
          active += (next & k_cut_bit) == 0 && next != 0 ? 1 : 0;
        }
      }
      active = warp_sum(active);
      if (lane == 0 && active > 0) atomicAdd(&repair->active[pass % 3], active);
      if (thread == 0) repair->active[(pass + 1) % 3] = 0;  // read two passes ago, added to next
      grid.sync();
      if (__ldcg(&repair->active[pass % 3]) == 0) {
        if (thread == 0) repair->jump_passes = pass + 1;
        break;
      }
      if (pass + 1 >= k_max_jump_passes) {
        if (thread == 0) repair->status = k_repair_bad_tree;
        return;
      }
    }

    // (4) Cut.
    unsigned long long invalidated = 0;
    unsigned long long in_edges = 0;
    for (long long first = warp * 32; first < n; first += num_warps * 32) {
      const long long v = first + lane;
      unsigned long long pieces = 0;
      if (v < n && (__ldcg(p.words + v) & k_cut_bit) != 0) {
        p.dist[v] = k_infinity;
        p.flags[v] = __ldcg(p.flags + v) | k_flag_cut;
        const long long degree = p.in.row_end[v] - p.in.row_begin[v];
        pieces = static_cast<unsigned long long>((degree + k_seed_piece_slots - 1) /
                                                 k_seed_piece_slots);
        ++invalidated;
        in_edges += static_cast<unsigned long long>(degree);
      }
      const unsigned long long base = warp_reserve(pieces, &repair->seed_pieces);
      for (unsigned long long k = 0; k < pieces; ++k) {
        if (base + k < p.seed_piece_capacity) {
          p.seed_pieces[base + k] = static_cast<unsigned long long>(v) | (k << k_vertex_bits);
        } else {
          atomicExch(&repair->overflow, 1);
        }
      }
    }
    invalidated = warp_sum(invalidated);
    in_edges = warp_sum(in_edges);
    if (lane == 0 && invalidated > 0) {
      atomicAdd(&repair->invalidated, invalidated);
      atomicAdd(&repair->cut_in_edges, in_edges);
    }
    grid.sync();
  }

  // (5) Seeds: cut vertices' best in-neighbours, then the changed edges' offers.
  constexpr int G = k_seed_group;
  constexpr long long groups_per_warp = 32 / G;
  const unsigned glane = lane % G;
  const long long pieces = static_cast<long long>(
      min_of(__ldcg(&repair->seed_pieces), p.seed_piece_capacity));
  const int32_t* in_weights = p.in.weights + p.objective;
  const long long stride = p.in.num_weights;
  for (long long first = warp * groups_per_warp; first < pieces;
       first += num_warps * groups_per_warp) {
    const long long index = first + lane / G;
    long long v = 0;
    dist_t best = k_infinity;
    if (index < pieces) {
      const unsigned long long entry = __ldcg(p.seed_pieces + index);
      v = static_cast<long long>(entry & k_vertex_mask);
      const long long b = p.in.row_begin[v] +
                          static_cast<long long>(entry >> k_vertex_bits) * k_seed_piece_slots;
      const long long row_end = p.in.row_end[v];
      const long long e = b + k_seed_piece_slots < row_end ? b + k_seed_piece_slots : row_end;
      for (long long s = b + glane; s < e; s += G) {
        const dist_t du = __ldcg(p.dist + p.in.col[s]);
        if (du < k_infinity) {
          const long long w = in_weights[s * stride];
          best = min_of(best, du + static_cast<dist_t>(w));
        }
      }
    }
    best = group_min<G>(best);
    offer_seed(p, index < pieces && glane == 0 && best < k_infinity, v, best);
  }
  for (long long first = warp * 32; first < p.num_changes; first += num_warps * 32) {
    const long long i = first + lane;
    bool flag = false;
    long long v = 0;
    dist_t value = k_infinity;
    const long long weight = i < p.num_changes ? __ldcg(p.change_weight + i) : k_no_edge;
    if (weight != k_no_edge) {
      const edge_change_t<vid_t> change = p.changes[i];
      const dist_t du = __ldcg(p.dist + change.src);
      if (du < k_infinity) {
        flag = true;
        v = static_cast<long long>(change.dst);
        value = du + static_cast<dist_t>(weight);
      }
    }
    offer_seed(p, flag, v, value);
  }
}

}  // namespace dyng::sssp::detail::cuda
