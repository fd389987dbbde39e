// The GPU kernels of dynamic_bfs: the frontier search that compute() and the repair share, and the
// repair's invalidation rounds (the scheme of level_repair.hpp, on the device).
//
// Levels are int64 with -1 for unreached, read as unsigned so that -1 is the largest value and
// atomicMin lowers it. Both loops are persistent cooperative kernels (one launch, grid.sync()
// between rounds) because their rounds are many and short: a 2048 x 2048 grid needs ~4000.
// Work lists are deduplicated by claiming a per-vertex stamp (the round) with atomicExch, so a
// list never holds a vertex twice and n entries always suffice. Counters rotate over three slots,
// as in sssp's near_far.cuh: round r reads slot r % 3, fills slot (r + 1) % 3 and clears slot
// (r + 2) % 3, which nobody reads any more, so every thread sees the same totals after a barrier
// and all of them leave the loop in the same round (the budget check included).
//
// 1. frontier_kernel: each round, groups of G lanes take the frontier's vertices and offer
//    level + 1 to their out-neighbours; a lowered neighbour joins the next frontier. Seeds may
//    sit at different levels (the repair), so a vertex can be lowered twice; the fixed point is
//    the BFS levels either way. Stops when a frontier is empty, or past `budget` scanned edges.
// 2. invalidate_kernel: round r decides, for every candidate v, whether an in-neighbour one
//    level up is still alive (reading the dead flags as they were at the round's start), then
//    marks the unsupported ones dead and makes their out-neighbours one level down the next
//    round's candidates.
// 3. Small grid-stride kernels around them: the first candidates from the deleted changes, the
//    reseeding of dead vertices and inserted edges, and the count of changed levels.
#pragma once

#include <cooperative_groups.h>

#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::dynamic_bfs::detail::cuda {

using level_t = unsigned long long;  // int64 levels as unsigned: -1 is "unreached", the largest
using ::dyng::cuda::k_block_threads;
using ::dyng::cuda::k_full_mask;

inline constexpr level_t k_unreached_level = ~0ull;
enum : int { k_ok = 0, k_over_budget = 1, k_overflow = 2 };

/// Device counters of one loop; one allocation, copied back whole.
struct loop_control_t {
  unsigned long long count[3];  ///< list sizes, rotating
  unsigned long long work[3];   ///< edges scanned per round, rotating
  unsigned long long falling[2];
  unsigned long long dead;
  unsigned long long seed_work;  ///< in-edges the reseeding scanned
  unsigned long long total_work;
  long long rounds;
  int status;
};

template <class vid_t, class eid_t>
struct loop_params_t {
  adjacency_view_t<vid_t, eid_t> out;
  adjacency_view_t<vid_t, eid_t> in;
  level_t* levels = nullptr;
  int* stamp = nullptr;  ///< n entries, -1 before the first round
  vid_t* list[2] = {nullptr, nullptr};
  vid_t* falling = nullptr;         ///< invalidation only: this round's dying vertices
  vid_t* dead = nullptr;            ///< invalidation only: every vertex that died
  unsigned* dead_flag = nullptr;    ///< invalidation only
  unsigned long long capacity = 0;  ///< entries of each list (n)
  unsigned long long budget = 0;
  loop_control_t* control = nullptr;
};

/// Edges scanned by this thread so far, added to the round's slot once per round per warp.
__device__ __forceinline__ void flush_work(unsigned long long work, unsigned long long* slot) {
  const unsigned long long total = ::dyng::cuda::warp_sum(work);
  if ((threadIdx.x & 31u) == 0 && total > 0) atomicAdd(slot, total);
}

/// Appends v to list `to` once per round (stamp `round`); the whole warp must call it.
template <class vid_t, class eid_t>
__device__ __forceinline__ void push_once(bool want, vid_t v, int round,
                                          const loop_params_t<vid_t, eid_t>& p, vid_t* to,
                                          unsigned long long* count) {
  const bool claim = want && atomicExch(p.stamp + v, round) != round;
  ::dyng::cuda::warp_append(claim, v, to, count, p.capacity, &p.control->status, k_overflow);
}

/// Loop head shared by both kernels: this round's list size and the budget check, identical
/// in every thread. Returns false when the loop ends (empty list or over budget).
__device__ __forceinline__ bool next_round(loop_control_t* c, long long r,
                                           unsigned long long& spent, unsigned long long budget,
                                           unsigned long long& size) {
  if (r > 0) spent += __ldcg(&c->work[(r - 1) % 3]);
  size = __ldcg(&c->count[r % 3]);
  if (spent > budget) {
    if (blockIdx.x == 0 && threadIdx.x == 0) c->status = k_over_budget;
    return false;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    c->count[(r + 2) % 3] = 0;
    c->work[(r + 1) % 3] = 0;
  }
  return size > 0;
}

