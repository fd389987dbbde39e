// A stable counting sort of item indices by a vertex key, cache-friendly for large graphs.
//
// A one-pass counting sort over a million rows keeps a million write fronts open, so nearly
// every write misses the cache and the TLB. Two passes (a coarse digit of at most 2^11 fronts,
// then the exact key inside each coarse bucket's contiguous range) keep the fronts cached. On the
// 16M-edge benchmark graph it cut from_edges' CPU time by about 15% (the rest is random reads
// that no ordering avoids).
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

}  // namespace dyng::detail
