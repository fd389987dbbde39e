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

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dyng {

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
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (!mapped(capacity_)) return;
    constexpr std::uintptr_t k_huge = std::uintptr_t{2} << 20;
    const auto first = (reinterpret_cast<std::uintptr_t>(data_) + k_huge - 1) & ~(k_huge - 1);
    const auto last = (reinterpret_cast<std::uintptr_t>(data_) + capacity_ * sizeof(T)) &
                      ~(k_huge - 1);
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
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
  /// Blocks of at least this many bytes are mappings of their own (Linux).
  static constexpr std::size_t k_mapped_bytes = std::size_t{1} << 20;

  static bool mapped(std::size_t capacity) noexcept {
#if defined(__linux__)
    return capacity * sizeof(T) >= k_mapped_bytes;
#else
    (void)capacity;
    return false;
#endif
  }

  /// A block of `capacity` zeroed slots holding the first `used` slots of `old` (of
  /// `old_capacity`), which it replaces.
  static T* grow(T* old, std::size_t old_capacity, std::size_t capacity, std::size_t used) {
#if defined(__linux__)
    if (mapped(capacity)) {
      void* p = (old != nullptr && mapped(old_capacity))
                    ? mremap(old, old_capacity * sizeof(T), capacity * sizeof(T), MREMAP_MAYMOVE)
                    : mmap(nullptr, capacity * sizeof(T), PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      T* fresh = static_cast<T*>(p);
      if (old != nullptr && !mapped(old_capacity)) {  // a small block becomes a mapping
        if (used > 0) std::memcpy(fresh, old, used * sizeof(T));
        release(old, old_capacity);
      }
      return fresh;
    }
#endif
    T* fresh = static_cast<T*>(std::calloc(capacity, sizeof(T)));
    if (fresh == nullptr) throw std::bad_alloc();
    if (used > 0) std::memcpy(fresh, old, used * sizeof(T));
    release(old, old_capacity);
    return fresh;
  }

  static void release(T* data, std::size_t capacity) noexcept {
    if (data == nullptr) return;
#if defined(__linux__)
    if (mapped(capacity)) {
      munmap(data, capacity * sizeof(T));
      return;
    }
#endif
    std::free(data);
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace dyng
