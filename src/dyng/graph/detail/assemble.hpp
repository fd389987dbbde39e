// Builds one direction of a graph from a list of entries (row, column, weight index) given in
// "position order": the order in which an append-ordered row should list them. Construction
// (from_edges, from_csr) and the full-rebuild path of apply() share it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/errors.hpp"
#include "dyng/graph/detail/bucket_order.hpp"
#include "dyng/graph/detail/slots.hpp"

namespace dyng::detail {

/// Stable sort of (column, payload) pairs by column: insertion sort for the short rows that
/// dominate real graphs (no allocation), std::stable_sort for long ones.
template <class vid_t, class payload_t>
void stable_sort_row(std::pair<vid_t, payload_t>* first, std::pair<vid_t, payload_t>* last) {
  if (std::is_sorted(first, last, [](const auto& a, const auto& b) { return a.first < b.first; })) {
    return;
  }
  if (last - first <= 32) {
    for (auto* i = first + 1; i < last; ++i) {
      auto item = *i;
      auto* j = i;
      for (; j > first && item.first < (j - 1)->first; --j) *j = *(j - 1);
      *j = item;
    }
    return;
  }
  std::stable_sort(first, last, [](const auto& a, const auto& b) { return a.first < b.first; });
}

/// Fills direction `d` with n rows from entries (rows[i], cols[i], weight row widx[i] of
/// `weights`). Rows list their entries in entry order, or by column (stably) when `sorted`.
template <class D, class vid_t>
void assemble_direction(D& d, int64_t n, std::span<const vid_t> rows, std::span<const vid_t> cols,
                        std::span<const int64_t> widx, const int32_t* weights, int num_weights,
                        bool sorted, double headroom) {
  using eid_t = typename decltype(d.row_begin)::value_type;
  const int64_t m = static_cast<int64_t>(rows.size());
  const int64_t k = num_weights;

  // Stable by row, in entry order within a row.
  std::vector<int64_t> start, order;
  bucket_order(n, m, [&](int64_t i) { return static_cast<int64_t>(rows[i]); }, order, start);
  std::vector<std::pair<vid_t, int64_t>> bucket(static_cast<size_t>(m));
  for (int64_t p = 0; p < m; ++p) bucket[p] = {cols[order[p]], widx[order[p]]};
  order = {};
  if (sorted) {
    for (int64_t v = 0; v < n; ++v)
      stable_sort_row(bucket.data() + start[v], bucket.data() + start[v + 1]);
  }

  // Lay out with headroom; fall back to compact when the offsets type cannot hold the padding.
  int64_t total = tail_slots(m, headroom);
  for (int64_t v = 0; v < n; ++v) {
    const int64_t s = start[v + 1] - start[v];
    total += s + spare_slots(s, headroom);
  }
  const bool padded = total <= static_cast<int64_t>(std::numeric_limits<eid_t>::max());
  if (!padded) total = m;

  d.row_begin = {};
  d.row_end = {};
  d.row_capacity_end = {};
  d.row_begin.resize(static_cast<size_t>(n));
  d.row_end.resize(static_cast<size_t>(n));
  d.row_capacity_end.resize(static_cast<size_t>(n));
  d.col.assign(static_cast<size_t>(total), 0);
  d.weights.assign(static_cast<size_t>(total * k), 0);
  int64_t pos = 0;
  for (int64_t v = 0; v < n; ++v) {
    const int64_t s = start[v + 1] - start[v];
    if (s == 0) continue;  // offsets (0, 0, 0): an empty row has no capacity
    d.row_begin[v] = static_cast<eid_t>(pos);
    d.row_end[v] = static_cast<eid_t>(pos + s);
    for (int64_t j = 0; j < s; ++j) {
      const auto& [c, w] = bucket[start[v] + j];
      d.col[pos + j] = c;
      copy_weights(d.weights.data() + (pos + j) * k, weights + w * k, k);
    }
    pos += padded ? s + spare_slots(s, headroom) : s;
    d.row_capacity_end[v] = static_cast<eid_t>(pos);
  }
  d.tail = static_cast<eid_t>(pos);
}

}  // namespace dyng::detail
