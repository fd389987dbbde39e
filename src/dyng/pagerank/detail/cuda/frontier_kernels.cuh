// The kernels of an update's frontier rounds on the GPU (the host's are frontier_iteration.hpp,
// whose header gives the method and the residual bound): the frontier is a byte per vertex,
// collected each round into a list in increasing vertex order (and cleared); a round recomputes
// the rank of each listed vertex from the shares of the round before (Jacobi: the pull of
// iteration_kernels.cuh, over the list), sums what the bound needs over the list in fixed tiles,
// then writes the ranks and shares and flags the out-neighbours of every vertex whose change
// passes the threshold on to them (their out-slots spread over the grid). Flags are plain byte
// stores of 1 (any writer order gives the same bytes); the list's order and the tiles' sums do
// not depend on timing, so the ranks come out with the same bits every run. Included by
// frontier_launch.cuh only.
#pragma once

#include <cuda_runtime.h>

#include <cfloat>
#include <cmath>
#include <cstdint>

#include "dyng/backend/cuda/flat_ranges.cuh"
#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/pagerank/detail/cuda/iteration_kernels.cuh"

namespace dyng::pagerank::detail::cuda {

/// Vertices per tile of the collection: each thread of a block looks at this many / the block.
inline constexpr long long k_collect_tile = 4 * k_block_threads;

/// What a round reports to the host (device memory): counters of the list just collected and the
/// sums of the round that ran before it.
struct round_report_t {
  unsigned long long listed;  ///< Vertices collected into the list.
  unsigned long long slots;   ///< Their in-slots (the round's edges read).
  unsigned long long moved;   ///< Vertices whose change passed on to their out-neighbours.
  int status;                 ///< Nonzero: a list overflowed (a bug).
  /// Of the last round run: L1 change, change of the rank sum, change of the dangling mass, and
  /// the bound on the rounding of the ranks it computed (frontier_iteration.hpp's round_t).
  double sums[4];
};

/// flags[v] = 1 for the head v of each change (its in-row changed).
template <class vid_t>
__global__ void flag_heads(const edge_change_t<vid_t>* changes, long long count,
                           unsigned char* flags) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    flags[changes[i].dst] = 1;
  }
}

/// flags[list[i]] = 1 for i < count.
template <class vid_t>
__global__ void flag_listed(const vid_t* list, long long count, unsigned char* flags) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    flags[list[i]] = 1;
  }
}

/// The seed plan's inputs for each u = list[i]: out[3i] = x[u], out[3i + 1] = inverse[u] and
/// out[3i + 2] = u's out-degree (exact in a double).
template <class vid_t, class eid_t>
__global__ void gather_seed_inputs(const vid_t* list, long long count, const double* x,
                                   const double* inverse, const adjacency_view_t<vid_t, eid_t> out,
                                   double* values) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const vid_t u = list[i];
    values[3 * i] = x[u];
    values[3 * i + 1] = inverse[u];
    values[3 * i + 2] = static_cast<double>(out.row_end[u] - out.row_begin[u]);
  }
}

/// degrees[i] = the out-degree of list[i], for i < the list's length (*count_at when not nullptr,
/// else `count`).
template <class vid_t, class eid_t>
__global__ void list_out_degrees(const adjacency_view_t<vid_t, eid_t> out, const vid_t* list,
                                 const unsigned long long* count_at, long long count,
                                 unsigned* degrees) {
  const long long listed = count_at != nullptr ? static_cast<long long>(*count_at) : count;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < listed;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const vid_t u = list[i];
    degrees[i] = static_cast<unsigned>(out.row_end[u] - out.row_begin[u]);
  }
}

/// flags[w] = 1 for every out-neighbour w of the listed vertices (length as list_out_degrees):
/// their out-slots as one flat range, starts[i] the first of list[i]'s and *total all of them
/// (scan_counts of the degrees), so a hub's row is spread over the whole grid.
template <class vid_t, class eid_t>
__global__ void flag_out_slots(const adjacency_view_t<vid_t, eid_t> out, const vid_t* list,
                               const unsigned long long* count_at, long long count,
                               const unsigned long long* starts, const unsigned long long* total,
                               unsigned char* flags) {
  const long long listed = count_at != nullptr ? static_cast<long long>(*count_at) : count;
  const unsigned long long slots = *total;
  for (unsigned long long j =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       j < slots; j += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const long long low = ::dyng::cuda::range_of(starts, listed, j);
    const vid_t u = list[low];
    flags[out.col[static_cast<long long>(out.row_begin[u]) +
                  static_cast<long long>(j - starts[low])]] = 1;
  }
}

