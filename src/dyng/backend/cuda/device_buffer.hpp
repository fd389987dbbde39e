// An owning, typed, move-only array in device memory, drawn from the pooled allocator.
//
// The destructor returns the memory stream-ordered and never throws (device_deallocate swallows
// every error, cudaErrorCudartUnloading included). Do not keep a device_buffer in a static or
// global object: its destructor would then make a CUDA call during process exit. The stream a
// buffer was made on must outlive it (the default stream, nullptr, always does).
#pragma once

#include <cstddef>
#include <utility>

#include "dyng/backend/cuda/device_allocator.hpp"

namespace dyng::cuda {

template <class T>
class device_buffer {
 public:
  using value_type = T;

  device_buffer() noexcept = default;

  /// Uninitialised room for `count` elements, ordered on `stream`.
  explicit device_buffer(std::size_t count, void* stream = nullptr)
      : data_(static_cast<T*>(device_allocate(count * sizeof(T), stream))),
        size_(count),
        stream_(stream) {}

  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  device_buffer(device_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        stream_(other.stream_) {}

  device_buffer& operator=(device_buffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      stream_ = other.stream_;
    }
    return *this;
  }

  ~device_buffer() { reset(); }

  /// Frees the memory now (stream-ordered) and leaves the buffer empty.
  void reset() noexcept {
    device_deallocate(data_, stream_);
    data_ = nullptr;
    size_ = 0;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  void* stream() const noexcept { return stream_; }

  /// Copies `count` elements from host memory into the start of the buffer (stream-ordered).
  void copy_from_host(const T* src, std::size_t count) {
    copy_to_device(data_, src, count * sizeof(T), stream_);
  }

  /// Copies the first `count` elements to host memory and waits, so `dst` is ready on return.
  void copy_to_host(T* dst, std::size_t count) const {
    ::dyng::cuda::copy_to_host(dst, data_, count * sizeof(T), stream_);
    synchronize(stream_);
  }

  /// Sets every byte of the buffer to `value` (stream-ordered); tests use it to poison outputs.
  void fill_bytes(int value) { ::dyng::cuda::fill_bytes(data_, value, size_ * sizeof(T), stream_); }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  void* stream_ = nullptr;
};

}  // namespace dyng::cuda
