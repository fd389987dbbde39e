// The row copies of device_graph_t::undo_t (device_graph.hpp): taken by apply() before it writes
// a direction, put back by revert(). The rows' slots are copied as one flat range (slot j of the
// copy belongs to the row whose range of `at` holds it), so a hub row of 10^5 slots is spread over
// the whole grid instead of one warp working through it alone. Included by device_apply.cu and
// device_revert.cu only.
#pragma once

#include <cstdint>

#include "dyng/backend/cuda/flat_ranges.cuh"

namespace dyng::cuda::detail {

/// For each of `count` rows (rows[i]): its id into saved_rows[i], its offsets into
/// begin/end/capacity_end[i], and its slots [row_begin, row_end) into col/weights from at[i] on
/// (at[count] slots in all; `at` is copied into saved_at). The row arrays have `n` entries; a row
/// past them (a vertex the batch adds) is empty.
template <class vid_t, class eid_t>
__global__ void save_rows_kernel(const vid_t* rows, const int64_t* at, int64_t count, int64_t n,
                                 const eid_t* row_begin, const eid_t* row_end,
                                 const eid_t* row_capacity_end, const vid_t* col,
                                 const int32_t* weights, int k, vid_t* saved_rows,
                                 int64_t* saved_at, eid_t* begin, eid_t* end, eid_t* capacity_end,
                                 vid_t* saved_col, int32_t* saved_weights) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int64_t i = first; i <= count; i += stride) saved_at[i] = at[i];
  for (int64_t i = first; i < count; i += stride) {
    const vid_t v = rows[i];
    saved_rows[i] = v;
    const bool exists = static_cast<int64_t>(v) < n;
    begin[i] = exists ? row_begin[v] : eid_t{0};
    end[i] = exists ? row_end[v] : eid_t{0};
    capacity_end[i] = exists ? row_capacity_end[v] : eid_t{0};
  }
  const int64_t total = at[count];
  for (int64_t j = first; j < total; j += stride) {
    const int64_t i = ::dyng::cuda::range_of(at, count, j);
    const int64_t s = static_cast<int64_t>(row_begin[rows[i]]) + (j - at[i]);
    saved_col[j] = col[s];
    for (int w = 0; w < k; ++w) saved_weights[j * k + w] = weights[s * k + w];
  }
}

/// The reverse of save_rows_kernel: each row's offsets, and its slots back into [begin, end), for
/// the rows below `n` (the row arrays put back hold no others).
template <class vid_t, class eid_t>
__global__ void restore_rows_kernel(const vid_t* rows, int64_t count, int64_t n, const eid_t* begin,
                                    const eid_t* end, const eid_t* capacity_end, const int64_t* at,
                                    const vid_t* saved_col, const int32_t* saved_weights, int k,
                                    eid_t* row_begin, eid_t* row_end, eid_t* row_capacity_end,
                                    vid_t* col, int32_t* weights) {
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
    const int64_t s = static_cast<int64_t>(begin[i]) + (j - at[i]);
    col[s] = saved_col[j];
    for (int w = 0; w < k; ++w) weights[s * k + w] = saved_weights[j * k + w];
  }
}

}  // namespace dyng::cuda::detail
