// A radix heap for monotone integer priority queues (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster
// algorithms for the shortest path problem", JACM 1990; the one-level binary variant).
//
// Keys are int64 distances that never go below the last key popped, which Dijkstra guarantees for
// weights >= 1. Bucket i holds keys whose highest bit differing from `last` is bit i - 1 (bucket 0:
// keys equal to `last`); each key moves to a lower bucket at most 64 times, so push and pop are
// amortised O(log C) for any weight range. Used where Dial's buckets do not fit: large weights,
// and update(), whose seeds start at arbitrary distances.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace dyng::sssp::detail {

template <class vid_t>
class radix_heap_t {
 public:
  struct entry_t {
    int64_t key;
    vid_t vertex;
  };

  bool empty() const { return size_ == 0; }
  int64_t size() const { return static_cast<int64_t>(size_); }

  /// Adds (key, v); requires key >= the last key popped.
  void push(vid_t v, int64_t key) {
    buckets_[bucket_of(key)].push_back({key, v});
    ++size_;
  }

  /// Makes every entry with the minimum key sit in the bucket returned by minimum_bucket() and
  /// returns that key. Requires !empty().
  int64_t advance() {
    if (buckets_[0].empty()) {
      int i = 1;
      while (buckets_[i].empty()) ++i;
      int64_t smallest = buckets_[i][0].key;
      for (const entry_t& e : buckets_[i]) smallest = e.key < smallest ? e.key : smallest;
      last_ = smallest;
      // Every entry of bucket i shares the bits above i - 1 with the new `last`, so it lands in
      // a bucket below i and the loop never appends to the vector it reads.
      for (const entry_t& e : buckets_[i]) buckets_[bucket_of(e.key)].push_back(e);
      buckets_[i].clear();
    }
    return last_;
  }

  /// Entries with key == the value advance() returned; pushes while reading land elsewhere
  /// because keys pushed during processing are larger.
  std::vector<entry_t>& minimum_bucket() { return buckets_[0]; }

  void pop_minimum_bucket() {
    size_ -= buckets_[0].size();
    buckets_[0].clear();
  }

 private:
  int bucket_of(int64_t key) const {
    const uint64_t diff = static_cast<uint64_t>(key ^ last_);
    return diff == 0 ? 0 : 64 - std::countl_zero(diff);
  }

  std::array<std::vector<entry_t>, 65> buckets_;
  int64_t last_ = 0;
  uint64_t size_ = 0;
};

}  // namespace dyng::sssp::detail