template <int G, class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads) frontier_kernel(loop_params_t<vid_t, eid_t> p) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  loop_control_t* c = p.control;
  const int sub = static_cast<int>(threadIdx.x) & (G - 1);
  const long long warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int slot_in_warp = static_cast<int>((threadIdx.x & 31u) / G);
  unsigned long long spent = 0, size = 0;
  long long r = 0;
  for (; next_round(c, r, spent, p.budget, size); ++r) {
    const vid_t* in_list = p.list[r & 1];
    vid_t* out_list = p.list[(r + 1) & 1];
    unsigned long long* out_count = &c->count[(r + 1) % 3];
    unsigned long long work = 0;
    for (long long base = warp * (32 / G); base < static_cast<long long>(size);
         base += warps * (32 / G)) {
      const long long item = base + slot_in_warp;
      const bool valid = item < static_cast<long long>(size);
      vid_t u = 0;
      long long b = 0, e = 0;
      level_t next = 0;
      if (valid) {
        u = __ldcg(in_list + item);
        b = p.out.row_begin[u];
        e = p.out.row_end[u];
        next = __ldcg(p.levels + u) + 1;
        if (sub == 0) work += static_cast<unsigned long long>(e - b);
      }
      for (long long off = 0; __any_sync(k_full_mask, valid && b + off < e); off += G) {
        const bool has = valid && b + off + sub < e;
        vid_t v = 0;
        bool lowered = false;
        if (has) {
          v = p.out.col[b + off + sub];
          lowered = atomicMin(p.levels + v, next) > next;
        }
        push_once(lowered, v, static_cast<int>(r + 1), p, out_list, out_count);
      }
    }
    flush_work(work, &c->work[r % 3]);
    grid.sync();
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    c->rounds = r;
    c->total_work = spent;
  }
}

template <int G, class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    invalidate_kernel(loop_params_t<vid_t, eid_t> p) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  loop_control_t* c = p.control;
  const int sub = static_cast<int>(threadIdx.x) & (G - 1);
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const unsigned group_mask = (G == 32 ? k_full_mask : ((1u << G) - 1u)) << (lane & ~(G - 1));
  const long long warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int slot_in_warp = lane / G;
  unsigned long long spent = 0, size = 0;
  long long r = 0;
  for (; next_round(c, r, spent, p.budget, size); ++r) {
    const vid_t* candidates = p.list[r & 1];
    unsigned long long work = 0;
    // Decide: a candidate survives if an in-neighbour one level up is alive.
    for (long long base = warp * (32 / G); base < static_cast<long long>(size);
         base += warps * (32 / G)) {
      const long long item = base + slot_in_warp;
      const bool valid = item < static_cast<long long>(size);
      vid_t v = 0;
      long long b = 0, e = 0;
      level_t want = 0;
      bool supported = true;
      if (valid) {
        v = __ldcg(candidates + item);
        supported = __ldcg(p.dead_flag + v) != 0;  // died earlier: nothing to decide
        b = p.in.row_begin[v];
        e = p.in.row_end[v];
        want = __ldcg(p.levels + v) - 1;
        if (sub == 0) work += static_cast<unsigned long long>(e - b);
      }
      for (long long off = 0; __any_sync(k_full_mask, valid && !supported && b + off < e);
           off += G) {
        bool found = false;
        if (valid && !supported && b + off + sub < e) {
          const vid_t w = p.in.col[b + off + sub];
          found = __ldcg(p.levels + w) == want && __ldcg(p.dead_flag + w) == 0;
        }
        supported |= (__ballot_sync(k_full_mask, found) & group_mask) != 0;
      }
      ::dyng::cuda::warp_append(valid && !supported && sub == 0, v, p.falling, &c->falling[r & 1],
                                p.capacity, &c->status, k_overflow);
    }
    grid.sync();
    // Apply: the fallen die; their out-neighbours one level down are the next candidates.
    const unsigned long long falling = __ldcg(&c->falling[r & 1]);
    if (blockIdx.x == 0 && threadIdx.x == 0) c->falling[(r + 1) & 1] = 0;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < static_cast<long long>(falling); i += static_cast<long long>(gridDim.x) * blockDim.x) {
      const vid_t v = __ldcg(p.falling + i);
      p.dead_flag[v] = 1;
      p.dead[atomicAdd(&c->dead, 1ull)] = v;
    }
    grid.sync();
    vid_t* next = p.list[(r + 1) & 1];
    for (long long base = warp * (32 / G); base < static_cast<long long>(falling);
         base += warps * (32 / G)) {
      const long long item = base + slot_in_warp;
      const bool valid = item < static_cast<long long>(falling);
      vid_t v = 0;
      long long b = 0, e = 0;
      level_t below = 0;
      if (valid) {
        v = __ldcg(p.falling + item);
        b = p.out.row_begin[v];
        e = p.out.row_end[v];
        below = __ldcg(p.levels + v) + 1;
        if (sub == 0) work += static_cast<unsigned long long>(e - b);
      }
      for (long long off = 0; __any_sync(k_full_mask, valid && b + off < e); off += G) {
        vid_t y = 0;
        bool candidate = false;
        if (valid && b + off + sub < e) {
          y = p.out.col[b + off + sub];
          candidate = __ldcg(p.levels + y) == below && __ldcg(p.dead_flag + y) == 0;
        }
        push_once(candidate, y, static_cast<int>(r + 1), p, next, &c->count[(r + 1) % 3]);
      }
    }
    flush_work(work, &c->work[r % 3]);
    grid.sync();
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    c->rounds = r;
    c->total_work = spent;
  }
}

