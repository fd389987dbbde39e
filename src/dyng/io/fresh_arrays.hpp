// Big arrays of the readers, backed by huge pages where the kernel offers them. Fresh 4 KiB
// pages cost a fault per page when first touched; for a 20M-edge file the readers touch about
// 1 GiB, and those faults were a third of the read (core/huge_pages.hpp). So the memory is
// reserved untouched, advised, and only then filled.
#pragma once

#include <cstddef>
#include <vector>

#include "dyng/core/huge_pages.hpp"

namespace dyng::io {

/// Touches every page of [data, data + bytes) on `threads` threads, each its own contiguous
/// part. The first touch is where the kernel zeroes a page, the dearest step of a big fresh
/// array on the dev VM; done by one thread it serialises the reader (the bytes are allocated
/// storage of trivial types, so writing them before the elements are constructed is fine).
inline void prefault(void* data, size_t bytes, int threads) {
  constexpr size_t k_page = 4096;
  char* p = static_cast<char*>(data);
  const int64_t pages = static_cast<int64_t>((bytes + k_page - 1) / k_page);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && pages > 512)
  for (int64_t i = 0; i < pages; ++i) p[static_cast<size_t>(i) * k_page] = 0;
}

/// Room for `count` elements, huge-page backed and (with threads > 1) already faulted in on
/// that many threads; the contents are kept.
template <class T>
void reserve_huge(std::vector<T>& v, size_t count, int threads = 1) {
  if (v.capacity() >= count) return;
  std::vector<T> fresh;
  fresh.reserve(count);
  advise_huge_pages(fresh.data(), count * sizeof(T));
  if (threads > 1) prefault(fresh.data(), count * sizeof(T), threads);
  fresh.insert(fresh.end(), v.begin(), v.end());
  v.swap(fresh);
}

/// A vector of `count` copies of `value`, huge-page backed, faulted in on `threads` threads.
template <class T>
std::vector<T> huge_vector(size_t count, const T& value = T{}, int threads = 1) {
  std::vector<T> v;
  reserve_huge(v, count, threads);
  v.assign(count, value);
  return v;
}

}  // namespace dyng::io
