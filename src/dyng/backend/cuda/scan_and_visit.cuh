// The step that a batch's resolve and plan take again and again: a value per item (a flag, a
// count), their exclusive sums, and a visit of every item with the sum before it (to scatter it
// to its place). For a small batch the counts are short and launches cost more than the work, so
// up to k_block_scan_items one block makes the values, scans them tile by tile and visits in one
// launch (a device-wide CUB scan alone is a memset and two launches); beyond, the values go to
// the workspace, CUB scans them, and a grid visits. The same input and visit functors serve both.
//
// Functors: input(i) -> T; visit(i, T before, T value) for every i < count; visit.end(count,
// T total) once. T{} is the identity of `op`.
#pragma once

#include <cuda_runtime.h>

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_workspace.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"

namespace dyng::cuda {

/// Threads of the one-block scan.
inline constexpr int k_block_scan_threads = 1024;
/// Items up to which one block scans: at most 32 tiles of the block.
inline constexpr int64_t k_block_scan_items = 32 * int64_t{k_block_scan_threads};

/// a + b for any type with +.
struct add_t {
  template <class T>
  __device__ T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

/// Runs a CUB device algorithm: asks for its scratch size, takes it from the workspace, runs it.
template <class F>
void run_cub(device_workspace_t& ws, F&& call) {
  size_t bytes = 0;
  DYNG_CUDA_CHECK(call(nullptr, bytes));
  // Never nullptr: CUB takes a null scratch pointer for a size query and would not run.
  DYNG_CUDA_CHECK(call(ws.temporary(std::max<size_t>(bytes, 1)), bytes));
}

/// scan_and_visit() in one block of k_block_scan_threads, tile by tile.
template <class T, class input_t, class visit_t, class op_t>
__global__ void __launch_bounds__(k_block_scan_threads)
    block_scan_kernel(int64_t count, input_t input, visit_t visit, op_t op) {
  using scan_t = cub::BlockScan<T, k_block_scan_threads, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename scan_t::TempStorage temp;
  __shared__ T carry;
  if (threadIdx.x == 0) carry = T{};
  __syncthreads();
  for (int64_t base = 0; base < count; base += k_block_scan_threads) {
    const int64_t i = base + threadIdx.x;
    const T value = i < count ? input(i) : T{};
    T before, tile;
    scan_t(temp).ExclusiveScan(value, before, T{}, op, tile);
    if (i < count) visit(i, op(carry, before), value);
    __syncthreads();  // every thread has read carry, and temp is free for the next tile
    if (threadIdx.x == 0) carry = op(carry, tile);
    __syncthreads();
  }
  if (threadIdx.x == 0) visit.end(count, carry);
}

template <class T, class input_t>
__global__ void scan_inputs_kernel(int64_t count, input_t input, T* values) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    values[i] = input(i);
  }
}

template <class T, class visit_t>
__global__ void scan_visits_kernel(int64_t count, const T* values, const T* sums, visit_t visit) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    visit(i, sums[i], values[i]);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) visit.end(count, sums[count]);
}

/// The step of the file's header on `stream`, scratch from `ws`.
template <class T, class input_t, class visit_t, class op_t = add_t>
void scan_and_visit(int64_t count, input_t input, visit_t visit, device_workspace_t& ws,
                    cudaStream_t stream, op_t op = {}) {
  if (count <= k_block_scan_items) {
    block_scan_kernel<T><<<1, k_block_scan_threads, 0, stream>>>(count, input, visit, op);
    DYNG_CUDA_CHECK(cudaGetLastError());
    return;
  }
  T* values = ws.device<T>(static_cast<size_t>(count));
  T* sums = ws.device<T>(static_cast<size_t>(count) + 1);
  const unsigned grid = stride_blocks(count, 8);
  scan_inputs_kernel<T><<<grid, k_block_threads, 0, stream>>>(count, input, values);
  DYNG_CUDA_CHECK(cudaGetLastError());
  DYNG_CUDA_CHECK(cudaMemsetAsync(sums, 0, sizeof(T), stream));  // T{}: zero bytes
  run_cub(ws, [&](void* temp, size_t& bytes) {
    return cub::DeviceScan::InclusiveScan(temp, bytes, values, sums + 1, op,
                                          static_cast<int>(count), stream);
  });
  scan_visits_kernel<T><<<grid, k_block_threads, 0, stream>>>(count, values, sums, visit);
  DYNG_CUDA_CHECK(cudaGetLastError());
}

/// Reads values[i] (an input).
template <class T>
struct read_values_t {
  const T* values;
  __device__ T operator()(int64_t i) const { return values[i]; }
};

/// Writes the count + 1 exclusive sums into sums (a visit).
template <class T>
struct write_sums_t {
  T* sums;
  __device__ void operator()(int64_t i, const T& before, const T&) const { sums[i] = before; }
  __device__ void end(int64_t count, const T& total) const { sums[count] = total; }
};

}  // namespace dyng::cuda
