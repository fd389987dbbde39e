// One block's scan of a short sequence, for the counts of a small batch: a device-wide CUB scan
// costs a memset and two launches, each a few microseconds of host time, for work that one block
// does in one launch. Used up to k_block_scan_items, with the device-wide scan beyond.
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>

namespace dyng::cuda {

/// Threads of block_scan_kernel.
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

/// The inclusive scan of input(0 .. count) under `op` (T{} its identity) by one block, tile by
/// tile: output(i + 1, input(0) op ... op input(i)) for every i, and output(0, T{}) once, so that
/// output receives the count + 1 exclusive sums. Launch with one block of k_block_scan_threads.
template <class T, class input_t, class output_t, class op_t = add_t>
__global__ void __launch_bounds__(k_block_scan_threads)
    block_scan_kernel(int64_t count, input_t input, output_t output, op_t op = {}) {
  using scan_t = cub::BlockScan<T, k_block_scan_threads, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename scan_t::TempStorage temp;
  __shared__ T carry;
  if (threadIdx.x == 0) {
    carry = T{};
    output(0, T{});
  }
  __syncthreads();
  for (int64_t base = 0; base < count; base += k_block_scan_threads) {
    const int64_t i = base + threadIdx.x;
    T sum, tile;
    scan_t(temp).InclusiveScan(i < count ? input(i) : T{}, sum, op, tile);
    if (i < count) output(i + 1, op(carry, sum));
    __syncthreads();  // every thread has read carry, and temp is free for the next tile
    if (threadIdx.x == 0) carry = op(carry, tile);
    __syncthreads();
  }
}

/// Reads values[i] (block_scan_kernel's input).
template <class T>
struct read_values_t {
  const T* values;
  __device__ T operator()(int64_t i) const { return values[i]; }
};

/// Writes sums[i] (block_scan_kernel's output).
template <class T>
struct write_sums_t {
  T* sums;
  __device__ void operator()(int64_t i, const T& value) const { sums[i] = value; }
};

}  // namespace dyng::cuda
