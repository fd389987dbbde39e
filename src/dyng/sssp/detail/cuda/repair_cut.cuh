// update()'s first kernel: cut and seed, in one cooperative launch.
//
// The scheme is the CPU's (incremental_repair.hpp; Ramalingam and Reps, J. Algorithms 1996): a
// deleted or reweighted tree edge (parents[v] == u) cuts v's subtree loose, whose vertices get
// distance infinity; what stays finite is realised by an unchanged tree path, so it is an upper
// bound of the new distance. Seeds are then every vertex that a cut vertex's best in-neighbour
// or an inserted/reweighted edge lowers, and the seeded near-far search (near_far.cuh) repairs
// from them.
//
// Nothing here is O(n) unless the cut subtrees are deep: the flags and stamps come in clean and
// the mirror of the old state (repair_memory_t) is already there, so the kernel reads and writes
// only the changes, the cut vertices and their rows. Every vertex it flags or lowers is listed
// (touched.cuh) for the clean-up at the end of the update. Phases, separated by grid.sync():
//
// 1. Changes, one thread each: the head gets k_flag_head (its parent is redone by a full scan);
//    non-deleted changes look up the smallest objective weight of the (u, v) slots that exist
//    now (none: the slot was deleted again in the same batch) and flag weights < 1; tree edges
//    among deleted/reweighted changes make their head a cut root (k_flag_cut, listed in `cut`).
//    A bad weight ends the kernel here, before anything the caller owns is written. So does a
//    batch predicted to cost more than the budget: a changed edge that lowers its head by more
//    than compute's bucket width (on the old distances) moves a whole region downstream of it,
//    and each such far-reaching lowering is charged a share of the stored edges (gpu-sssp.md,
//    "Update"; a uniform batch on a 2048 x 2048 grid has ~250 of them and changes 97% of the
//    distances).
// 2. Subtrees, top down: level by level, the out-rows of the last level's cut vertices are cut
//    into pieces of k_tree_piece_slots (listed, then scanned by groups after a barrier), and an
//    out-neighbour whose tree parent is the row's vertex joins the cut. Two barriers a level;
//    R-MAT subtrees are a few levels deep. A subtree deeper than k_top_down_levels (a grid's
//    trees are ~4600 deep) switches to pointer jumping over the whole parent array (Wyllie's list
//    ranking, as in JaJa, "An Introduction to Parallel Algorithms", 1992, ch. 3): a word is
//    k_cut_bit (the vertex is cut, or an ancestor is), 1 + the furthest ancestor known so far
//    with every vertex below it uncut, or 0 (the top of the tree reached uncut). Each pass
//    replaces a pointer by the target's own word, so a tree of depth D needs log2(D) + 1 passes
//    of O(n): 13 for the grid, against 4600 levels. Words are updated in place: a 64-bit word is
//    read whole, every value it ever holds satisfies the invariant, and a newer value read early
//    only speeds things up. Passes stop when a pass leaves no word unresolved (counts rotate
//    over three slots, as the search's do); the vertices found cut are then flagged and listed.
// 3. Cut: distance infinity, and each cut vertex's in-row split into pieces of
//    k_seed_piece_slots for phase 4. Those in-slots are the repair's first work: past the budget
//    the kernel gives up here, else the search counts on from them.
// 4. Seeds: an 8-lane group per piece takes the best dist[u] + w over in-neighbours still finite,
//    and one thread per inserted/reweighted change offers dist[u] + w to v. A lowering
//    (atomicMin) lists v and queues it in the search's far pile 0 once (its far stamp claimed
//    with epoch 0).
//
// Data written in one phase and read in a later one is read with __ldcg (L2), as in near_far.cuh:
// an SM's L1 may still hold the line from before the barrier.
#pragma once

#include <cooperative_groups.h>

#include <climits>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/sssp/detail/cuda/device_common.cuh"
#include "dyng/sssp/detail/cuda/touched.cuh"

