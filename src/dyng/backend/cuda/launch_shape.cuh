// Launch shapes for every CUDA kernel of libdyng: the one block size, grid sizes for grid-stride
// and persistent (cooperative) kernels, and the conversion of the void* streams that libdyng's
// CUDA-free headers pass around. Included by .cu files only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/core/errors.hpp"

namespace dyng::cuda {

/// Threads per block of every libdyng kernel: 8 warps, enough to hide latency with the register
/// budgets of the persistent kernels (256 registers per thread would still fit 1 block/SM).
inline constexpr int k_block_threads = 256;

/// The cudaStream_t behind libdyng's void* streams (nullptr: the legacy default stream).
inline cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

/// Multiprocessors of the current device.
inline int multiprocessor_count() {
  int device = 0;
  DYNG_CUDA_CHECK(cudaGetDevice(&device));
  int count = 0;
  DYNG_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

/// In a kernel: body(item, lane) for every item in [0, count), one warp an item, the grid's
/// warps striding over the items (lane: the thread's lane in its warp, 0-31).
template <class body_t>
__device__ void for_each_item_by_warp(int64_t count, body_t&& body) {
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  for (int64_t item = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
       item < count; item += warps) {
    body(item, lane);
  }
}

/// Blocks for a grid-stride kernel over `items` work items, capped at `per_sm` per multiprocessor.
inline unsigned stride_blocks(long long items, long long per_sm) {
  const long long wanted = (items + k_block_threads - 1) / k_block_threads;
  return static_cast<unsigned>(
      std::max<long long>(1, std::min<long long>(wanted, multiprocessor_count() * per_sm)));
}

/// Blocks of k_block_threads that `kernel` keeps resident on one multiprocessor of the current
/// device, as the occupancy calculator gives them (asked once per kernel and device).
template <auto kernel>
int resident_blocks_per_sm() {
  constexpr int k_devices = 64;
  static std::atomic<int> known[k_devices] = {};  // 0: not asked yet
  int device = 0;
  DYNG_CUDA_CHECK(cudaGetDevice(&device));
  std::atomic<int>* slot = device < k_devices ? &known[device] : nullptr;
  int fit = slot != nullptr ? slot->load(std::memory_order_relaxed) : 0;
  if (fit == 0) {
    DYNG_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, k_block_threads, 0));
    fit = std::max(fit, 1);
    if (slot != nullptr) slot->store(fit, std::memory_order_relaxed);
  }
  return fit;
}

/// Grid size for a cooperative launch of `kernel`: every block must be resident at once, so at
/// most what the occupancy calculator allows per multiprocessor, and at most `wanted_per_sm`.
template <class kernel_t>
unsigned cooperative_blocks(kernel_t* kernel, int wanted_per_sm, const char* fn) {
  int fit = 0;
  DYNG_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, k_block_threads, 0));
  if (fit < 1) {
    throw internal_error(std::string(fn) +
                         ": a persistent kernel does not fit on a "
                         "multiprocessor; this is a bug in libdyng's launch configuration");
  }
  return static_cast<unsigned>(multiprocessor_count() * std::min(fit, wanted_per_sm));
}

/// Launches `kernel(params)` cooperatively on `stream` with `blocks` blocks of k_block_threads.
template <class params_t>
void launch_cooperative(void (*kernel)(params_t), unsigned blocks, const params_t& params,
                        cudaStream_t stream) {
  void* args[] = {const_cast<params_t*>(&params)};
  DYNG_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(blocks),
                                              dim3(k_block_threads), args, 0, stream));
}

}  // namespace dyng::cuda
