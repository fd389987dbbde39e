#include "dyng/sssp/sssp_device_kernels.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::sssp::cuda::detail {
namespace {

constexpr int k_threads = 256;

unsigned blocks_for(int64_t items) {
  return static_cast<unsigned>(std::clamp<int64_t>((items + k_threads - 1) / k_threads, 1, 65535));
}

template <class vid_t>
__global__ void fill_unreached_kernel(int64_t* dist, vid_t* parents, int64_t first, int64_t last) {
  for (int64_t i = first + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < last;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    dist[i] = k_infinite_distance;
    parents[i] = -1;
  }
}

/// One warp per row, so R-MAT's hub rows (~10^5 slots) are read coalesced, not by one thread.
template <class vid_t, class eid_t>
__global__ void find_nonpositive_kernel(adjacency_view_t<vid_t, eid_t> out, int objective,
                                        int* found) {
  const int64_t n = out.num_vertices;
  const int64_t stride = out.num_weights;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  bool bad = false;
  for (int64_t v = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; v < n;
       v += warps) {
    const int64_t end = out.row_end[v];
    for (int64_t s = out.row_begin[v] + lane; s < end; s += 32) {
      bad |= out.weights[s * stride + objective] < 1;
    }
  }
  if (bad) *found = 1;
}

}  // namespace

template <class vid_t>
void fill_unreached(int64_t* d_dist, vid_t* d_parents, int64_t first, int64_t last, void* stream) {
  if (last <= first) return;
  fill_unreached_kernel<vid_t><<<blocks_for(last - first), k_threads, 0,
                                 static_cast<cudaStream_t>(stream)>>>(d_dist, d_parents, first,
                                                                      last);
  DYNG_CUDA_CHECK(cudaGetLastError());
}

template <class vid_t, class eid_t>
bool weights_positive(const adjacency_view_t<vid_t, eid_t>& out, int objective, void* stream) {
  if (out.num_vertices == 0) return true;
  ::dyng::cuda::device_buffer<int> found(1, stream);
  found.fill_bytes(0);
  find_nonpositive_kernel<vid_t, eid_t><<<blocks_for(out.num_vertices * 32), k_threads, 0,
                                          static_cast<cudaStream_t>(stream)>>>(out, objective,
                                                                               found.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  int host = 0;
  found.copy_to_host(&host, 1);
  return host == 0;
}

template void fill_unreached<int32_t>(int64_t*, int32_t*, int64_t, int64_t, void*);
template void fill_unreached<int64_t>(int64_t*, int64_t*, int64_t, int64_t, void*);
template bool weights_positive<int32_t, int32_t>(const adjacency_view_t<int32_t, int32_t>&, int,
                                                 void*);
template bool weights_positive<int32_t, int64_t>(const adjacency_view_t<int32_t, int64_t>&, int,
                                                 void*);
template bool weights_positive<int64_t, int64_t>(const adjacency_view_t<int64_t, int64_t>&, int,
                                                 void*);

}  // namespace dyng::sssp::cuda::detail
