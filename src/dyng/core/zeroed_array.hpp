// An array of numbers whose zeros cost nothing until written: memory comes from calloc, which
// hands out large blocks as fresh anonymous pages that the kernel maps (and clears) only when
// first written; reading an unwritten page maps the shared zero page, which costs no memory
// either. Growing it to n zeros is one calloc, not n writes.
//
// Why: a graph keeps three row offsets per vertex and direction, and ids are not renumbered, so
// `num_vertices=10**8` with a handful of edges has 10**8 empty rows. Their offsets stay (0, 0, 0)
// on pages nobody writes; std::vector's value-initialisation wrote every one of them (seconds
// and gigabytes for 10**8 rows).
//
// Invariant: every slot in [size, capacity) is zero, so growing within the capacity writes
// nothing, and a shrink zeroes what it gives up. Large arrays are their own anonymous mappings
// on Linux, and growing one remaps its pages instead of copying them (mremap): a copy would
// write, and so take memory for, every page of the old array, written or not.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "dyng/core/huge_pages.hpp"

namespace dyng {

namespace zeroed_blocks {
// The blocks behind zeroed_array, by bytes (core/memory_pages.cpp). Out of line for the reason
// advise_huge_pages() is: mremap's flags exist only under _GNU_SOURCE.

/// Whether a block of `bytes` is an anonymous mapping of its own (Linux, 1 MiB and up) rather
/// than a calloc block.
bool is_mapping(std::size_t bytes) noexcept;
/// A zeroed block of `bytes` holding the first `used` bytes of `old` (`old_bytes` long, or
/// nullptr), which it replaces; a mapping grows by mremap. Throws std::bad_alloc.
void* grow(void* old, std::size_t old_bytes, std::size_t bytes, std::size_t used);
/// Frees a block of grow() (nullptr: nothing).
void release(void* data, std::size_t bytes) noexcept;

}  // namespace zeroed_blocks

template <class T>
class zeroed_array {
  static_assert(std::is_trivially_copyable_v<T>, "zeroed_array holds plain numbers");

 public:
  using value_type = T;

  zeroed_array() noexcept = default;
  explicit zeroed_array(std::size_t size) { resize(size); }
  zeroed_array(const zeroed_array& other) { *this = other; }
  zeroed_array(zeroed_array&& other) noexcept { swap(other); }
  ~zeroed_array() { release(data_, capacity_); }

  zeroed_array& operator=(const zeroed_array& other) {
    if (this != &other) {
      zeroed_array copy(other.size_);
      if (other.size_ > 0) std::memcpy(copy.data_, other.data_, other.size_ * sizeof(T));
      swap(copy);
    }
    return *this;
  }
  // A copy (Graph.clone) writes every slot; copying only the written pages would need to know
  // which they are, and clones of graphs with 10**8 isolated vertices are rare.
  zeroed_array& operator=(zeroed_array&& other) noexcept {
    zeroed_array(std::move(other)).swap(*this);
    return *this;
  }

  void swap(zeroed_array& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  /// New slots are zero. Growth past the capacity takes a zeroed block of at least 1.5x.
  void resize(std::size_t size) {
    if (size <= size_) {
      if (size < size_) std::memset(data_ + size, 0, (size_ - size) * sizeof(T));
    } else if (size > capacity_) {
      const std::size_t capacity = std::max(size, capacity_ + capacity_ / 2);
      data_ = grow(data_, capacity_, capacity, size_);
      capacity_ = capacity;
    }
    size_ = size;
  }

  /// Asks for huge pages when the caller will write most of the array (a dense build): they
  /// spare the TLB misses of random row access. Only a hint; an untouched huge page still costs
  /// nothing, but one write then takes 2 MiB, so sparse users leave it off.
  void prefer_huge_pages() noexcept {
    if (zeroed_blocks::is_mapping(capacity_ * sizeof(T))) {
      advise_huge_pages(data_, capacity_ * sizeof(T));
    }
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }

 private:
  /// A block of `capacity` zeroed slots holding the first `used` slots of `old` (of
  /// `old_capacity`), which it replaces.
  static T* grow(T* old, std::size_t old_capacity, std::size_t capacity, std::size_t used) {
    if (capacity > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    return static_cast<T*>(
        zeroed_blocks::grow(old, old_capacity * sizeof(T), capacity * sizeof(T), used * sizeof(T)));
  }

  static void release(T* data, std::size_t capacity) noexcept {
    zeroed_blocks::release(data, capacity * sizeof(T));
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace dyng
