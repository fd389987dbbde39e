// One host blob for several arrays, so that they reach the device in one copy: each array at an
// 8-byte aligned offset (device_graph.cu's row uploads, device_apply.cu's batch upload).
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

namespace dyng::cuda::detail {

/// Appends `count` values to `blob` at an 8-byte aligned offset and returns that offset.
template <class T>
size_t append_aligned(std::vector<unsigned char>& blob, const T* values, size_t count) {
  const size_t at = (blob.size() + 7) & ~size_t{7};
  blob.resize(at + count * sizeof(T));
  if (count > 0) std::memcpy(blob.data() + at, values, count * sizeof(T));
  return at;
}

}  // namespace dyng::cuda::detail
