// Pieces the CUDA SSSP kernels share: the work-item encoding and the device-resident control
// block. The warp primitives and launch shapes they use are libdyng's (backend/cuda/).
//
// A work item is 16 bytes: the first slot of a row range and, packed, the vertex (low 40 bits)
// with the range length (high 24 bits, saturated). Carrying the range means the round that takes
// an item can load the vertex's distance and its first edges at once, instead of first reading
// row_begin/row_end: one dependent memory access less per round, which on a grid (~5000 rounds,
// each a chain of dependent accesses) is a tenth of the time. The pusher loads the range in
// parallel with its other atomics. A row longer than one chunk is queued whole; the item that
// takes it relaxes the first chunk and queues the rest as chunk-sized items, so one hub (R-MAT's
// have ~10^5 edges) is spread over many groups instead of serialising a round on one group.
//
// A joint search (mosp's K objectives in one search over vertex-objective items) also names the
// objective, in the top k_objective_bits of the first slot; slots stay below 2^58.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/backend/cuda/warp_primitives.cuh"

namespace dyng::sssp::detail::cuda {

using ::dyng::cuda::as_stream;
using ::dyng::cuda::cooperative_blocks;
using ::dyng::cuda::group_min;
using ::dyng::cuda::k_block_threads;
using ::dyng::cuda::k_full_mask;
using ::dyng::cuda::lanes_below;
using ::dyng::cuda::max_of;
using ::dyng::cuda::min_of;
using ::dyng::cuda::multiprocessor_count;
using ::dyng::cuda::stride_blocks;
using ::dyng::cuda::warp_append;
using ::dyng::cuda::warp_reserve;
using ::dyng::cuda::warp_sum;

using item_t = ulonglong2;          // {first slot, vertex | length << 40}
using dist_t = unsigned long long;  // distances as the type atomicMin works on (all are >= 0)

inline constexpr int k_vertex_bits = 40;
inline constexpr unsigned long long k_vertex_mask = (1ull << k_vertex_bits) - 1;
inline constexpr long long k_max_length = (1ll << (64 - k_vertex_bits)) - 1;
inline constexpr dist_t k_infinity = (dist_t{1} << 61) - 1;  // == k_infinite_distance
inline constexpr int k_objective_bits = 6;  // 64 objectives (mosp::k_max_objectives)
inline constexpr int k_slot_bits = 64 - k_objective_bits;
inline constexpr unsigned long long k_slot_mask = (1ull << k_slot_bits) - 1;

__device__ __forceinline__ item_t make_item(long long first, long long length,
                                            unsigned long long vertex, int objective = 0) {
  const unsigned long long saturated =
      static_cast<unsigned long long>(length < k_max_length ? length : k_max_length);
  return make_ulonglong2(static_cast<unsigned long long>(first) |
                             (static_cast<unsigned long long>(objective) << k_slot_bits),
                         vertex | (saturated << k_vertex_bits));
}
__device__ __forceinline__ unsigned long long item_vertex(item_t item) {
  return item.y & k_vertex_mask;
}
__device__ __forceinline__ long long item_first(item_t item) {
  return static_cast<long long>(item.x & k_slot_mask);
}
__device__ __forceinline__ int item_objective(item_t item) {
  return static_cast<int>(item.x >> k_slot_bits);
}
__device__ __forceinline__ long long item_length(item_t item) {
  return static_cast<long long>(item.y >> k_vertex_bits);
}

/// Lists each lane's row of `degree` slots in pieces of `piece_slots`: entries v | k << 40 for
/// k = 0 .. ceil(degree / piece_slots) - 1, reserved with one atomic per warp. Past `capacity`
/// nothing is written and *overflow is set (lists are sized so that this cannot happen). Must be
/// reached by all 32 lanes; a lane with nothing to list passes degree 0.
__device__ __forceinline__ void append_row_pieces(long long v, long long degree,
                                                  long long piece_slots, unsigned long long* list,
                                                  unsigned long long* count,
                                                  unsigned long long capacity, int* overflow) {
  const unsigned long long pieces =
      degree > 0 ? static_cast<unsigned long long>((degree + piece_slots - 1) / piece_slots) : 0;
  const unsigned long long base = warp_reserve(pieces, count);
  for (unsigned long long k = 0; k < pieces; ++k) {
    if (base + k < capacity) {
      list[base + k] = static_cast<unsigned long long>(v) | (k << k_vertex_bits);
    } else {
      atomicExch(overflow, 1);
    }
  }
}

/// Status codes the persistent kernel leaves in control_t::status. A seeded search (update's
/// repair) also stops with k_status_budget once it has relaxed more edges than it was allowed.
enum : int {
  k_status_ok = 0,
  k_status_round_limit = 1,
  k_status_overflow = 2,
  k_status_budget = 3
};

/// Device-resident state of one compute: queue counters (rotated, see near_far.cuh), the far
/// pile's smallest distance, statistics and the length of the parent pass's piece list.
struct control_t {
  unsigned long long near_count[3];
  unsigned long long far_count[3];
  dist_t far_min[3];
  unsigned long long relaxations;
  unsigned long long pushes;
  unsigned long long piece_count;
  long long rounds;
  long long epochs;
  int status;
  // Seeded search only: relaxations flushed so far (approximate, for the budget) and the stop
  // decision for the next round, written by thread 0 into the slot the other threads do not
  // read this round (see near_far.cuh).
  unsigned long long work;
  int stop[2];
  // Filled by the prepare kernel.
  unsigned long long stored_edges;
  unsigned long long sampled_weight_sum;
  unsigned long long sampled_weight_count;
  unsigned long long max_degree;
};

}  // namespace dyng::sssp::detail::cuda
