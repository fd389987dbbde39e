// The page-level memory calls of core/huge_pages.hpp and core/zeroed_array.hpp, in one C++
// translation unit that sees all of <sys/mman.h> (see huge_pages.hpp for why not in headers).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "dyng/core/huge_pages.hpp"
#include "dyng/core/zeroed_array.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dyng {

void advise_huge_pages(void* data, size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t k_huge = uintptr_t{2} << 20;
  const auto first = (reinterpret_cast<uintptr_t>(data) + k_huge - 1) & ~(k_huge - 1);
  const auto last = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(k_huge - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

namespace zeroed_blocks {

bool is_mapping(std::size_t bytes) noexcept {
#if defined(__linux__)
  return bytes >= (std::size_t{1} << 20);
#else
  (void)bytes;
  return false;
#endif
}

void* grow(void* old, std::size_t old_bytes, std::size_t bytes, std::size_t used) {
#if defined(__linux__)
  if (is_mapping(bytes)) {
    const bool old_mapped = old != nullptr && is_mapping(old_bytes);
    void* p = old_mapped ? mremap(old, old_bytes, bytes, MREMAP_MAYMOVE)
                         : mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                                -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    if (old != nullptr && !old_mapped) {  // a small block becomes a mapping
      if (used > 0) std::memcpy(p, old, used);
      release(old, old_bytes);
    }
    return p;
  }
#endif
  void* fresh = std::calloc(bytes, 1);
  if (fresh == nullptr) throw std::bad_alloc();
  if (used > 0) std::memcpy(fresh, old, used);
  release(old, old_bytes);
  return fresh;
}

void release(void* data, std::size_t bytes) noexcept {
  if (data == nullptr) return;
#if defined(__linux__)
  if (is_mapping(bytes)) {
    munmap(data, bytes);
    return;
  }
#endif
  std::free(data);
}

}  // namespace zeroed_blocks
}  // namespace dyng
