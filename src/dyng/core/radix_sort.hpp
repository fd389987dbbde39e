// A stable least-significant-digit radix sort of plain records by an unsigned integer key, on an
// OpenMP team: 11-bit digits, each thread counting and then placing its own contiguous share of
// the records, so every pass streams and touches 2048 buckets per thread instead of a counting
// sort's two random accesses per record into key-sized arrays. The order is the same for every
// team size (stable: equal keys keep their input order).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "dyng/core/thread_share.hpp"

namespace dyng {

/// Bits needed for keys in [0, bound): at least 1.
inline int key_bits_below(int64_t bound) {
  int bits = 1;
  while (bits < 63 && (int64_t{1} << bits) < bound) ++bits;
  return bits;
}

/// Sorts the m records at `from` stably by key(record), every key below 2^bits, using `into`
/// (room for m records) as the other buffer of each pass, with up to `threads` threads (1: no
/// parallel region). Returns the buffer that holds the sorted records (`from` or `into`).
template <class T, class key_fn>
T* radix_sort_by_key(T* from, T* into, int64_t m, int bits, key_fn&& key, int threads) {
  constexpr int k_digit_bits = 11;
  constexpr int64_t k_digits = int64_t{1} << k_digit_bits;
  const int team = std::max(1, threads);
  std::vector<int64_t> counts(static_cast<size_t>(team * k_digits));
  for (int shift = 0; shift < bits; shift += k_digit_bits) {
    std::fill(counts.begin(), counts.end(), 0);
    auto digit = [&key, shift](const T& x) {
      return static_cast<int64_t>((static_cast<uint64_t>(key(x)) >> shift) & (k_digits - 1));
    };
#pragma omp parallel num_threads(team) if (team > 1)
    {
      // The shares follow the team OpenMP grants, not `threads` itself (thread_share.hpp).
      const thread_share_t me = thread_share(m);
      const int t = me.thread, size = me.threads;
      const int64_t lo = me.lo, hi = me.hi;
      int64_t* mine = counts.data() + t * k_digits;
      for (int64_t j = lo; j < hi; ++j) ++mine[digit(from[j])];
#pragma omp barrier
#pragma omp single
      {
        // Digit-major, thread-minor offsets: thread t's records of digit d follow those of the
        // threads before it, which keeps the pass stable.
        int64_t at = 0;
        for (int64_t d = 0; d < k_digits; ++d) {
          for (int u = 0; u < size; ++u) {
            int64_t& c = counts[static_cast<size_t>(u * k_digits + d)];
            const int64_t here = c;
            c = at;
            at += here;
          }
        }
      }
      for (int64_t j = lo; j < hi; ++j) into[mine[digit(from[j])]++] = from[j];
    }
    std::swap(from, into);
  }
  return from;
}

/// radix_sort_by_key() over a vector, the result left in `items` (`scratch` is resized and
/// overwritten).
template <class T, class key_fn>
void radix_sort_vector(std::vector<T>& items, std::vector<T>& scratch, int bits, key_fn&& key,
                       int threads) {
  scratch.resize(items.size());
  T* sorted = radix_sort_by_key(items.data(), scratch.data(), static_cast<int64_t>(items.size()),
                                bits, key, threads);
  if (sorted != items.data()) items.swap(scratch);
}

}  // namespace dyng
