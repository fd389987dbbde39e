// The one pass compute() makes before the search: the number of stored edges (it sizes the
// queues, see near_far.cuh) and, when the caller leaves delta or the group size to us, a sample
// of the objective weights (the first slot of every row) and the largest out-degree, which
// together set the bucket width (pick_delta in launch.cuh). A
// sample rather than every slot: the mean needs no precision, and reading all m weights would
// cost as much as a fifth of a whole R-MAT search.
#pragma once

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/detail/cuda/device_common.cuh"

namespace dyng::sssp::detail::cuda {

template <class vid_t, class eid_t>
__global__ void __launch_bounds__(k_block_threads)
    prepare_kernel(const adjacency_view_t<vid_t, eid_t> out, int objective, bool sample_weights,
                   control_t* control) {
  const long long n = out.num_vertices;
  const long long stride = out.num_weights;
  unsigned long long edges = 0;
  unsigned long long weight_sum = 0;
  unsigned long long weight_count = 0;
  unsigned long long max_degree = 0;
  for (long long v = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long b = __ldg(out.row_begin + v);
    const long long e = __ldg(out.row_end + v);
    edges += static_cast<unsigned long long>(e - b);
    max_degree = max_degree > static_cast<unsigned long long>(e - b)
                     ? max_degree
                     : static_cast<unsigned long long>(e - b);
    if (sample_weights && e > b) {
      const long long w = __ldg(out.weights + b * stride + objective);
      weight_sum += static_cast<unsigned long long>(w > 0 ? w : 0);
      ++weight_count;
    }
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    edges += __shfl_xor_sync(k_full_mask, edges, offset);
    weight_sum += __shfl_xor_sync(k_full_mask, weight_sum, offset);
    weight_count += __shfl_xor_sync(k_full_mask, weight_count, offset);
    const unsigned long long other = __shfl_xor_sync(k_full_mask, max_degree, offset);
    max_degree = other > max_degree ? other : max_degree;
  }
  if ((threadIdx.x & 31u) == 0) {
    atomicAdd(&control->stored_edges, edges);
    atomicMax(&control->max_degree, max_degree);
    if (sample_weights) {
      atomicAdd(&control->sampled_weight_sum, weight_sum);
      atomicAdd(&control->sampled_weight_count, weight_count);
    }
  }
}

}  // namespace dyng::sssp::detail::cuda
