// The set of ids a file uses, for renumbering them 0..n-1 in ascending order: one bit per id of
// [lo, lo + span) and, per 64 ids, how many set bits come before them, so an id's new number
// (its rank) is one word, one count and a popcount. For a file with ids up to 2 million that is
// 384 KiB, which stays in a core's L2 cache while 40 million ids are looked up in random order;
// the table of one 32-bit rank per id it replaces was 8 MiB, and a comparison sort of the ids
// (the way for ids too sparse for either) costs several passes over 16 bytes per edge.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace dyng::io {

/// Set bits of x. std::popcount compiles to a libgcc call for the baseline x86-64 that wheels
/// target (no POPCNT instruction); this is a handful of inline operations.
inline int count_bits(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
  return static_cast<int>((x * 0x0101010101010101u) >> 56);
}

/// Ids of [lo, lo + span) as a bitmap; ranks once count_ranks() has run.
class id_ranks_t {
 public:
  id_ranks_t(int64_t lo, uint64_t span) : lo_(lo), bits_(static_cast<size_t>(span / 64 + 1)) {}

  /// Adds an id of the range (not safe against a concurrent add to the same word: give each
  /// thread its own set and merge them with add_all()).
  void add(int64_t id) {
    const auto i = static_cast<uint64_t>(id - lo_);
    bits_[i >> 6] |= uint64_t{1} << (i & 63);
  }
  /// Adds the ids of `other` (same lo and span) among words [first, last).
  void add_all(const id_ranks_t& other, size_t first, size_t last) {
    for (size_t w = first; w < last; ++w) bits_[w] |= other.bits_[w];
  }
  size_t words() const { return bits_.size(); }

  /// Counts the ids before each word; returns how many ids the set has.
  int64_t count_ranks() {
    before_.resize(bits_.size());
    int64_t n = 0;
    for (size_t w = 0; w < bits_.size(); ++w) {
      before_[w] = static_cast<uint32_t>(n);
      n += count_bits(bits_[w]);
    }
    return n;
  }

  /// The rank of an id of the set: how many smaller ids it has (count_ranks() first; the set
  /// has fewer than 2^32 ids).
  uint32_t rank(int64_t id) const {
    const auto i = static_cast<uint64_t>(id - lo_);
    const uint64_t below = (uint64_t{1} << (i & 63)) - 1;
    return before_[i >> 6] + static_cast<uint32_t>(count_bits(bits_[i >> 6] & below));
  }

  /// Writes the ids of words [first, last) in ascending order to out + (rank of the first).
  void list(int64_t* out, size_t first, size_t last) const {
    for (size_t w = first; w < last; ++w) {
      int64_t* at = out + before_[w];
      for (uint64_t b = bits_[w]; b != 0; b &= b - 1)
        *at++ = lo_ + static_cast<int64_t>(w * 64) + std::countr_zero(b);
    }
  }

 private:
  int64_t lo_;
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> before_;
};

}  // namespace dyng::io