/// Per tile of k_collect_tile vertices, how many are flagged.
__global__ void __launch_bounds__(k_block_threads)
    count_flagged(const unsigned char* flags, long long n, unsigned* tile_counts) {
  const long long tiles = (n + k_collect_tile - 1) / k_collect_tile;
  for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int count = 0;
    for (long long j = 0; j < k_collect_tile / k_block_threads; ++j) {
      const long long v = tile * k_collect_tile + j * k_block_threads + threadIdx.x;
      count += __syncthreads_count(v < n && flags[v] != 0);
    }
    if (threadIdx.x == 0) tile_counts[tile] = static_cast<unsigned>(count);
  }
}

/// starts[i] = counts[0] + ... + counts[i - 1] for i < the length (*count_at when not nullptr,
/// else `count`), and *total = the sum of all; by one block: thread t sums a contiguous run,
/// then the runs' totals are scanned.
__global__ void __launch_bounds__(k_block_threads)
    scan_counts(const unsigned* counts, const unsigned long long* count_at, long long count,
                unsigned long long* starts, unsigned long long* total) {
  __shared__ unsigned long long run_start[k_block_threads];
  const long long length = count_at != nullptr ? static_cast<long long>(*count_at) : count;
  const long long per = (length + k_block_threads - 1) / k_block_threads;
  const long long first = threadIdx.x * per;
  const long long last = first + per < length ? first + per : length;
  unsigned long long run = 0;
  for (long long t = first; t < last; ++t) run += counts[t];
  run_start[threadIdx.x] = run;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long sum = 0;
    for (int i = 0; i < k_block_threads; ++i) {
      const unsigned long long here = run_start[i];
      run_start[i] = sum;
      sum += here;
    }
    *total = sum;
  }
  __syncthreads();
  unsigned long long at = run_start[threadIdx.x];
  for (long long t = first; t < last; ++t) {
    starts[t] = at;
    at += counts[t];
  }
}

/// Lists the flagged vertices in increasing order (tile_starts from scan_counts), clears
/// their flags, and adds their in-slots to report->slots.
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    list_flagged(unsigned char* flags, long long n, const unsigned long long* tile_starts,
                 const adjacency_view_t<vid_t, eid_t> in, vid_t* list, round_report_t* report) {
  __shared__ unsigned warp_counts[k_block_threads / 32];
  const long long tiles = (n + k_collect_tile - 1) / k_collect_tile;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = threadIdx.x / 32;
  unsigned long long slots = 0;
  for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    unsigned long long at = tile_starts[tile];
    for (long long j = 0; j < k_collect_tile / k_block_threads; ++j) {
      const long long v = tile * k_collect_tile + j * k_block_threads + threadIdx.x;
      const bool flagged = v < n && flags[v] != 0;
      const unsigned voters = __ballot_sync(::dyng::cuda::k_full_mask, flagged);
      if (lane == 0) warp_counts[warp] = static_cast<unsigned>(__popc(voters));
      __syncthreads();
      unsigned before = 0, total = 0;
      for (unsigned w = 0; w < k_block_threads / 32; ++w) {
        before += w < warp ? warp_counts[w] : 0;
        total += warp_counts[w];
      }
      if (flagged) {
        list[at + before + __popc(voters & ::dyng::cuda::lanes_below(lane))] =
            static_cast<vid_t>(v);
        flags[v] = 0;
        slots += static_cast<unsigned long long>(in.row_end[v] - in.row_begin[v]);
      }
      at += total;
      __syncthreads();  // warp_counts is rewritten next
    }
  }
  slots = ::dyng::cuda::warp_sum(slots);
  if (lane == 0 && slots > 0) atomicAdd(&report->slots, slots);
}

/// What frontier_round(), round_sums() and apply_round() read and write.
template <class vid_t, class eid_t>
struct round_args_t {
  adjacency_view_t<vid_t, eid_t> in;
  const vid_t* list;
  long long rows;  ///< Listed vertices.
  double alpha;
  jump_t jump;
  const double* inverse;
  const double* dangling_mass;  ///< D of x (device scalar)
  double* x;
  double* share;
  double* next;  ///< Per listed vertex, its new rank.
};