namespace dyng::sssp::detail::cuda {

/// repair_control_t::status.
enum : int {
  k_repair_ok = 0,
  k_repair_bad_weight = 1,
  k_repair_bad_tree = 2,
  k_repair_predicted_over_budget = 3,
  k_repair_cut_over_budget = 4,  ///< seeding the cut alone would scan more in-slots than allowed
};

inline constexpr unsigned long long k_cut_bit = 1ull << 63;
inline constexpr long long k_seed_piece_slots = 64;
inline constexpr long long k_tree_piece_slots = 64;
inline constexpr int k_seed_group = 8;
/// Levels walked top down before the cut switches to pointer jumping: each level costs two grid
/// barriers, and a pointer-jumping pass over a few million vertices about as much as ten levels.
inline constexpr int k_top_down_levels = 24;
/// More passes than log2(2^40) + 1 only happen when the parent array has a cycle (bad input).
inline constexpr long long k_max_jump_passes = 48;
inline constexpr long long k_no_edge = LLONG_MAX;

/// Counters of update()'s own kernels (the search keeps its control_t). Zero-filled before
/// each update.
struct repair_control_t {
  unsigned long long invalidated;   ///< vertices cut
  unsigned long long cut_in_edges;  ///< in-slots the seeding scans (counted as repair work)
  unsigned long long seed_pieces;
  unsigned long long tree_pieces[2];  ///< out-row pieces of a top-down level (alternating)
  unsigned long long active[3];       ///< unresolved words per jump pass (rotating)
  long long top_down_levels;
  long long jump_passes;             ///< 0 unless the cut switched to pointer jumping
  unsigned long long bad_change;     ///< ~(smallest index of a change with weight < 1), or 0
  unsigned long long far_lowerings;  ///< changed edges that lower their head by > far_delta
  int status;
  int overflow;                      ///< a list outgrew its capacity (a sizing bug)
  unsigned long long cut_count;      ///< entries of the cut list
  unsigned long long touched_count;  ///< entries of the touched list (touched.cuh)
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
  const vid_t* parents = nullptr;
  touched_list_t<vid_t> touched{};  ///< flags (clean on entry) and the touched list
  vid_t* cut = nullptr;             ///< the cut vertices, n entries
  unsigned long long* tree_pieces = nullptr;
  unsigned long long tree_piece_capacity = 0;
  unsigned long long* words = nullptr;  ///< n entries, used only when the cut switches to jumping
  unsigned long long* seed_pieces = nullptr;
  unsigned long long seed_piece_capacity = 0;
  int* far_stamp = nullptr;     ///< -1 on entry except for listed vertices
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

/// Flags v cut (and lists it as touched); the first to do so appends it to the cut list.
template <class vid_t, class eid_t>
__device__ void cut_vertex(const repair_params_t<vid_t, eid_t>& p, long long v) {
  repair_control_t* repair = &p.control->repair;
  const unsigned before = mark_touched(p.touched, v, k_flag_cut, &repair->overflow, 1);
  if ((before & k_flag_cut) != 0) return;
  const unsigned long long at = atomicAdd(&repair->cut_count, 1ull);
  if (at < p.touched.capacity) {
    p.cut[at] = static_cast<vid_t>(v);
  } else {
    atomicExch(&repair->overflow, 1);
  }
}

/// Lowers dist[v] to `value` where `flag` is set, lists v, and queues it in far pile 0 the first
/// time. Must be reached by all 32 lanes.
template <class vid_t, class eid_t>
__device__ void offer_seed(const repair_params_t<vid_t, eid_t>& p, bool flag, long long v,
                           dist_t value) {
  control_t* control = &p.control->search;
  bool push = false;
  dist_t lowered = k_infinity;
  item_t item = make_ulonglong2(0, 0);
  if (flag && value < atomicMin(p.dist + v, value)) {
    lowered = value;
    mark_touched(p.touched, v, 0u, &p.control->repair.overflow, 1);
    const long long b = p.out.row_begin[v];
    const long long e = p.out.row_end[v];
    // A vertex without out-edges needs no relaxing: lowered, never queued.
    push = e > b && atomicExch(p.far_stamp + v, 0) != 0;
    item = make_item(b, e - b, static_cast<unsigned long long>(v));
  }
  warp_append(push, item, p.far_queue, &control->far_count[0], p.queue_capacity, &control->status,
              k_status_overflow);
  lowered = group_min<32>(lowered);
  if ((threadIdx.x & 31u) == 0 && lowered < k_infinity) atomicMin(&control->far_min[0], lowered);
}

/// Phase 2, top down: cuts the tree children of the cut vertices level by level, starting from
/// the roots in cut[0, roots). Returns false when the subtrees are deeper than
/// k_top_down_levels (the caller finishes the cut by pointer jumping). Every thread returns the
/// same value.
template <class vid_t, class eid_t>
__device__ bool cut_top_down(const repair_params_t<vid_t, eid_t>& p,
                             cooperative_groups::grid_group& grid, unsigned long long roots) {
  constexpr int G = k_seed_group;
  constexpr long long groups_per_warp = 32 / G;
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned glane = lane % G;
  const long long warp = thread / 32;
  const long long num_warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
  repair_control_t* repair = &p.control->repair;
  unsigned long long lo = 0;
  unsigned long long hi = roots;
  int level = 0;
  for (; lo < hi; ++level) {
    if (level == k_top_down_levels) return false;
    // The frontier's out-rows, in pieces.
    unsigned long long* piece_count = &repair->tree_pieces[level & 1];
    for (unsigned long long first = lo + static_cast<unsigned long long>(warp) * 32; first < hi;
         first += static_cast<unsigned long long>(num_warps) * 32) {
      const unsigned long long i = first + lane;
      long long v = 0;
      long long degree = 0;
      if (i < hi) {
        v = static_cast<long long>(__ldcg(p.cut + i));
        degree = p.out.row_end[v] - p.out.row_begin[v];
      }
      append_row_pieces(v, degree, k_tree_piece_slots, p.tree_pieces, piece_count,
                        p.tree_piece_capacity, &repair->overflow);
    }
    // Read two levels ago (a barrier since); this level's pieces go to the other slot.
    if (thread == 0) repair->tree_pieces[(level + 1) & 1] = 0;
    grid.sync();
    // Their tree children join the cut (and the next level's frontier).
    const long long pieces =
        static_cast<long long>(min_of(__ldcg(piece_count), p.tree_piece_capacity));
    for (long long first = warp * groups_per_warp; first < pieces;
         first += num_warps * groups_per_warp) {
      const long long index = first + lane / G;
      if (index >= pieces) continue;
      const unsigned long long entry = __ldcg(p.tree_pieces + index);
      const vid_t x = static_cast<vid_t>(entry & k_vertex_mask);
      const long long b =
          p.out.row_begin[x] + static_cast<long long>(entry >> k_vertex_bits) * k_tree_piece_slots;
      const long long row_end = p.out.row_end[x];
      const long long e = b + k_tree_piece_slots < row_end ? b + k_tree_piece_slots : row_end;
      for (long long s = b + glane; s < e; s += G) {
        const vid_t y = p.out.col[s];
        // dist is the old one until phase 3: a finite distance means a valid parent.
        if (p.parents[y] == x && p.dist[y] < k_infinity) cut_vertex(p, y);
      }
    }
    grid.sync();
    lo = hi;
    hi = min_of(__ldcg(&repair->cut_count), p.touched.capacity);
  }
  if (thread == 0) repair->top_down_levels = level;
  return true;
}

/// Phase 2 past k_top_down_levels: pointer jumping over every vertex (see the file comment),
/// then the vertices found cut are flagged and listed. Returns false for a cycle in the parents.
template <class vid_t, class eid_t>
__device__ bool cut_by_jumping(const repair_params_t<vid_t, eid_t>& p,
                               cooperative_groups::grid_group& grid) {
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const unsigned lane = threadIdx.x & 31u;
  const long long n = p.out.num_vertices;
  repair_control_t* repair = &p.control->repair;
  for (long long v = thread; v < n; v += threads) {
    const vid_t parent = p.parents[v];
    p.words[v] = (__ldcg(p.touched.flags + v) & k_flag_cut) != 0 ? k_cut_bit
                 : parent >= 0 && p.dist[v] < k_infinity
                     ? static_cast<unsigned long long>(parent) + 1
                     : 0;
  }
  grid.sync();
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
    if (pass + 1 >= k_max_jump_passes) return false;
  }
  for (long long v = thread; v < n; v += threads) {
    if ((__ldcg(p.words + v) & k_cut_bit) != 0 && (__ldcg(p.touched.flags + v) & k_flag_cut) == 0) {
      cut_vertex(p, v);
    }
  }
  grid.sync();
  return true;
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
  repair_control_t* repair = &p.control->repair;