/// The first candidates: heads of deleted edges (u, v) with level[u] + 1 == level[v].
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    first_candidates_kernel(loop_params_t<vid_t, eid_t> p, const edge_change_t<vid_t>* changes,
                            long long num_changes, vid_t source) {
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i - static_cast<long long>(threadIdx.x & 31u) < num_changes;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    bool want = false;
    vid_t v = 0;
    if (i < num_changes && changes[i].kind == edge_change_kind_t::deleted) {
      v = changes[i].dst;
      const level_t lv = p.levels[v], lu = p.levels[changes[i].src];
      want = v != source && lv != k_unreached_level && lu != k_unreached_level && lu + 1 == lv;
    }
    push_once(want, v, 0, p, p.list[0], &p.control->count[0]);
  }
}

/// Dead vertices lose their level (after the rounds, which read the old levels).
template <class vid_t>
__global__ void __launch_bounds__(k_block_threads)
    clear_dead_kernel(level_t* levels, const vid_t* dead, unsigned long long count) {
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < static_cast<long long>(count); i += static_cast<long long>(gridDim.x) * blockDim.x) {
    levels[dead[i]] = k_unreached_level;
  }
}

/// Seeds of the search: each dead vertex takes its best live in-neighbour's level + 1, each
/// inserted edge (u, v) offers level[u] + 1 to v; every lowered vertex joins frontier 0.
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    reseed_kernel(loop_params_t<vid_t, eid_t> p, const vid_t* dead, unsigned long long num_dead,
                  const edge_change_t<vid_t>* changes, long long num_changes) {
  const long long total = static_cast<long long>(num_dead) + num_changes;
  unsigned long long work = 0;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i - static_cast<long long>(threadIdx.x & 31u) < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    vid_t v = 0;
    level_t offer = k_unreached_level;
    if (i < static_cast<long long>(num_dead)) {
      v = dead[i];
      for (long long s = p.in.row_begin[v]; s < p.in.row_end[v]; ++s) {
        const level_t lw = p.levels[p.in.col[s]];
        if (lw != k_unreached_level && lw + 1 < offer) offer = lw + 1;
      }
      work += static_cast<unsigned long long>(p.in.row_end[v] - p.in.row_begin[v]);
    } else if (i < total) {
      const edge_change_t<vid_t>& change = changes[i - static_cast<long long>(num_dead)];
      if (change.kind == edge_change_kind_t::inserted) {
        v = change.dst;
        const level_t lu = p.levels[change.src];
        if (lu != k_unreached_level) offer = lu + 1;
      }
    }
    const bool lowered = offer != k_unreached_level && atomicMin(p.levels + v, offer) > offer;
    push_once(lowered, v, 0, p, p.list[0], &p.control->count[0]);
  }
  flush_work(work, &p.control->seed_work);
}

/// Vertices whose level differs from the snapshot (update's `affected`), or without one from
/// "unreached" (a compute's `affected`: the reached vertices).
__global__ void __launch_bounds__(k_block_threads)
    count_changed_kernel(long long n, const level_t* levels, const level_t* old,
                         unsigned long long* changed) {
  unsigned long long count = 0;
  for (long long v = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    count += levels[v] != (old != nullptr ? old[v] : k_unreached_level) ? 1 : 0;
  }
  count = ::dyng::cuda::warp_sum(count);
  if ((threadIdx.x & 31u) == 0 && count > 0) atomicAdd(changed, count);
}

}  // namespace dyng::dynamic_bfs::detail::cuda