/// next[i] = the new rank of list[i], from the shares of the round before; `per_tile` rows a
/// block at a time (rows_per_tile()). Tiles of k_block_threads rows take consecutive list
/// entries, a thread each; smaller ones take every tiles-th entry (row r of tile t is entry
/// r * tiles + t, on thread r * k_block_threads / per_tile), so that the entries listed first
/// land in different blocks. A row's sum has the same bits either way (row_sums.cuh).
template <bool k_weighted, class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    frontier_round(const round_args_t<vid_t, eid_t> a, long long per_tile) {
  __shared__ row_scratch_t scratch;
  const pull_value_t<k_weighted, vid_t, eid_t> value{a.in.col, a.in.weights, a.in.num_weights,
                                                     a.share};
  const double mass = *a.dangling_mass;
  const long long tiles = (a.rows + per_tile - 1) / per_tile;
  const long long spacing = k_block_threads / per_tile;  // threads per row of a tile
  const bool owner = static_cast<long long>(threadIdx.x) % spacing == 0;
  const long long slot = static_cast<long long>(threadIdx.x) / spacing;
  for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    long long i = a.rows;  // no row
    if (per_tile == k_block_threads) {
      i = tile * k_block_threads + threadIdx.x;
    } else if (owner) {
      i = slot * tiles + tile;
    }
    const bool active = i < a.rows;
    const long long v = active ? static_cast<long long>(a.list[i]) : 0;
    const long long b = active ? static_cast<long long>(a.in.row_begin[v]) : 0;
    const long long e = active ? static_cast<long long>(a.in.row_end[v]) : 0;
    const double sum = tile_row_sum(value, active, b, e, scratch);
    if (active) {
      a.next[i] = a.alpha * (sum + mass * a.jump.dangle(v)) + (1.0 - a.alpha) * a.jump.teleport(v);
    }
  }
}

/// Per tile of the list, into parts[k * stride + tile]: the round's L1 change (k = 0), change
/// of the rank sum (1), change of the dangling mass (2) and rounding bound 4 eps (in-degree + 4)
/// next (3), before apply_round() writes the ranks.
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    round_sums(const round_args_t<vid_t, eid_t> a, double* parts, long long stride) {
  __shared__ row_scratch_t scratch;
  for (long long tile = blockIdx.x; tile < tiles_of(a.rows); tile += gridDim.x) {
    const long long i = tile * k_block_threads + threadIdx.x;
    double change = 0.0, dangling = 0.0, rounding = 0.0;
    if (i < a.rows) {
      const vid_t v = a.list[i];
      change = a.next[i] - a.x[v];
      dangling = a.inverse[v] == 0.0 ? change : 0.0;
      const auto degree = static_cast<double>(a.in.row_end[v] - a.in.row_begin[v]);
      rounding = 4.0 * DBL_EPSILON * (degree + 4.0) * a.next[i];
    }
    const double moved_total = block_sum(fabs(change), scratch);
    const double change_total = block_sum(change, scratch);
    const double dangling_total = block_sum(dangling, scratch);
    const double rounding_total = block_sum(rounding, scratch);
    if (threadIdx.x == 0) {
      parts[tile] = moved_total;
      parts[stride + tile] = change_total;
      parts[2 * stride + tile] = dangling_total;
      parts[3 * stride + tile] = rounding_total;
    }
  }
}

/// After a round: the dangling mass and the rank sum (scalars[1], scalars[2]) move by the
/// round's changes (sums[2], sums[1]); one thread, the host's order of additions.
__global__ void advance_masses(const double* sums, double* scalars) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    scalars[1] += sums[2];
    scalars[2] += sums[1];
  }
}

/// Writes the round's ranks and shares; a vertex whose change each out-neighbour sees
/// (alpha * |change| / W) passes `threshold` is listed in `moved` (for flag_out_slots).
template <class vid_t, class eid_t>
__global__ void apply_round(const round_args_t<vid_t, eid_t> a, double threshold, vid_t* moved,
                            unsigned long long capacity, round_report_t* report) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long rounds = (a.rows + stride - 1) / stride;
  for (long long r = 0; r < rounds; ++r) {
    const long long i = first + r * stride;
    bool passes = false;
    vid_t v = 0;
    if (i < a.rows) {
      v = a.list[i];
      const double x = a.next[i];
      const double inverse = a.inverse[v];
      passes = a.alpha * fabs(x - a.x[v]) * inverse > threshold;
      a.x[v] = x;
      a.share[v] = x * inverse;
    }
    ::dyng::cuda::warp_append(passes, v, moved, &report->moved, capacity, &report->status, 1);
  }
}

}  // namespace dyng::pagerank::detail::cuda
