// Device memory for all of libdyng: one stream-ordered pool per device, plus the few copies and
// queries that callers need, all without CUDA types in the interface.
//
// Each device gets its own cudaMemPool_t (not the device's default pool, whose settings other
// libraries in the process may rely on) with an unlimited release threshold: freed blocks stay
// in the pool, so the workspace a kernel allocates on every call is a cheap pool hit after the
// first call instead of a cudaMalloc/cudaFree pair with an implicit device synchronisation.
// Pools are created on first use and deliberately never destroyed: destroying them would need a
// CUDA call from a static destructor, which crashes at interpreter exit once the runtime is gone.
//
// Streams are passed as void* (a cudaStream_t); nullptr is the legacy default stream.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dyng::cuda {

/// Number of CUDA devices this process can use; 0 when there is no driver or device. Never throws.
int visible_device_count() noexcept;

/// The device whose memory `pointer` points into (device or managed memory), or -1 for host
/// memory, an unknown pointer or no driver. Never throws.
int device_of_pointer(const void* pointer) noexcept;

/// `bytes` of device memory on the current device, ordered on `stream`. Throws
/// dyng::out_of_memory_error naming the requested and free bytes when the pool cannot grow, and
/// dyng::cuda_error for any other failure. A request of 0 bytes returns nullptr.
void* device_allocate(std::size_t bytes, void* stream);

/// Returns `ptr` to its pool, ordered on `stream`. Never throws: errors are swallowed, including
/// cudaErrorCudartUnloading at process exit, because it runs in destructors.
void device_deallocate(void* ptr, void* stream) noexcept;

/// `bytes` of page-locked host memory, which a stream-ordered copy reads or writes without a
/// staging copy of its own (and without waiting, unlike a copy to or from pageable memory).
/// Throws dyng::out_of_memory_error when the host cannot pin that much, dyng::cuda_error for any
/// other failure. A request of 0 bytes returns nullptr. Not stream-ordered: free it only once no
/// queued copy uses it.
void* pinned_allocate(std::size_t bytes);

/// Returns memory from pinned_allocate(). Never throws (see device_deallocate).
void pinned_deallocate(void* ptr) noexcept;

/// Stream-ordered copies and fill; they throw dyng::cuda_error on failure.
void copy_to_device(void* dst, const void* src, std::size_t bytes, void* stream);
void copy_to_host(void* dst, const void* src, std::size_t bytes, void* stream);
void copy_on_device(void* dst, const void* src, std::size_t bytes, void* stream);
void fill_bytes(void* dst, int value, std::size_t bytes, void* stream);
/// Sets `count` elements at `dst` to `value` (the untouched entries of a grown result).
void fill_values(int32_t* dst, int32_t value, std::size_t count, void* stream);
void fill_values(int64_t* dst, int64_t value, std::size_t count, void* stream);
void fill_values(double* dst, double value, std::size_t count, void* stream);

/// Bytes the pool of `device` holds from the driver (in use plus cached); 0 before first use.
std::size_t pool_reserved_bytes(int device);

/// Returns the cached, unused memory of `device`'s pool to the driver
/// (Resources.release_workspaces).
void trim_pool(int device);

/// Waits for all work queued on `stream`; throws dyng::cuda_error if any of it failed.
void synchronize(void* stream);

}  // namespace dyng::cuda