  // (1) Changes. The search's far minima start at infinity (read from phase 4 on).
  if (thread == 0) {
    for (int k = 0; k < 3; ++k) p.control->search.far_min[k] = k_infinity;
  }
  for (long long i = thread; i < p.num_changes; i += threads) {
    const edge_change_t<vid_t> change = p.changes[i];
    const vid_t u = change.src;
    const vid_t v = change.dst;
    mark_touched(p.touched, v, k_flag_head, &repair->overflow, 1);
    long long weight = k_no_edge;
    if (change.kind != edge_change_kind_t::deleted) {
      weight = edge_weight(p, u, v);
      if (weight < 1) {
        atomicMax(&repair->bad_change, ~static_cast<unsigned long long>(i));
        atomicExch(&repair->status, k_repair_bad_weight);
      }
    }
    p.change_weight[i] = weight;
    const dist_t dv = p.dist[v];
    if (change.kind != edge_change_kind_t::inserted && p.parents[v] == u && dv < k_infinity) {
      cut_vertex(p, v);
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

  // (2) Subtrees.
  const unsigned long long roots = min_of(__ldcg(&repair->cut_count), p.touched.capacity);
  if (roots > 0) {
    if (!cut_top_down(p, grid, roots)) {
      if (thread == 0) repair->top_down_levels = k_top_down_levels;
      if (!cut_by_jumping(p, grid)) {
        if (thread == 0) repair->status = k_repair_bad_tree;
        return;
      }
    }

    // (3) Cut.
    const unsigned long long cut = min_of(__ldcg(&repair->cut_count), p.touched.capacity);
    unsigned long long in_edges = 0;
    for (unsigned long long first = static_cast<unsigned long long>(warp) * 32; first < cut;
         first += static_cast<unsigned long long>(num_warps) * 32) {
      const unsigned long long i = first + lane;
      long long v = 0;
      long long degree = 0;
      if (i < cut) {
        v = static_cast<long long>(__ldcg(p.cut + i));
        p.dist[v] = k_infinity;
        degree = p.in.row_end[v] - p.in.row_begin[v];
        in_edges += static_cast<unsigned long long>(degree);
      }
      append_row_pieces(v, degree, k_seed_piece_slots, p.seed_pieces, &repair->seed_pieces,
                        p.seed_piece_capacity, &repair->overflow);
    }
    in_edges = warp_sum(in_edges);
    if (lane == 0 && in_edges > 0) atomicAdd(&repair->cut_in_edges, in_edges);
    if (thread == 0) repair->invalidated = cut;
    grid.sync();
  }
  // Seeding scans the cut's in-rows: that is the repair's first work, and past the budget it
  // gives up here. The search counts on from it.
  const unsigned long long cut_work = __ldcg(&repair->cut_in_edges);
  if (cut_work > p.budget) {
    if (thread == 0) repair->status = k_repair_cut_over_budget;
    return;
  }
  if (thread == 0) p.control->search.work = cut_work;

  // (4) Seeds: cut vertices' best in-neighbours, then the changed edges' offers.
  constexpr int G = k_seed_group;
  constexpr long long groups_per_warp = 32 / G;
  const unsigned glane = lane % G;
  const long long pieces =
      static_cast<long long>(min_of(__ldcg(&repair->seed_pieces), p.seed_piece_capacity));
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
      const long long b =
          p.in.row_begin[v] + static_cast<long long>(entry >> k_vertex_bits) * k_seed_piece_slots;
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
