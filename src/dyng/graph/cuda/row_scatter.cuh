// The kernel behind device_graph_t::sync(): writes packed rows into a device adjacency.
//
// The host packs, for each touched row, its vertex, new slot range (used and allocated) and
// contents back to back;
// one warp per row then writes row_begin/row_end and copies the slots, so a batch costs one copy
// and one launch however many rows it touched.
#pragma once

#include <cstdint>

namespace dyng::cuda::detail {

template <class vid_t, class eid_t>
struct packed_rows_t {
  int64_t count = 0;                    ///< Rows in the pack.
  const vid_t* vertex = nullptr;        ///< count entries.
  const eid_t* begin = nullptr;         ///< count entries: the row's first slot.
  const eid_t* end = nullptr;           ///< count entries: one past its last used slot.
  const eid_t* capacity_end = nullptr;  ///< count entries: one past its last slot.
  const int64_t* offset = nullptr;   ///< count + 1 entries: where each row starts in col/weights.
  const vid_t* col = nullptr;        ///< The rows' neighbours, back to back.
  const int32_t* weights = nullptr;  ///< K weights per packed slot; null when K == 0.
};

template <class vid_t, class eid_t>
__global__ void scatter_rows_kernel(packed_rows_t<vid_t, eid_t> pack, int num_weights,
                                    eid_t* row_begin, eid_t* row_end, eid_t* row_capacity_end,
                                    vid_t* col, int32_t* weights) {
  const int64_t warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  for (int64_t r = warp; r < pack.count; r += warps) {
    const vid_t v = pack.vertex[r];
    const eid_t b = pack.begin[r];
    if (lane == 0) {
      row_begin[v] = b;
      row_end[v] = pack.end[r];
      row_capacity_end[v] = pack.capacity_end[r];
    }
    const int64_t from = pack.offset[r];
    const int64_t length = pack.offset[r + 1] - from;
    for (int64_t j = lane; j < length; j += 32) {
      col[b + j] = pack.col[from + j];
      for (int k = 0; k < num_weights; ++k) {
        weights[(static_cast<int64_t>(b) + j) * num_weights + k] =
            pack.weights[(from + j) * num_weights + k];
      }
    }
  }
}

}  // namespace dyng::cuda::detail

namespace dyng::cuda::detail {

/// A run of slots to copy: `length` slots from index `source` to index `dest` (col and the K
/// weights of each slot). The host splits long runs so each block gets a bounded share.
struct slot_run_t {
  int64_t source;
  int64_t dest;
  int64_t length;
};

/// One block per run: copies the run's slots from (src_col, src_w) to (dst_col, dst_w).
template <class vid_t>
__global__ void copy_runs_kernel(const slot_run_t* runs, int64_t count, const vid_t* src_col,
                                 const int32_t* src_w, vid_t* dst_col, int32_t* dst_w,
                                 int num_weights) {
  for (int64_t r = blockIdx.x; r < count; r += gridDim.x) {
    const slot_run_t run = runs[r];
    for (int64_t j = threadIdx.x; j < run.length; j += blockDim.x) {
      dst_col[run.dest + j] = src_col[run.source + j];
      for (int k = 0; k < num_weights; ++k) {
        dst_w[(run.dest + j) * num_weights + k] = src_w[(run.source + j) * num_weights + k];
      }
    }
  }
}

/// Sets row_end[vertex[i]] = end[i].
template <class vid_t, class eid_t>
__global__ void set_row_ends_kernel(const vid_t* vertex, const eid_t* end, int64_t count,
                                    eid_t* row_end) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    row_end[vertex[i]] = end[i];
  }
}

}  // namespace dyng::cuda::detail
