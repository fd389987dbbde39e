// Slot bookkeeping for one direction of a graph: how much room a row gets, moving a row that
// outgrew its range to the free tail, and re-laying out a whole direction.
//
// A direction is any struct with row_begin/row_end/row_capacity_end (n entries each), col, weights
// (K per slot) and tail, i.e. graph_t's direction_t; the functions are templates over it
// so they stay out of the public header.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dyng/core/errors.hpp"
#include "dyng/graph/detail/slot_growth.hpp"

namespace dyng::detail {

/// Throws capacity_error when `count` slots do not fit the offsets type.
template <class eid_t>
void check_slot_count(int64_t count, const char* function) {
  if (count > static_cast<int64_t>(std::numeric_limits<eid_t>::max())) {
    throw capacity_error(std::string(function) + ": the graph has " + std::to_string(count) +
                         " stored edges, more than its edge offset type can address (" +
                         std::to_string(std::numeric_limits<eid_t>::max()) +
                         "); use int64 edge offsets");
  }
}

/// Copies one slot's K weights; K is small (usually 1), where a loop beats a memcpy call.
inline void copy_weights(int32_t* dst, const int32_t* src, int64_t k) {
  for (int64_t i = 0; i < k; ++i) dst[i] = src[i];
}

template <class D>
int64_t row_size(const D& d, int64_t v) {
  return static_cast<int64_t>(d.row_end[v]) - static_cast<int64_t>(d.row_begin[v]);
}

/// What a (re)layout copies into row v: `size` slots from `cols` / `weights`, and the capacity
/// the row gets (at least `size`).
template <class vid_t>
struct row_source_t {
  const vid_t* cols;
  const int32_t* weights;
  int64_t size;
  int64_t capacity;
};

/// Lays a direction out afresh from `source(v, padded)` (a row_source_t per row; `padded` false
/// asks for capacity == size) followed by a free tail of at least `min_tail` and tail_slots()
/// slots. Falls back to a compact layout when the offsets type cannot address the padded one.
template <class D, class source_fn>
void layout_rows(D& d, int num_weights, source_fn&& source, double headroom, int64_t min_tail) {
  using eid_t = typename decltype(d.row_begin)::value_type;
  const int64_t n = static_cast<int64_t>(d.row_begin.size());
  const int64_t k = num_weights;
  const int64_t max_slots = static_cast<int64_t>(std::numeric_limits<eid_t>::max());

  int64_t used = 0, total = 0;
  for (int64_t v = 0; v < n; ++v) {
    const auto row = source(v, true);
    used += row.size;
    total += row.capacity;
  }
  bool padded = true;
  total += std::max(min_tail, tail_slots(used, headroom));
  if (total > max_slots) {
    // The offsets type is the limit: give up slack rather than fail.
    padded = false;
    total = 0;
    for (int64_t v = 0; v < n; ++v) total += source(v, false).capacity;
    if (total > max_slots) {
      throw capacity_error("Graph.apply(): the graph needs " + std::to_string(total) +
                           " edge slots, more than its offset type can address (" +
                           std::to_string(max_slots) + "); build it with int64 edge offsets");
    }
  }

  std::vector<typename decltype(d.col)::value_type> col(static_cast<size_t>(total));
  std::vector<int32_t> weights(static_cast<size_t>(total * k));
  int64_t pos = 0;
  for (int64_t v = 0; v < n; ++v) {
    const auto row = source(v, padded);
    if (row.size > 0) {
      std::memcpy(col.data() + pos, row.cols, sizeof(col[0]) * static_cast<size_t>(row.size));
      if (k > 0) {
        std::memcpy(weights.data() + pos * k, row.weights,
                    sizeof(int32_t) * static_cast<size_t>(row.size * k));
      }
    }
    if (row.capacity == 0) {
      // An empty row without room keeps (or gets) offsets (0, 0, 0); its pages stay untouched.
      if (d.row_capacity_end[v] != 0) d.row_begin[v] = d.row_end[v] = d.row_capacity_end[v] = 0;
      continue;
    }
    d.row_begin[v] = static_cast<eid_t>(pos);
    d.row_end[v] = static_cast<eid_t>(pos + row.size);
    pos += row.capacity;
    d.row_capacity_end[v] = static_cast<eid_t>(pos);
  }
  d.tail = static_cast<eid_t>(pos);
  d.col.swap(col);
  d.weights.swap(weights);
}

/// The current content of row v as a layout source, with size + spare(v, size) capacity.
template <class D, class spare_fn>
auto stored_row(const D& d, int num_weights, int64_t v, bool padded, spare_fn&& spare) {
  using vid_t = typename decltype(d.col)::value_type;
  const int64_t b = d.row_begin[v];
  const int64_t s = row_size(d, v);
  return row_source_t<vid_t>{d.col.data() + b, d.weights.data() + b * num_weights, s,
                             padded ? s + spare(v, s) : s};
}

/// Re-lays out a direction keeping its content: row v gets its size plus spare(v, size) slots.
template <class D, class spare_fn>
void relayout(D& d, int num_weights, spare_fn&& spare, double headroom, int64_t min_tail) {
  layout_rows(
      d, num_weights,
      [&](int64_t v, bool padded) { return stored_row(d, num_weights, v, padded, spare); },
      headroom, min_tail);
}

/// Copies `size` slots (columns + K weights each) to the start of row v's range, which must hold
/// them, and ends the row there.
template <class D, class vid_t>
void write_row_content(D& d, int64_t v, const vid_t* cols, const int32_t* weights, int64_t size,
                       int num_weights) {
  using eid_t = typename decltype(d.row_begin)::value_type;
  const int64_t k = num_weights;
  const int64_t b = d.row_begin[v];
  if (size > 0) {
    std::memmove(d.col.data() + b, cols, sizeof(vid_t) * static_cast<size_t>(size));
    if (k > 0) {
      std::memmove(d.weights.data() + b * k, weights,
                   sizeof(int32_t) * static_cast<size_t>(size * k));
    }
  }
  d.row_end[v] = static_cast<eid_t>(b + size);
}

/// Writes `size` slots (columns + K weights each) as the new content of row v: in place when the
/// row's range is large enough, else in a fresh range at the tail (re-laying out the direction
/// first when the tail is exhausted, after calling before_relayout()). Returns true when it had
/// to re-lay out.
template <class D, class vid_t, class before_relayout_fn>
bool store_row(D& d, int64_t v, const vid_t* cols, const int32_t* weights, int64_t size,
               int num_weights, double headroom, before_relayout_fn&& before_relayout) {
  using eid_t = typename decltype(d.row_begin)::value_type;
  bool relaid = false;
  if (static_cast<int64_t>(d.row_begin[v]) + size > static_cast<int64_t>(d.row_capacity_end[v])) {
    const int64_t cap = moved_capacity(size, headroom);
    if (static_cast<int64_t>(d.tail) + cap > static_cast<int64_t>(d.col.size())) {
      before_relayout();
      // Row v's old content is stale (the caller holds the new one): lay it out empty with
      // room for the new content, which is written below.
      using vid_type = typename decltype(d.col)::value_type;
      auto spare = [&](int64_t, int64_t s) { return spare_slots(s, headroom); };
      layout_rows(
          d, num_weights,
          [&](int64_t u, bool padded) {
            return u == v ? row_source_t<vid_type>{nullptr, nullptr, 0, cap}
                          : stored_row(d, num_weights, u, padded, spare);
          },
          headroom, 0);
      relaid = true;
    } else {
      d.row_begin[v] = d.tail;
      d.row_capacity_end[v] = static_cast<eid_t>(static_cast<int64_t>(d.tail) + cap);
      d.tail = d.row_capacity_end[v];
    }
  }
  write_row_content(d, v, cols, weights, size, num_weights);
  return relaid;
}

/// Adds empty rows (no capacity, offsets (0, 0, 0) on untouched pages) up to `n` rows; used when
/// a batch grows the vertex set.
template <class D>
void grow_rows(D& d, int64_t n) {
  d.row_begin.resize(static_cast<size_t>(n));
  d.row_end.resize(static_cast<size_t>(n));
  d.row_capacity_end.resize(static_cast<size_t>(n));
}

}  // namespace dyng::detail
