// Filling a range of a device array with one value (new vertices of a grown result, poisoned
// test outputs), for any trivially copyable element type. Included by .cu files only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"

namespace dyng::cuda {

template <class T>
__global__ void __launch_bounds__(k_block_threads)
    fill_range_kernel(T* data, T value, int64_t first, int64_t last) {
  for (int64_t i = first + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < last;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    data[i] = value;
  }
}

/// Sets data[first, last) to `value`, ordered on `stream` (no wait).
template <class T>
void fill_range(T* data, T value, int64_t first, int64_t last, void* stream) {
  if (last <= first) return;
  fill_range_kernel<T><<<stride_blocks(last - first, 8), k_block_threads, 0, as_stream(stream)>>>(
      data, value, first, last);
  DYNG_CUDA_CHECK(cudaGetLastError());
}

}  // namespace dyng::cuda
