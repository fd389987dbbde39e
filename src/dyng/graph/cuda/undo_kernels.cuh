// How revert() puts back the row copies of device_graph_t::undo_t (device_graph.hpp). apply()
// takes them as it composes the rows (apply_kernels.cuh: saved_slots_t, saved_rows_t): each
// touched row's offsets, and its slots from its kept start on, the only ones the commit writes.
// The slots go back as one flat range (slot j of the copy belongs to the row whose range of `at`
// holds it), so a hub row of 10^5 slots is spread over the whole grid instead of one warp
// working through it alone. Included by device_revert.cu only.
#pragma once

#include <cstdint>

#include "dyng/backend/cuda/flat_ranges.cuh"

namespace dyng::cuda::detail {

/// Puts an undo record back: each row's offsets, and its saved slots back into [begin + kept,
/// end), for the rows below `n` (the row arrays put back hold no others).
template <class vid_t, class eid_t>
__global__ void restore_rows_kernel(const vid_t* rows, int64_t count, int64_t n, const eid_t* begin,
                                    const eid_t* end, const eid_t* capacity_end,
                                    const int64_t* kept, const int64_t* at, const vid_t* saved_col,
                                    const int32_t* saved_weights, int k, eid_t* row_begin,
                                    eid_t* row_end, eid_t* row_capacity_end, vid_t* col,
                                    int32_t* weights) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int64_t i = first; i < count; i += stride) {
    const vid_t v = rows[i];
    if (static_cast<int64_t>(v) >= n) continue;
    row_begin[v] = begin[i];
    row_end[v] = end[i];
    row_capacity_end[v] = capacity_end[i];
  }
  const int64_t total = at[count];
  for (int64_t j = first; j < total; j += stride) {
    const int64_t i = ::dyng::cuda::range_of(at, count, j);
    if (static_cast<int64_t>(rows[i]) >= n) continue;
    const int64_t s = static_cast<int64_t>(begin[i]) + kept[i] + (j - at[i]);
    col[s] = saved_col[j];
    for (int w = 0; w < k; ++w) weights[s * k + w] = saved_weights[j * k + w];
  }
}

}  // namespace dyng::cuda::detail
