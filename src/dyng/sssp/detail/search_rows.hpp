// The out-rows a sequential search reads, in two shapes behind one interface (begin, end,
// neighbour, weight, and prefetch hints): the graph's own rows with one weight column, or a
// packed copy of one objective's rows when the graph keeps K > 1 weights per slot.
//
// Why the copy: the weights are slot-major, so a search that reads one column of K = 3 pulls 12
// bytes per slot through the cache for the 4 it uses, from a third stream beside the columns and
// two offset arrays. Packed, a row visit reads one offset pair (usually one cache line) and one
// stream of (neighbour, weight) pairs: on R-MAT 20 with K = 3 the Dial search took 190-250 ms
// instead of 300-360 ms with the same prefetching, for a copy that costs about the weight scan it
// replaces (validation and the queue choice need that scan anyway, and the copy yields the same
// weight range). The copy lives for one search: 8 bytes per edge with 4-byte ids. With K == 1 the
// column is already contiguous and the graph's rows are read directly.
#pragma once

#include <climits>
#include <cstdint>

#include "dyng/core/zeroed_array.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/detail/sssp_common.hpp"

namespace dyng::sssp::detail {

/// A hint that `address` will be read soon; a no-op where the compiler has no such builtin.
///
/// On x86-64 it is an asm statement rather than __builtin_prefetch: GCC 12 treats the builtin as
/// free of side effects, and its control-dependent dead-code pass (with C++'s finite-loop rule)
/// dropped every row prefetch of the Dial search, the loop over a row's lines and the single
/// line before it alike, leaving only the offset and distance hints.
inline void prefetch(const void* address) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  asm volatile("prefetcht0 (%0)" : : "r"(address));
#elif defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address);
#else
  (void)address;
#endif
}

/// Cache lines of a row that a search prefetches before it relaxes the row: a row as long as
/// R-MAT's mean (about 30 arcs) spans 4 lines packed, too short for the hardware prefetcher to
/// find the stream before the row is done (R-MAT 20, one objective's Dial search: 4 lines with
/// stale entries skipped took 160-240 ms where the first line alone took 250-300).
inline constexpr int k_row_prefetch_lines = 4;

/// Prefetches the cache lines of [first, last), at most k_row_prefetch_lines of them.
template <class T>
inline void prefetch_lines(const T* first, const T* last) {
  // Addresses as integers: stepping a pointer past `last` would be undefined.
  const auto stop = reinterpret_cast<std::uintptr_t>(last);
  auto at = reinterpret_cast<std::uintptr_t>(first);
  for (int line = 0; line < k_row_prefetch_lines && at < stop; ++line, at += 64) {
    prefetch(reinterpret_cast<const void*>(at));
  }
}

/// The graph's rows and one weight column.
template <class vid_t, class eid_t>
struct column_rows_t {
  adjacency_view_t<vid_t, eid_t> view;
  weight_column_t w;

  eid_t begin(vid_t u) const { return view.row_begin[u]; }
  eid_t end(vid_t u) const { return view.row_end[u]; }
  vid_t neighbour(eid_t slot) const { return view.col[slot]; }
  int64_t weight(eid_t slot) const { return w(slot); }
  void prefetch_offsets(vid_t u) const {
    prefetch(view.row_begin + u);
    prefetch(view.row_end + u);
  }
  void prefetch_row(vid_t u) const {
    const eid_t b = view.row_begin[u];
    prefetch_lines(view.col + b, view.col + view.row_end[u]);
    prefetch_lines(w.base + static_cast<int64_t>(b) * w.stride,
                   w.base + static_cast<int64_t>(view.row_end[u]) * w.stride);
  }
};

template <class vid_t>
struct packed_arc_t {
  vid_t to;
  int32_t weight;
};

/// One objective's rows, compact: row u is arcs[offsets[u], offsets[u + 1]) in the graph's order.
template <class vid_t, class eid_t>
struct packed_rows_t {
  zeroed_array<eid_t> offsets;  ///< n + 1 entries
  zeroed_array<packed_arc_t<vid_t>> arcs;

  eid_t begin(vid_t u) const { return offsets[static_cast<size_t>(u)]; }
  eid_t end(vid_t u) const { return offsets[static_cast<size_t>(u) + 1]; }
  vid_t neighbour(eid_t j) const { return arcs[static_cast<size_t>(j)].to; }
  int64_t weight(eid_t j) const { return arcs[static_cast<size_t>(j)].weight; }
  void prefetch_offsets(vid_t u) const { prefetch(offsets.data() + u); }
  void prefetch_row(vid_t u) const { prefetch_lines(arcs.data() + begin(u), arcs.data() + end(u)); }
};

/// Packs column `w` of `out` and folds its weights into `range` exactly as scan_weights() does
/// (the first slot, in row order, holding the smallest weight), in the same single pass.
template <class vid_t, class eid_t>
void pack_rows(const adjacency_view_t<vid_t, eid_t>& out, weight_column_t w,
               packed_rows_t<vid_t, eid_t>& rows, weight_range_t<vid_t, eid_t>& range) {
  const vid_t n = out.num_vertices;
  int64_t m = 0;
  for (vid_t u = 0; u < n; ++u) m += out.degree(u);
  // Blocks from an earlier pack of as many rows are reused as they are (every slot is written
  // below); new ones get huge pages: every page is written, and the search reads them at random.
  auto fit = [](auto& array, size_t count) {
    if (array.size() == count) return;
    array = {};
    array.resize(count);
    array.prefer_huge_pages();
  };
  fit(rows.offsets, static_cast<size_t>(n) + 1);
  fit(rows.arcs, static_cast<size_t>(m));
  eid_t* offsets = rows.offsets.data();
  packed_arc_t<vid_t>* arcs = rows.arcs.data();
  eid_t at = 0;
  for (vid_t u = 0; u < n; ++u) {
    offsets[u] = at;
    const eid_t begin = out.begin(u), end = out.end(u);
    int32_t row_min = INT32_MAX, row_max = INT32_MIN;
    for (eid_t slot = begin; slot < end; ++slot) {
      const int32_t weight = static_cast<int32_t>(w(slot));
      arcs[at++] = {out.col[slot], weight};
      row_min = weight < row_min ? weight : row_min;
      row_max = weight > row_max ? weight : row_max;
    }
    if (begin == end) continue;
    if (row_max > range.max_weight) range.max_weight = row_max;
    if (row_min < range.min_weight) {
      range.min_weight = row_min;
      range.min_src = u;
      range.min_slot = begin;
      while (w(range.min_slot) != row_min) ++range.min_slot;
    }
  }
  offsets[n] = at;
}

}  // namespace dyng::sssp::detail
