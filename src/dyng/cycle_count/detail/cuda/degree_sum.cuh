// The summed out-degrees of a list of vertices, read from a device adjacency: what the GPU count
// sizes its first path list with, without the host rows (a device graph keeps none).
#pragma once

#include <cstdint>
#include <vector>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/backend/cuda/warp_primitives.cuh"
#include "dyng/graph/adjacency_view.hpp"

namespace dyng::cycle_count::detail::cuda {

template <class vid_t, class eid_t>
__global__ void degree_sum_kernel(adjacency_view_t<vid_t, eid_t> out, const vid_t* vertices,
                                  int64_t count, unsigned long long* sum) {
  unsigned long long local = 0;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    local += static_cast<unsigned long long>(out.row_end[vertices[i]] - out.row_begin[vertices[i]]);
  }
  ::dyng::cuda::warp_add(local, sum);
}

/// Sum of out.degree(v) over `vertices` (device view `out`), ordered on `stream`; waits for it.
template <class vid_t, class eid_t>
long long degree_sum(const adjacency_view_t<vid_t, eid_t>& out, const std::vector<vid_t>& vertices,
                     void* stream) {
  if (vertices.empty()) return 0;
  const auto count = static_cast<int64_t>(vertices.size());
  ::dyng::cuda::device_buffer<vid_t> ids(vertices.size(), stream);
  ids.copy_from_host(vertices.data(), vertices.size());
  ::dyng::cuda::device_buffer<unsigned long long> sum(1, stream);
  sum.fill_bytes(0);
  degree_sum_kernel<<<::dyng::cuda::stride_blocks(count, 4), ::dyng::cuda::k_block_threads, 0,
                      ::dyng::cuda::as_stream(stream)>>>(out, ids.data(), count, sum.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  unsigned long long total = 0;
  sum.copy_to_host(&total, 1);
  return static_cast<long long>(total);
}

}  // namespace dyng::cycle_count::detail::cuda
