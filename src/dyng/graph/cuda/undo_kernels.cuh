// The row copies of device_graph_t::undo_t (device_graph.hpp): taken by apply() before it writes
// a direction, put back by revert(). One warp per row; its lanes stride over the row's slots.
// Included by device_apply.cu and device_revert.cu only.
#pragma once

#include <cstdint>

namespace dyng::cuda::detail {

/// For each of `count` rows (rows[i]): its offsets into begin/end/capacity_end[i], and its slots
/// [row_begin, row_end) into col/weights from at[i] on. The row arrays have `n` entries; a row past
/// them (a vertex the batch adds) is empty.
template <class vid_t, class eid_t>
__global__ void save_rows_kernel(const vid_t* rows, int64_t count, int64_t n, const eid_t* row_begin,
                                 const eid_t* row_end, const eid_t* row_capacity_end,
                                 const vid_t* col, const int32_t* weights, int k,
                                 const int64_t* at, eid_t* begin, eid_t* end,
                                 eid_t* capacity_end, vid_t* saved_col, int32_t* saved_weights) {
  const int lane = static_cast<int>(threadIdx.x & 31);
  const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  for (int64_t i = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; i < count;
       i += warps) {
    const vid_t v = rows[i];
    const bool exists = static_cast<int64_t>(v) < n;
    const int64_t b = exists ? row_begin[v] : 0, e = exists ? row_end[v] : 0, to = at[i] - b;
    if (lane == 0) {
      begin[i] = static_cast<eid_t>(b);
      end[i] = static_cast<eid_t>(e);
      capacity_end[i] = exists ? row_capacity_end[v] : eid_t{0};
    }
    for (int64_t s = b + lane; s < e; s += 32) {
      saved_col[to + s] = col[s];
      for (int j = 0; j < k; ++j) saved_weights[(to + s) * k + j] = weights[s * k + j];
    }
  }
}

/// The reverse of save_rows_kernel: each row's offsets, and its slots back into [begin, end), for
/// the rows below `n` (the row arrays put back hold no others).
template <class vid_t, class eid_t>
__global__ void restore_rows_kernel(const vid_t* rows, int64_t count, int64_t n, const eid_t* begin,
                                    const eid_t* end, const eid_t* capacity_end,
                                    const int64_t* at, const vid_t* saved_col,
                                    const int32_t* saved_weights, int k, eid_t* row_begin,
                                    eid_t* row_end, eid_t* row_capacity_end, vid_t* col,
                                    int32_t* weights) {
  const int lane = static_cast<int>(threadIdx.x & 31);
  const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  for (int64_t i = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; i < count;
       i += warps) {
    const vid_t v = rows[i];
    if (static_cast<int64_t>(v) >= n) continue;
    const int64_t b = begin[i], e = end[i], from = at[i] - b;
    if (lane == 0) {
      row_begin[v] = begin[i];
      row_end[v] = end[i];
      row_capacity_end[v] = capacity_end[i];
    }
    for (int64_t s = b + lane; s < e; s += 32) {
      col[s] = saved_col[from + s];
      for (int j = 0; j < k; ++j) weights[s * k + j] = saved_weights[(from + s) * k + j];
    }
  }
}

}  // namespace dyng::cuda::detail
