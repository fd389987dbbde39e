// A stable counting sort of item indices by a vertex key, cache-friendly for large graphs.
//
// A one-pass counting sort over a million rows keeps a million write fronts open, so nearly
// every write misses the cache and the TLB. Two passes (a coarse digit of at most 2^11 fronts,
// then the exact key inside each coarse bucket's contiguous range) keep the fronts cached, at the
// price of one more pass over sequential memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace dyng::detail {

/// Items 0..m-1 ordered stably by key(i) in [0, n): fills `order` (order[p] = item) and
/// `start` (n + 1 offsets: key v owns positions [start[v], start[v + 1])).
template <class key_fn>
void bucket_order(int64_t n, int64_t m, key_fn&& key, std::vector<int64_t>& order,
                  std::vector<int64_t>& start) {
  start.assign(static_cast<size_t>(n) + 1, 0);
  order.resize(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) ++start[static_cast<size_t>(key(i)) + 1];
  for (int64_t v = 0; v < n; ++v) start[v + 1] += start[v];

  constexpr int64_t k_direct_limit = int64_t{1} << 16;  // fronts that stay cached
  if (n <= k_direct_limit) {
    std::vector<int64_t> fill(start.begin(), start.end() - 1);
    for (int64_t i = 0; i < m; ++i) order[fill[key(i)]++] = i;
    return;
  }
  int shift = 0;
  while (((n - 1) >> shift) >= 2048) ++shift;
  const int64_t coarse = ((n - 1) >> shift) + 1;
  // Coarse bucket c covers keys [c << shift, (c + 1) << shift), hence positions
  // [start[c << shift], start[min(n, (c + 1) << shift)]).
  std::vector<int64_t> fill(static_cast<size_t>(coarse));
  for (int64_t c = 0; c < coarse; ++c) fill[c] = start[c << shift];
  std::vector<std::pair<int64_t, int64_t>> staged(static_cast<size_t>(m));  // (key, item)
  for (int64_t i = 0; i < m; ++i) {
    const int64_t v = key(i);
    staged[fill[v >> shift]++] = {v, i};
  }
  std::vector<int64_t> fine(start.begin(), start.end() - 1);
  for (int64_t c = 0; c < coarse; ++c) {
    const int64_t first = start[c << shift];
    const int64_t last = start[std::min(n, (c + 1) << shift)];
    for (int64_t p = first; p < last; ++p) order[fine[staged[p].first]++] = staged[p].second;
  }
}

/// Stable sort of [first, last) by `less`: insertion sort for the short ranges that a batch's
/// per-row groups mostly are (std::stable_sort allocates a buffer on every call), else
/// std::stable_sort.
template <class It, class less_fn>
void stable_sort_small(It first, It last, less_fn&& less) {
  if (last - first > 32) {
    std::stable_sort(first, last, less);
    return;
  }
  for (It i = first + (first != last ? 1 : 0); i < last; ++i) {
    auto item = std::move(*i);
    It j = i;
    for (; j > first && less(item, *(j - 1)); --j) *j = std::move(*(j - 1));
    *j = std::move(item);
  }
}

/// Reorders `items` stably by key(item) in [0, n). Many items against n (at least n / 8 and
/// 4096): a counting sort that moves the items themselves, O(items + n), in two passes like
/// bucket_order (a coarse digit, then the exact key inside each coarse range) so the write
/// fronts stay cached, and through one spare buffer of the items' size. Otherwise a stable
/// comparison sort, so that a small batch on a large graph does not pay for n.
template <class T, class key_fn>
void stable_sort_by_key(std::vector<T>& items, int64_t n, key_fn&& key) {
  const auto m = static_cast<int64_t>(items.size());
  if (m < 4096 || m < n / 8) {
    std::stable_sort(items.begin(), items.end(),
                     [&](const T& x, const T& y) { return key(x) < key(y); });
    return;
  }
  std::vector<int64_t> start(static_cast<size_t>(n) + 1, 0);
  for (const T& x : items) ++start[static_cast<size_t>(key(x)) + 1];
  for (int64_t v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<T> staged(static_cast<size_t>(m));
  constexpr int64_t k_direct_limit = int64_t{1} << 16;  // fronts that stay cached
  if (n <= k_direct_limit) {
    std::vector<int64_t> fill(start.begin(), start.end() - 1);
    for (const T& x : items) staged[fill[static_cast<size_t>(key(x))]++] = x;
    items.swap(staged);
    return;
  }
  int shift = 0;
  while (((n - 1) >> shift) >= 2048) ++shift;
  const int64_t coarse = ((n - 1) >> shift) + 1;
  std::vector<int64_t> fill(static_cast<size_t>(coarse));
  for (int64_t c = 0; c < coarse; ++c) fill[c] = start[c << shift];
  for (const T& x : items) staged[fill[static_cast<size_t>(key(x)) >> shift]++] = x;
  // Each coarse range of `staged` fills the same range of `items`, key by key.
  std::vector<int64_t> fine(start.begin(), start.end() - 1);
  for (const T& x : staged) items[fine[static_cast<size_t>(key(x))]++] = x;
}

}  // namespace dyng::detail
