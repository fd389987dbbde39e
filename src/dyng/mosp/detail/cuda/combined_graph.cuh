// Kernels of the combined graph on the device (combined_edges.hpp says what its edges are): the
// in-rows from the K trees' parents, one thread per vertex; the out-rows by a counting sort of
// those in-edges by source; and the row-by-row diff of two versions, which is the change log of
// the MOSP tree's repair. Included by mosp_cuda.cu only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/graph/change_log.hpp"
#include "dyng/mosp/mosp.hpp"

namespace dyng::mosp::detail::cuda {

/// The trees' parents and the weights membership takes off, passed by value (K <= 64 fits the
/// kernel parameter space, so no upload is needed).
template <class vid_t>
struct tree_parents_t {
  const vid_t* parents[k_max_objectives];
  int32_t tree_weights[k_max_objectives];
  int k = 0;
  int32_t full = 0;  ///< L * (K + 1)
};

/// In-row of every vertex v < n in slots [v*K, v*K + count), sorted by source: one slot per
/// distinct parent u, weighing full minus the tree weights of the trees whose parent of v is u.
/// Counts each row's sources into `out_degree` (zeroed, n entries).
template <class vid_t>
__global__ void __launch_bounds__(::dyng::cuda::k_block_threads)
    in_rows_kernel(tree_parents_t<vid_t> trees, int64_t n, int64_t* in_begin, int64_t* in_end,
                   vid_t* in_col, int32_t* in_weights, unsigned long long* out_degree) {
  for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t base = v * trees.k;
    vid_t* col = in_col + base;
    int32_t* w = in_weights + base;
    int count = 0;
    for (int i = 0; i < trees.k; ++i) {
      const vid_t u = trees.parents[i][v];
      if (u < 0) continue;
      int j = 0;
      while (j < count && col[j] < u) ++j;
      if (j < count && col[j] == u) {
        w[j] -= trees.tree_weights[i];
        continue;
      }
      for (int t = count; t > j; --t) {
        col[t] = col[t - 1];
        w[t] = w[t - 1];
      }
      col[j] = u;
      w[j] = trees.full - trees.tree_weights[i];
      ++count;
    }
    in_begin[v] = base;
    in_end[v] = base + count;
    for (int j = 0; j < count; ++j) atomicAdd(out_degree + col[j], 1ull);
  }
}

/// Out-row ends from the exclusive prefix sum of the degrees, and the write cursors.
__global__ void __launch_bounds__(::dyng::cuda::k_block_threads)
    out_row_ends_kernel(int64_t n, const int64_t* out_begin, const unsigned long long* out_degree,
                        int64_t* out_end, unsigned long long* cursor) {
  for (int64_t u = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; u < n;
       u += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    out_end[u] = out_begin[u] + static_cast<int64_t>(out_degree[u]);
    cursor[u] = static_cast<unsigned long long>(out_begin[u]);
  }
}

/// Every in-edge (u, v) into u's out-row.
template <class vid_t>
__global__ void __launch_bounds__(::dyng::cuda::k_block_threads)
    scatter_out_rows_kernel(int64_t n, const int64_t* in_begin, const int64_t* in_end,
                            const vid_t* in_col, const int32_t* in_weights,
                            unsigned long long* cursor, vid_t* out_col, int32_t* out_weights) {
  for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    for (int64_t j = in_begin[v]; j < in_end[v]; ++j) {
      const unsigned long long at = atomicAdd(cursor + in_col[j], 1ull);
      out_col[at] = static_cast<vid_t>(v);
      out_weights[at] = in_weights[j];
    }
  }
}

/// One row of an in-edge version: slots [begin, end) of col/weights (empty past its vertices).
template <class vid_t>
struct in_rows_t {
  int64_t num_vertices = 0;
  const int64_t* begin = nullptr;
  const int64_t* end = nullptr;
  const vid_t* col = nullptr;
  const int32_t* weights = nullptr;
};

/// A change of the combined graph, as the repair's change log wants it.
template <class vid_t>
struct combined_change_t {
  vid_t src;
  vid_t dst;
  int kind;  ///< edge_change_kind_t
};

/// The changes from `before` to `after` for every v < n: both in-rows are sorted by source, so
/// one merge finds the deleted, inserted and reweighted edges. Appends up to `capacity` changes
/// and counts all of them (a count past capacity tells the host to recompute instead).
template <class vid_t>
__global__ void __launch_bounds__(::dyng::cuda::k_block_threads)
    diff_rows_kernel(int64_t n, in_rows_t<vid_t> before, in_rows_t<vid_t> after,
                     combined_change_t<vid_t>* changes, unsigned long long capacity,
                     unsigned long long* count) {
  for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t i = 0, i_end = 0, j = after.begin[v], j_end = after.end[v];
    if (v < before.num_vertices) {
      i = before.begin[v];
      i_end = before.end[v];
    }
    auto emit = [&](vid_t src, edge_change_kind_t kind) {
      const unsigned long long at = atomicAdd(count, 1ull);
      if (at < capacity) changes[at] = {src, static_cast<vid_t>(v), static_cast<int>(kind)};
    };
    while (i < i_end || j < j_end) {
      if (j == j_end || (i < i_end && before.col[i] < after.col[j])) {
        emit(before.col[i++], edge_change_kind_t::deleted);
      } else if (i == i_end || after.col[j] < before.col[i]) {
        emit(after.col[j++], edge_change_kind_t::inserted);
      } else {
        if (before.weights[i] != after.weights[j]) {
          emit(after.col[j], edge_change_kind_t::reweighted);
        }
        ++i;
        ++j;
      }
    }
  }
}

/// *count += the vertices with a finite distance (a compute's `affected`, as on the host).
__global__ void __launch_bounds__(::dyng::cuda::k_block_threads)
    count_reached_kernel(int64_t n, const int64_t* dist, unsigned long long* count) {
  unsigned long long mine = 0;
  for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    mine += dist[v] != sssp::k_infinite_distance ? 1 : 0;
  }
  mine = ::dyng::cuda::warp_sum(mine);
  if ((threadIdx.x & 31u) == 0 && mine > 0) atomicAdd(count, mine);
}

}  // namespace dyng::mosp::detail::cuda
