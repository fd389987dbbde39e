// One host block for several arrays, so that they reach the device in one copy: each array at an
// 8-byte aligned offset (device_graph.cu's row uploads, device_apply.cu's batch upload).
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

namespace dyng::cuda::detail {

/// Where each of several arrays goes in one block. add() the arrays in order (each returns the
/// array's offset), then write_to() a block of size() bytes: the arrays are copied once, straight
/// into the block (page-locked memory or a vector), with no growing buffer in between.
class packed_arrays_t {
 public:
  template <class T>
  size_t add(const T* values, size_t count) {
    const size_t at = (size_ + 7) & ~size_t{7};
    parts_.push_back({values, count * sizeof(T), at});
    size_ = at + count * sizeof(T);
    return at;
  }

  size_t size() const { return size_; }

  void write_to(unsigned char* block) const {
    for (const part_t& part : parts_) {
      if (part.bytes > 0) std::memcpy(block + part.at, part.data, part.bytes);
    }
  }

 private:
  struct part_t {
    const void* data;
    size_t bytes;
    size_t at;
  };
  std::vector<part_t> parts_;
  size_t size_ = 0;
};

}  // namespace dyng::cuda::detail
