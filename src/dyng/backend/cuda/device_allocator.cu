// The pooled device allocator (see device_allocator.hpp for the design).
#include "dyng/backend/cuda/device_allocator.hpp"

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <string>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/errors.hpp"

namespace dyng::cuda {
namespace {

constexpr int k_max_devices = 64;

template <class T>
__global__ void __launch_bounds__(k_block_threads) fill_kernel(T* data, T value, int64_t count) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    data[i] = value;
  }
}

template <class T>
void fill_with(T* dst, T value, std::size_t count, void* stream) {
  if (count == 0) return;
  const auto n = static_cast<int64_t>(count);
  fill_kernel<T><<<stride_blocks(n, 8), k_block_threads, 0, as_stream(stream)>>>(dst, value, n);
  DYNG_CUDA_CHECK(cudaGetLastError());
}

// Plain handles in function-local statics: trivially destructible, so nothing runs at exit.
cudaMemPool_t pool_of(int device) {
  static std::array<cudaMemPool_t, k_max_devices> pools{};
  static std::mutex mutex;
  if (device < 0 || device >= k_max_devices) {
    throw not_supported_error("device_allocate(): device ordinal " + std::to_string(device) +
                              " is beyond the " + std::to_string(k_max_devices) +
                              " devices libdyng supports; use a lower ordinal");
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (pools[device] == nullptr) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool = nullptr;
    DYNG_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
    // Keep freed memory in the pool: per-call workspaces are then reused without new mappings.
    uint64_t threshold = UINT64_MAX;
    DYNG_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    pools[device] = pool;
  }
  return pools[device];
}

}  // namespace

int visible_device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

int device_of_pointer(const void* pointer) noexcept {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  const bool on_device =
      attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
  return on_device ? attributes.device : -1;
}

void* device_allocate(std::size_t bytes, void* stream) {
  if (bytes == 0) return nullptr;
  int device = 0;
  DYNG_CUDA_CHECK(cudaGetDevice(&device));
  void* ptr = nullptr;
  const cudaError_t status =
      cudaMallocFromPoolAsync(&ptr, bytes, pool_of(device), as_stream(stream));
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) (void)cudaGetLastError();
    throw out_of_memory_error("device_allocate(): could not allocate " + std::to_string(bytes) +
                              " bytes on device " + std::to_string(device) + " (" +
                              std::to_string(free_bytes) + " of " + std::to_string(total_bytes) +
                              " bytes free); free device memory or use a smaller graph");
  }
  DYNG_CUDA_CHECK(status);
  return ptr;
}

void device_deallocate(void* ptr, void* stream) noexcept {
  if (ptr == nullptr) return;
  // Any error here (cudaErrorCudartUnloading at exit above all) must not escape a destructor;
  // clearing it keeps it from being reported by the next unrelated call.
  if (cudaFreeAsync(ptr, as_stream(stream)) != cudaSuccess) (void)cudaGetLastError();
}

void* pinned_allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* ptr = nullptr;
  const cudaError_t status = cudaMallocHost(&ptr, bytes);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw out_of_memory_error("pinned_allocate(): could not pin " + std::to_string(bytes) +
                              " bytes of host memory; free host memory or raise the locked-memory "
                              "limit");
  }
  DYNG_CUDA_CHECK(status);
  return ptr;
}

void pinned_deallocate(void* ptr) noexcept {
  if (ptr == nullptr) return;
  if (cudaFreeHost(ptr) != cudaSuccess) (void)cudaGetLastError();
}

void copy_to_device(void* dst, const void* src, std::size_t bytes, void* stream) {
  if (bytes == 0) return;
  DYNG_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, as_stream(stream)));
}

void copy_to_host(void* dst, const void* src, std::size_t bytes, void* stream) {
  if (bytes == 0) return;
  DYNG_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, as_stream(stream)));
}

void copy_on_device(void* dst, const void* src, std::size_t bytes, void* stream) {
  if (bytes == 0) return;
  DYNG_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, as_stream(stream)));
}

void fill_bytes(void* dst, int value, std::size_t bytes, void* stream) {
  if (bytes == 0) return;
  DYNG_CUDA_CHECK(cudaMemsetAsync(dst, value, bytes, as_stream(stream)));
}

void fill_values(int32_t* dst, int32_t value, std::size_t count, void* stream) {
  fill_with(dst, value, count, stream);
}

void fill_values(int64_t* dst, int64_t value, std::size_t count, void* stream) {
  fill_with(dst, value, count, stream);
}

void fill_values(double* dst, double value, std::size_t count, void* stream) {
  fill_with(dst, value, count, stream);
}

std::size_t pool_reserved_bytes(int device) {
  uint64_t reserved = 0;
  DYNG_CUDA_CHECK(
      cudaMemPoolGetAttribute(pool_of(device), cudaMemPoolAttrReservedMemCurrent, &reserved));
  return static_cast<std::size_t>(reserved);
}

void trim_pool(int device) {
  DYNG_CUDA_CHECK(cudaDeviceSynchronize());
  DYNG_CUDA_CHECK(cudaMemPoolTrimTo(pool_of(device), 0));
}

void synchronize(void* stream) { DYNG_CUDA_CHECK(cudaStreamSynchronize(as_stream(stream))); }

}  // namespace dyng::cuda
