// The GPU kernels of cycle_count: many path counts (detail/cycle_paths.hpp) at once, one search
// slot per root (compute) or per changed edge (update), with the same two savings as the host
// counter: c2[x] counts the last two edges of every path at once, and a reverse breadth-first
// search from the target keeps paths out of vertices that cannot close within the bound.
//
// A slot owns n-entry arrays in device memory (dist, c2, the breadth-first queue). The paths are
// then walked in levels: expand_kernel takes a list of paths of d edges, gives each a warp that
// reads the last vertex's row lane-parallel, counts the cycles of d + 3 edges that close through
// each child (c2 minus the closers already on the path) and lists the children that go deeper;
// once a list holds enough paths to keep the GPU busy, descend_kernel gives each path a lane
// group (4 or 32 lanes, by mean degree) that finishes its subtree depth-first with the path in
// shared memory, taking paths from a shared counter as it goes (the dynamic balance of Blanusa,
// Atasu and Ienne's work queue). Counts go to a block histogram, then to the device histogram
// with a carry check: a count past 2^64 - 1 sets `overflow` instead of wrapping.
// Included by cycle_count_cuda.cu (through search_launch.cuh) only.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/warp_primitives.cuh"

namespace dyng::cycle_count::detail::cuda {

namespace cg = cooperative_groups;
using ::dyng::cuda::k_full_mask;

inline constexpr uint32_t k_far = 0xffffffffu;
/// Lengths the device histogram holds: bound + 1 <= 65 (cycle_count_cuda.hpp's k_max_bound).
inline constexpr int k_hist_entries = 66;

/// An edge (x, y) as one sortable key: rows by x, then y.
__host__ __device__ inline unsigned long long edge_key(int32_t x, int32_t y) {
  return (static_cast<unsigned long long>(static_cast<uint32_t>(x)) << 32) |
         static_cast<uint32_t>(y);
}

/// The first index in keys[0, count) whose key is >= `key`.
__device__ inline long long lower_bound(const unsigned long long* keys, long long count,
                                        unsigned long long key) {
  long long lo = 0, hi = count;
  while (lo < hi) {
    const long long mid = (lo + hi) / 2;
    if (keys[mid] < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

__device__ inline bool contains(const unsigned long long* keys, long long count,
                                unsigned long long key) {
  const long long at = lower_bound(keys, count, key);
  return at < count && keys[at] == key;
}

/// One direction's neighbours of a vertex as one list: its stored row, then its extra edges of
/// the overlay.
template <class eid_t>
struct neighbours_t {
  eid_t row = 0;            ///< first slot of the row
  long long row_count = 0;  ///< slots in the row
  long long extra = 0;      ///< first index of the vertex's extra edges
  long long count = 0;      ///< row_count + extra edges
};

/// The graph a search reads: sorted out-rows, in-rows in any order, and for the graph before a
/// batch an overlay (the batch's insertions hidden, its deletions extra; keys sorted, extra_in
/// keyed by (dst, src)). Self-loops never show.
template <class eid_t>
struct search_graph_t {
  int32_t n = 0;
  const eid_t* out_begin = nullptr;
  const eid_t* out_end = nullptr;
  const int32_t* out_col = nullptr;
  const eid_t* in_begin = nullptr;
  const eid_t* in_end = nullptr;
  const int32_t* in_col = nullptr;
  const unsigned long long* hidden = nullptr;
  long long hidden_count = 0;
  const unsigned long long* extra_out = nullptr;
  const unsigned long long* extra_in = nullptr;
  long long extra_count = 0;

  // `before`: whether the overlay applies (the searches of an update's deleted edges).
  __device__ bool is_hidden(bool before, int32_t x, int32_t y) const {
    return before && hidden_count > 0 && contains(hidden, hidden_count, edge_key(x, y));
  }

  __device__ neighbours_t<eid_t> list(bool before, const eid_t* begin, const eid_t* end,
                                      const unsigned long long* extra_keys, int32_t x) const {
    neighbours_t<eid_t> l;
    l.row = begin[x];
    l.row_count = static_cast<long long>(end[x] - l.row);
    l.count = l.row_count;
    if (before && extra_count > 0) {
      l.extra = lower_bound(extra_keys, extra_count, edge_key(x, 0));
      const long long last =
          x + 1 < n ? lower_bound(extra_keys, extra_count, edge_key(x + 1, 0)) : extra_count;
      l.count += last - l.extra;
    }
    return l;
  }
  __device__ neighbours_t<eid_t> out_list(bool before, int32_t x) const {
    return list(before, out_begin, out_end, extra_out, x);
  }
  __device__ neighbours_t<eid_t> in_list(bool before, int32_t x) const {
    return list(before, in_begin, in_end, extra_in, x);
  }

  /// Entry k of x's out-list: the neighbour, or -1 for a self-loop or a hidden edge.
  __device__ int32_t out_at(bool before, int32_t x, const neighbours_t<eid_t>& l,
                            long long k) const {
    if (k >= l.row_count) return static_cast<int32_t>(extra_out[l.extra + k - l.row_count]);
    const int32_t y = out_col[l.row + k];
    return y == x || is_hidden(before, x, y) ? -1 : y;
  }
  /// Entry k of x's in-list: the in-neighbour, or -1.
  __device__ int32_t in_at(bool before, int32_t x, const neighbours_t<eid_t>& l,
                           long long k) const {
    if (k >= l.row_count) return static_cast<int32_t>(extra_in[l.extra + k - l.row_count]);
    const int32_t w = in_col[l.row + k];
    return w == x || is_hidden(before, w, x) ? -1 : w;
  }

  /// Whether (x, y) is an edge: a binary search of x's sorted row, then the extra edges.
  __device__ bool has_edge(bool before, int32_t x, int32_t y) const {
    if (x == y) return false;
    eid_t lo = out_begin[x], hi = out_end[x];
    while (lo < hi) {
      const eid_t mid = lo + (hi - lo) / 2;
      if (out_col[mid] < y) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < out_end[x] && out_col[lo] == y) return !is_hidden(before, x, y);
    return before && extra_count > 0 && contains(extra_out, extra_count, edge_key(x, y));
  }
};

/// What the searches of one launch share. Slot i searches root first + i (compute: simple paths
/// root -> root through larger vertices) or changed edge j = first + i, (u, v) = edges[j]
/// (update: paths v -> u that avoid u and v themselves and the edges of j's own list before it).
/// An update's edges are its deleted ones (the first `deleted` entries, searched on the graph
/// before the batch: the overlay applies, and counts go to histogram 0) and then its inserted
/// ones (on the graph after it, into histogram 1).
template <class eid_t>
struct search_params_t {
  search_graph_t<eid_t> g;
  bool through = false;
  long long first = 0;
  const unsigned long long* edges = nullptr;
  long long deleted = 0;
  int max_edges = 0;  ///< longest path counted
  int offset = 0;     ///< histogram index = path edges + offset (1 for an update's closing edge)
  uint32_t* dist = nullptr;     ///< n per slot: edges to the target, k_far beyond max_edges - 1
  uint32_t* c2 = nullptr;       ///< n per slot: paths x -> closer -> target
  int32_t* queue = nullptr;     ///< n per slot: the vertices dist reached, level by level
  uint32_t* reached = nullptr;  ///< 2 per slot: queue length, closers (the first level)
  unsigned long long* hist = nullptr;  ///< 2 x k_hist_entries (compute: the first only)
  int* overflow = nullptr;
  unsigned long long* work = nullptr;  ///< path vertices plus list entries read
  unsigned long long work_limit = 0;   ///< searches stop once work passes it
  int* gave_up = nullptr;

  __device__ int32_t source(long long slot) const {
    return through ? static_cast<int32_t>(edges[first + slot] & 0xffffffffu)
                   : static_cast<int32_t>(first + slot);
  }
  __device__ int32_t target(long long slot) const {
    return through ? static_cast<int32_t>(edges[first + slot] >> 32)
                   : static_cast<int32_t>(first + slot);
  }
  __device__ bool inner(int32_t s, int32_t t, int32_t w) const {
    return through ? w != s && w != t : w > s;
  }
  __device__ bool before(long long slot) const { return through && first + slot < deleted; }
  __device__ bool edge_ok(long long slot, int32_t x, int32_t y) const {
    if (!through) return true;
    const long long base = first + slot < deleted ? 0 : deleted;
    return !contains(edges + base, first + slot - base, edge_key(x, y));
  }
  __device__ unsigned long long* hist_of(long long slot) const {
    return hist + (before(slot) || !through ? 0 : k_hist_entries);
  }
  __device__ size_t at(long long slot) const {
    return static_cast<size_t>(slot) * static_cast<size_t>(g.n);
  }
};

/// hist[length] += value with the carry check.
__device__ inline void add_checked(unsigned long long* hist, int length, unsigned long long value,
                                   int* overflow) {
  if (value == 0) return;
  const unsigned long long old = atomicAdd(hist + length, value);
  if (old + value < old) atomicExch(overflow, 1);
}

/// Per slot (one block each): dist by a reverse breadth-first search from the target through
/// allowed vertices, c2 from the closers' in-lists, and the slot's shortest paths (the closing
/// edge itself, and the paths of two edges).
template <class eid_t>
__global__ void prepare_kernel(search_params_t<eid_t> p, long long slots) {
  __shared__ unsigned long long length;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = threadIdx.x / 32u, warps = blockDim.x / 32u;
  for (long long slot = blockIdx.x; slot < slots; slot += gridDim.x) {
    const int32_t s = p.source(slot), t = p.target(slot);
    const bool before = p.before(slot);
    uint32_t* dist = p.dist + p.at(slot);
    uint32_t* c2 = p.c2 + p.at(slot);
    int32_t* queue = p.queue + p.at(slot);
    if (threadIdx.x == 0) length = 0;
    __syncthreads();
    long long start = 0, end = 0, first_level = 0;
    for (int level = 1; level <= p.max_edges - 1; ++level) {
      // Level 1 reads the target's in-list; the others, the previous level's.
      const long long items = level == 1 ? 1 : end - start;
      for (long long i = warp; i < items; i += warps) {
        const int32_t z = level == 1 ? t : queue[start + i];
        const auto in = p.g.in_list(before, z);
        for (long long base = 0; base < in.count; base += 32) {
          const long long k = base + lane;
          const int32_t w = k < in.count ? p.g.in_at(before, z, in, k) : -1;
          bool claim = w >= 0 && p.inner(s, t, w) && p.edge_ok(slot, w, z);
          if (claim) claim = atomicCAS(dist + w, k_far, static_cast<uint32_t>(level)) == k_far;
          ::dyng::cuda::warp_append(claim, w, queue, &length,
                                    static_cast<unsigned long long>(p.g.n), p.overflow, 2);
        }
      }
      __syncthreads();
      start = end;
      end = static_cast<long long>(length);
      if (level == 1) first_level = end;  // the closers: the target's allowed in-neighbours
      __syncthreads();
      if (start == end) break;
    }
    // c2[x] counts the edges x -> closer.
    for (long long i = warp; i < first_level; i += warps) {
      const int32_t w = queue[i];
      const auto in = p.g.in_list(before, w);
      for (long long k = lane; k < in.count; k += 32) {
        const int32_t x = p.g.in_at(before, w, in, k);
        if (x >= 0 && p.edge_ok(slot, x, w)) atomicAdd(c2 + x, 1u);
      }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      p.reached[2 * slot] = static_cast<uint32_t>(end);
      p.reached[2 * slot + 1] = static_cast<uint32_t>(first_level);
      if (p.through && p.edge_ok(slot, s, t) && p.g.has_edge(before, s, t)) {
        add_checked(p.hist_of(slot), 1 + p.offset, 1, p.overflow);
      }
      if (p.max_edges >= 2) add_checked(p.hist_of(slot), 2 + p.offset, c2[s], p.overflow);
      atomicAdd(p.work, static_cast<unsigned long long>(end + 1));
    }
    __syncthreads();
  }
}

/// prepare_kernel's arguments when few slots share the GPU (an update's changed edges): per slot,
/// the queue length and the current level's queue range, and the running sum of the ranges'
/// lengths over the slots (slots + 1 entries), all in device memory, zeroed by the host.
template <class eid_t>
struct prepare_few_params_t {
  search_params_t<eid_t> p;
  long long slots = 0;
  unsigned long long* length = nullptr;  ///< per slot
  long long* frontier = nullptr;         ///< 2 per slot: the current level's queue range
  long long* offsets = nullptr;          ///< slots + 1: where each slot's range starts overall
};

/// The slot whose range holds overall item `i`: offsets[slot] <= i < offsets[slot + 1].
__device__ inline long long slot_of(const long long* offsets, long long slots, long long i) {
  long long lo = 0, hi = slots;
  while (hi - lo > 1) {
    const long long mid = (lo + hi) / 2;
    if (offsets[mid] <= i) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/// One thread: offsets[] over the slots' current ranges (frontier, or the closers when
/// `closers`); few slots, so a serial sum between two grid barriers is cheaper than a scan.
template <class eid_t>
__device__ inline void sum_ranges(const prepare_few_params_t<eid_t>& a, bool closers) {
  long long total = 0;
  for (long long slot = 0; slot < a.slots; ++slot) {
    a.offsets[slot] = total;
    total += closers ? static_cast<long long>(a.p.reached[2 * slot + 1])
                     : a.frontier[2 * slot + 1] - a.frontier[2 * slot];
  }
  a.offsets[a.slots] = total;
}

/// prepare_kernel's work for a few slots: every slot's level at once over the whole grid (a warp
/// per frontier vertex of any slot), the levels kept apart by grid-wide barriers (a cooperative
/// launch), so that an update of ten edges does not leave all but ten multiprocessors idle
/// through its breadth-first searches.
template <class eid_t>
__global__ void prepare_few_kernel(prepare_few_params_t<eid_t> a) {
  const auto& p = a.p;
  auto grid = cg::this_grid();
  const unsigned lane = threadIdx.x & 31u;
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long warp = thread / 32, warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
  const auto n = static_cast<unsigned long long>(p.g.n);
  for (int level = 1; level <= p.max_edges - 1; ++level) {
    // Level 1: a warp per slot on its target's in-list; later levels: a warp per vertex of the
    // previous level, whichever slot it belongs to.
    const long long items = level == 1 ? a.slots : a.offsets[a.slots];
    for (long long i = warp; i < items; i += warps) {
      const long long slot = level == 1 ? i : slot_of(a.offsets, a.slots, i);
      const int32_t s = p.source(slot), t = p.target(slot);
      const bool before = p.before(slot);
      uint32_t* dist = p.dist + p.at(slot);
      int32_t* queue = p.queue + p.at(slot);
      const int32_t z = level == 1 ? t : queue[a.frontier[2 * slot] + i - a.offsets[slot]];
      const auto in = p.g.in_list(before, z);
      for (long long base = 0; base < in.count; base += 32) {
        const long long k = base + lane;
        const int32_t w = k < in.count ? p.g.in_at(before, z, in, k) : -1;
        bool claim = w >= 0 && p.inner(s, t, w) && p.edge_ok(slot, w, z);
        if (claim) claim = atomicCAS(dist + w, k_far, static_cast<uint32_t>(level)) == k_far;
        ::dyng::cuda::warp_append(claim, w, queue, a.length + slot, n, p.overflow, 2);
      }
    }
    grid.sync();
    if (thread < a.slots) {
      a.frontier[2 * thread] = a.frontier[2 * thread + 1];
      a.frontier[2 * thread + 1] = static_cast<long long>(a.length[thread]);
      if (level == 1) p.reached[2 * thread + 1] = static_cast<uint32_t>(a.length[thread]);
    }
    grid.sync();
    if (thread == 0) sum_ranges(a, false);
    grid.sync();
  }
  // c2[x] counts the edges x -> closer: a warp per closer of any slot.
  if (thread == 0) sum_ranges(a, true);
  grid.sync();
  for (long long i = warp; i < a.offsets[a.slots]; i += warps) {
    const long long slot = slot_of(a.offsets, a.slots, i);
    const bool before = p.before(slot);
    uint32_t* c2 = p.c2 + p.at(slot);
    const int32_t w = p.queue[p.at(slot) + static_cast<size_t>(i - a.offsets[slot])];
    const auto in = p.g.in_list(before, w);
    for (long long k = lane; k < in.count; k += 32) {
      const int32_t x = p.g.in_at(before, w, in, k);
      if (x >= 0 && p.edge_ok(slot, x, w)) atomicAdd(c2 + x, 1u);
    }
  }
  grid.sync();
  if (thread < a.slots) {
    const long long slot = thread;
    const int32_t s = p.source(slot), t = p.target(slot);
    const bool before = p.before(slot);
    const uint32_t* c2 = p.c2 + p.at(slot);
    p.reached[2 * slot] = static_cast<uint32_t>(a.length[slot]);
    if (p.through && p.edge_ok(slot, s, t) && p.g.has_edge(before, s, t)) {
      add_checked(p.hist_of(slot), 1 + p.offset, 1, p.overflow);
    }
    if (p.max_edges >= 2) add_checked(p.hist_of(slot), 2 + p.offset, c2[s], p.overflow);
    atomicAdd(p.work, a.length[slot] + 1);
  }
}

/// Clears what prepare_kernel wrote for each slot, so the next wave's slots start clean.
template <class eid_t>
__global__ void reset_kernel(search_params_t<eid_t> p, long long slots) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = threadIdx.x / 32u, warps = blockDim.x / 32u;
  for (long long slot = blockIdx.x; slot < slots; slot += gridDim.x) {
    const bool before = p.before(slot);
    uint32_t* dist = p.dist + p.at(slot);
    uint32_t* c2 = p.c2 + p.at(slot);
    const int32_t* queue = p.queue + p.at(slot);
    const long long reached = p.reached[2 * slot], closers = p.reached[2 * slot + 1];
    for (long long i = warp; i < closers; i += warps) {
      const int32_t w = queue[i];
      const auto in = p.g.in_list(before, w);
      for (long long k = lane; k < in.count; k += 32) {
        const int32_t x = p.g.in_at(before, w, in, k);
        if (x >= 0) c2[x] = 0;
      }
    }
    for (long long i = threadIdx.x; i < reached; i += blockDim.x) dist[queue[i]] = k_far;
    __syncthreads();
  }
}

/// For child y of the path path[0..d] (path[0] the slot's source, x = path[d]): whether it may
/// extend the path (simple, allowed, within reach of the target), and if so the cycles of
/// d + 3 edges (+ offset) that close through it, added into `count`.
template <class eid_t>
__device__ inline bool accept_child(const search_params_t<eid_t>& p, long long slot, int32_t s,
                                    int32_t t, const int32_t* path, int d, int32_t y,
                                    const uint32_t* dist, const uint32_t* c2,
                                    unsigned long long& count) {
  if (y < 0 || !p.inner(s, t, y)) return false;
  const bool before = p.before(slot);
  if (dist[y] > static_cast<uint32_t>(p.max_edges - d - 1)) return false;
  for (int j = 1; j <= d; ++j) {
    if (path[j] == y) return false;
  }
  const int32_t x = path[d];
  if (!p.edge_ok(slot, x, y)) return false;
  long long paths = c2[y];
  if (paths > 0) {
    // c2 counted every closer; those on the path (not the source) close no simple cycle.
    for (int j = 1; j <= d; ++j) {
      const int32_t q = path[j];
      if (dist[q] == 1 && p.edge_ok(slot, y, q) && p.g.has_edge(before, y, q)) --paths;
    }
    count += static_cast<unsigned long long>(paths);
  }
  return true;
}

/// One warp per path of `list` (entries of d + 1 ints: the slot, then path[1..d]; for d = 0 the
/// paths are the slots themselves): counts through every child, lists the children with room for
/// deeper paths in `next` (entries of d + 2 ints) and the sum of their out-list lengths.
template <class eid_t>
__global__ void expand_kernel(search_params_t<eid_t> p, const int32_t* list, long long count, int d,
                              int32_t* next, unsigned long long* next_count,
                              unsigned long long* next_reads, unsigned long long capacity) {
  const unsigned lane = threadIdx.x & 31u;
  const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32u);
  const bool deeper = d + 4 <= p.max_edges;
  int32_t path[64];
  for (long long item = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32u;
       item < count; item += warps) {
    if (__shfl_sync(k_full_mask, lane == 0 ? *static_cast<volatile int*>(p.gave_up) : 0, 0)) {
      return;
    }
    const long long slot = d == 0 ? item : list[item * (d + 1)];
    const int32_t s = p.source(slot), t = p.target(slot);
    const bool before = p.before(slot);
    path[0] = s;
    for (int j = 1; j <= d; ++j) path[j] = list[item * (d + 1) + j];
    const int32_t x = path[d];
    const uint32_t* dist = p.dist + p.at(slot);
    const uint32_t* c2 = p.c2 + p.at(slot);
    const auto out = p.g.out_list(before, x);
    unsigned long long cycles = 0, reads = 0;
    for (long long base = 0; base < out.count; base += 32) {
      const long long k = base + lane;
      const int32_t y = k < out.count ? p.g.out_at(before, x, out, k) : -1;
      const bool extend = accept_child(p, slot, s, t, path, d, y, dist, c2, cycles) && deeper;
      if (extend) reads += static_cast<unsigned long long>(p.g.out_list(before, y).count);
      const unsigned voters = __ballot_sync(k_full_mask, extend);
      if (voters == 0) continue;
      const unsigned leader = __ffs(voters) - 1;
      unsigned long long at = 0;
      if (lane == leader)
        at = atomicAdd(next_count, static_cast<unsigned long long>(__popc(voters)));
      at = __shfl_sync(k_full_mask, at, leader) + __popc(voters & ::dyng::cuda::lanes_below(lane));
      if (extend) {
        if (at < capacity) {
          int32_t* entry = next + at * static_cast<unsigned long long>(d + 2);
          entry[0] = static_cast<int32_t>(slot);
          for (int j = 1; j <= d; ++j) entry[j] = path[j];
          entry[d + 1] = y;
        } else {
          atomicExch(p.overflow, 2);  // the host sizes the list from next_reads; a bug otherwise
        }
      }
    }
    cycles = ::dyng::cuda::warp_sum(cycles);
    reads = ::dyng::cuda::warp_sum(reads);
    if (lane == 0) {
      add_checked(p.hist_of(slot), d + 3 + p.offset, cycles, p.overflow);
      if (reads > 0) atomicAdd(next_reads, reads);
      const unsigned long long done =
          atomicAdd(p.work, static_cast<unsigned long long>(out.count + 1)) + out.count + 1;
      if (done > p.work_limit) atomicExch(p.gave_up, 1);
    }
  }
}

/// A lane group's depth-first stack entry: the path vertex, the next entry of its out-list to
/// read, and the children of the last chunk read that are still to be entered.
struct frame_t {
  int32_t vertex;
  int32_t pending;  ///< bit i: entry cursor - G + i
  long long cursor;
};

/// Lane groups of G per path of `list` (*list_count entries of d + 1 ints, d >= 1): each finishes
/// its path's subtree depth-first, its stack in shared memory (max_edges frames per group),
/// taking the next path from *next_item when done.
template <class eid_t, int G>
__global__ void descend_kernel(search_params_t<eid_t> p, const int32_t* list,
                               const unsigned long long* list_count, int d,
                               unsigned long long* next_item) {
  // The list's length from the device: the kernel that made the list ran before on this stream.
  const long long count = static_cast<long long>(*list_count);
  extern __shared__ unsigned long long shared[];
  unsigned long long* block_hist = shared;  // 2 x k_hist_entries, as p.hist
  const auto group = cg::tiled_partition<G>(cg::this_thread_block());
  const int me = static_cast<int>(threadIdx.x) / G;
  const int lane = static_cast<int>(group.thread_rank());
  // Shared layout: the block histograms, every group's frames, every group's path.
  frame_t* all_frames = reinterpret_cast<frame_t*>(block_hist + 2 * k_hist_entries);
  const int groups = static_cast<int>(blockDim.x) / G;
  frame_t* frames = all_frames + me * p.max_edges;
  int32_t* path = reinterpret_cast<int32_t*>(all_frames + groups * p.max_edges) + me * p.max_edges;
  for (int i = threadIdx.x; i < 2 * k_hist_entries; i += blockDim.x) block_hist[i] = 0;
  __syncthreads();
  while (true) {
    long long item = 0;
    if (lane == 0) {
      item = *static_cast<volatile int*>(p.gave_up)
                 ? count
                 : static_cast<long long>(atomicAdd(next_item, 1ull));
    }
    item = group.shfl(item, 0);
    if (item >= count) break;
    const long long slot = list[item * (d + 1)];
    const int32_t s = p.source(slot), t = p.target(slot);
    const bool before = p.before(slot);
    const uint32_t* dist = p.dist + p.at(slot);
    const uint32_t* c2 = p.c2 + p.at(slot);
    unsigned long long* item_hist = block_hist + (p.hist_of(slot) - p.hist);
    if (lane == 0) {
      path[0] = s;
      for (int j = 1; j <= d; ++j) path[j] = list[item * (d + 1) + j];
      frames[d] = {path[d], 0, 0};
    }
    group.sync();
    int top = d;
    unsigned long long item_reads = 1;
    unsigned steps = 0;
    while (true) {
      // One path's subtree can hold a group for seconds: a stop (Ctrl-C raises gave_up through
      // the host, a spent budget through another group) must reach it inside the subtree too.
      if ((++steps & 1023u) == 0 &&
          group.shfl(lane == 0 ? *static_cast<volatile int*>(p.gave_up) : 0, 0) != 0) {
        break;
      }
      const frame_t f = frames[top];
      if (f.pending != 0) {
        // Enter the next child of the last chunk.
        const int bit = __ffs(f.pending) - 1;
        const auto out = p.g.out_list(before, f.vertex);
        const int32_t y = p.g.out_at(before, f.vertex, out, f.cursor - G + bit);
        group.sync();
        if (lane == 0) {
          frames[top].pending = f.pending & ~(1 << bit);
          path[top + 1] = y;
          frames[top + 1] = {y, 0, 0};
        }
        group.sync();
        ++top;
        ++item_reads;
        continue;
      }
      const auto out = p.g.out_list(before, f.vertex);
      if (f.cursor < out.count && top + 3 <= p.max_edges) {
        const long long k = f.cursor + lane;
        const int32_t y = k < out.count ? p.g.out_at(before, f.vertex, out, k) : -1;
        unsigned long long cycles = 0;
        const bool extend =
            accept_child(p, slot, s, t, path, top, y, dist, c2, cycles) && top + 4 <= p.max_edges;
        const unsigned mask = group.ballot(extend);
        for (int offset = G / 2; offset > 0; offset /= 2) cycles += group.shfl_down(cycles, offset);
        group.sync();
        if (lane == 0) {
          if (cycles > 0) {
            const unsigned long long old = atomicAdd(item_hist + top + 3 + p.offset, cycles);
            if (old + cycles < old) atomicExch(p.overflow, 1);
          }
          frames[top].cursor = f.cursor + G;
          frames[top].pending = static_cast<int32_t>(mask);
        }
        item_reads +=
            static_cast<unsigned long long>(out.count - f.cursor < G ? out.count - f.cursor : G);
        group.sync();
        continue;
      }
      if (top == d) break;
      --top;
    }
    if (lane == 0) {
      const unsigned long long done = atomicAdd(p.work, item_reads) + item_reads;
      if (done > p.work_limit) atomicExch(p.gave_up, 1);
    }
    group.sync();
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 2 * k_hist_entries; i += blockDim.x) {
    add_checked(p.hist, i, block_hist[i], p.overflow);
  }
}

}  // namespace dyng::cycle_count::detail::cuda
