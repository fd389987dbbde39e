// Cycle histograms as exact uint64 counts: every addition is checked, and a count past
// 2^64 - 1 raises capacity_error instead of wrapping.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dyng/core/errors.hpp"

namespace dyng::cycle_count::detail {

inline void add_count(std::vector<uint64_t>& hist, int64_t length, uint64_t value) {
  uint64_t& slot = hist[static_cast<size_t>(length)];
  if (__builtin_add_overflow(slot, value, &slot)) {
    throw capacity_error("cycle_count: the number of cycles of length " + std::to_string(length) +
                         " exceeds 2^64 - 1; count with a smaller max_length");
  }
}

/// into[l] += from[l] for every length.
inline void add_histogram(std::vector<uint64_t>& into, const std::vector<uint64_t>& from) {
  for (size_t l = 0; l < from.size(); ++l) {
    if (from[l] != 0) add_count(into, static_cast<int64_t>(l), from[l]);
  }
}

}  // namespace dyng::cycle_count::detail
