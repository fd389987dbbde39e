// Dial's monotone bucket queue (R. B. Dial, "Algorithm 360: shortest-path forest with topological
// ordering", CACM 1969), with circular buckets.
//
// With integer weights in [1, W], every tentative distance waiting in a Dijkstra queue lies in
// [d, d + W] where d is the distance being settled, so C >= W + 1 circular buckets hold each
// distance in its own bucket. Push is an append, pop takes a whole bucket, and there is no
// decrease-key: a vertex is pushed again when it improves and stale entries are skipped by
// comparing with the distance array. A two-level occupancy bitmap finds the next non-empty
// bucket in O(C / 4096) words, so sparse frontiers with large W do not scan empty buckets one by
// one. Requirements: weights >= 1 and <= max_weight; pushes in [current, current + max_weight].
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace dyng::sssp::detail {

template <class vid_t>
class dial_queue_t {
 public:
  explicit dial_queue_t(int64_t max_weight) {
    uint64_t buckets = 64;
    while (buckets < static_cast<uint64_t>(max_weight) + 1) buckets <<= 1;
    mask_ = buckets - 1;
    buckets_.resize(buckets);
    words_.assign(buckets / 64, 0);
    summary_.assign((words_.size() + 63) / 64, 0);
  }

  bool empty() const { return size_ == 0; }

  /// Adds v at distance d (current() <= d <= current() + max_weight).
  void push(vid_t v, int64_t d) {
    const uint64_t index = static_cast<uint64_t>(d) & mask_;
    buckets_[index].push_back(v);
    words_[index >> 6] |= uint64_t{1} << (index & 63);
    summary_[index >> 12] |= uint64_t{1} << ((index >> 6) & 63);
    ++size_;
  }

  /// Moves to the lowest non-empty bucket and returns its distance. Requires !empty().
  int64_t advance() {
    const uint64_t from = static_cast<uint64_t>(current_) & mask_;
    const uint64_t index = next_occupied(from);
    current_ += static_cast<int64_t>((index - from) & mask_);
    return current_;
  }

  /// The bucket of current(); entries pushed while it is being read land in other buckets.
  std::vector<vid_t>& bucket() { return buckets_[static_cast<uint64_t>(current_) & mask_]; }

  /// Empties the current bucket after it has been processed.
  void pop_bucket() {
    const uint64_t index = static_cast<uint64_t>(current_) & mask_;
    size_ -= buckets_[index].size();
    buckets_[index].clear();
    uint64_t& word = words_[index >> 6];
    word &= ~(uint64_t{1} << (index & 63));
    if (word == 0) summary_[index >> 12] &= ~(uint64_t{1} << ((index >> 6) & 63));
  }

  int64_t current() const { return current_; }

 private:
  static constexpr uint64_t k_none = ~uint64_t{0};

  // First occupied bucket at or after `from` in ring order.
  uint64_t next_occupied(uint64_t from) const {
    const uint64_t word = from >> 6;
    const uint64_t bits = words_[word] & (~uint64_t{0} << (from & 63));
    if (bits != 0) return (word << 6) + std::countr_zero(bits);
    uint64_t found = occupied_word_from(word + 1);
    if (found == k_none) found = occupied_word_from(0);
    return (found << 6) + std::countr_zero(words_[found]);
  }

  // First non-zero occupancy word with index >= first, or k_none.
  uint64_t occupied_word_from(uint64_t first) const {
    if (first >= words_.size()) return k_none;
    uint64_t s = first >> 6;
    uint64_t bits = summary_[s] & (~uint64_t{0} << (first & 63));
    while (bits == 0) {
      if (++s >= summary_.size()) return k_none;
      bits = summary_[s];
    }
    return (s << 6) + std::countr_zero(bits);
  }

  std::vector<std::vector<vid_t>> buckets_;
  std::vector<uint64_t> words_;    // bit i: bucket i is non-empty
  std::vector<uint64_t> summary_;  // bit j: words_[j] != 0
  uint64_t mask_ = 0;
  int64_t current_ = 0;
  uint64_t size_ = 0;
};

}  // namespace dyng::sssp::detail
