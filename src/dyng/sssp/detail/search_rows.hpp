// The out-rows a sequential search reads, in two shapes behind one interface (begin, end,
// neighbour, weight, and prefetch hints): the graph's own rows with one weight column, or a
// packed copy of one objective's rows when the graph keeps K > 1 weights per slot.
//
// Why the copy: the weights are slot-major, so a search that reads one column of K = 3 pulls 12
// bytes per slot through the cache for the 4 it uses, from a third stream beside the columns and
// two offset arrays. Packed, a row visit reads one offset pair (usually one cache line) and one
// stream of (neighbour, weight) pairs, which made the Dial search markedly faster with the same
// prefetching (bench/README.md, "Figures behind design choices"), for a copy that costs about the
// weight scan it replaces (validation and the queue choice need that scan anyway, and the copy
// yields the same weight range). The copy lives for one search: 8 bytes per edge with 4-byte ids.
// With K == 1 the column is already contiguous and the graph's rows are read directly.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

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
/// find the stream before the row is done, so the whole row is asked for, not its first line.
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

/// One row of a rows type, as raw pointers: relax_row() copies it into locals, which stay in
/// registers across the queue's stores (read through the rows object, every arc access reloaded
/// the arrays' addresses, because the compiler cannot prove a push leaves them alone).
template <class vid_t>
struct column_row_t {
  const vid_t* col;
  const int32_t* w;
  int64_t stride;
  int64_t size;
  vid_t neighbour(int64_t i) const { return col[i]; }
  int64_t weight(int64_t i) const { return w[i * stride]; }
};

/// The graph's rows and one weight column.
template <class vid_t, class eid_t>
struct column_rows_t {
  adjacency_view_t<vid_t, eid_t> view;
  weight_column_t w;

  eid_t begin(vid_t u) const { return view.row_begin[u]; }
  eid_t end(vid_t u) const { return view.row_end[u]; }
  vid_t neighbour(eid_t slot) const { return view.col[slot]; }
  int64_t weight(eid_t slot) const { return w(slot); }
  column_row_t<vid_t> row(vid_t u) const {
    const eid_t b = view.row_begin[u];
    return {view.col + b, w.base + static_cast<int64_t>(b) * w.stride, w.stride,
            static_cast<int64_t>(view.row_end[u] - b)};
  }
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

template <class vid_t>
struct packed_row_t {
  const packed_arc_t<vid_t>* arcs;
  int64_t size;
  vid_t neighbour(int64_t i) const { return arcs[i].to; }
  int64_t weight(int64_t i) const { return arcs[i].weight; }
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
  packed_row_t<vid_t> row(vid_t u) const {
    return {arcs.data() + begin(u), static_cast<int64_t>(end(u) - begin(u))};
  }
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

/// All objectives' rows in one packed copy, for a caller that runs a search per objective (mosp's
/// trees): row u is arcs[offsets[u], offsets[u + 1]), each arc the neighbour and the K weights
/// in `bits` bits each (32 / K) of one word. One pass over the graph instead of K, and the arcs
/// stay 8 bytes with 4-byte ids, so a search reads the same bytes as on its own copy (separate
/// packs are a sizeable part of a mosp compute: bench/cpp/mosp_timing.cpp).
/// Usable only when every weight fits its field and is at least 1 (then no search can refuse
/// a weight, so nothing needs the first bad slot); otherwise `usable` is false and each search
/// packs its own objective as before, which also words the refusal.
template <class vid_t, class eid_t>
struct packed_objectives_t {
  struct arc_t {
    vid_t to;
    uint32_t weights;
  };
  zeroed_array<eid_t> offsets;  ///< n + 1 entries
  zeroed_array<arc_t> arcs;
  int num_objectives = 0;
  int bits = 0;
  std::vector<int64_t> max_weight;  ///< Per objective.
  bool usable = false;
};

/// K objectives share a word only while each gets enough bits for weights up to 255.
inline constexpr int k_max_packed_objectives = 4;

/// One row of one objective of a packed_objectives_t.
template <class arc_t>
struct objective_row_t {
  const arc_t* arcs;
  int64_t size;
  int shift;
  uint32_t mask;
  auto neighbour(int64_t i) const { return arcs[i].to; }
  int64_t weight(int64_t i) const {
    return static_cast<int64_t>((arcs[i].weights >> shift) & mask);
  }
};

/// One objective of a packed_objectives_t, read through the search-rows interface.
template <class vid_t, class eid_t>
struct objective_rows_t {
  const packed_objectives_t<vid_t, eid_t>* pack;
  int shift;
  uint32_t mask;

  eid_t begin(vid_t u) const { return pack->offsets[static_cast<size_t>(u)]; }
  eid_t end(vid_t u) const { return pack->offsets[static_cast<size_t>(u) + 1]; }
  vid_t neighbour(eid_t j) const { return pack->arcs[static_cast<size_t>(j)].to; }
  int64_t weight(eid_t j) const {
    return static_cast<int64_t>((pack->arcs[static_cast<size_t>(j)].weights >> shift) & mask);
  }
  objective_row_t<typename packed_objectives_t<vid_t, eid_t>::arc_t> row(vid_t u) const {
    return {pack->arcs.data() + begin(u), static_cast<int64_t>(end(u) - begin(u)), shift, mask};
  }
  void prefetch_offsets(vid_t u) const { prefetch(pack->offsets.data() + u); }
  void prefetch_row(vid_t u) const {
    prefetch_lines(pack->arcs.data() + begin(u), pack->arcs.data() + end(u));
  }
};

template <class vid_t, class eid_t>
objective_rows_t<vid_t, eid_t> rows_of_objective(const packed_objectives_t<vid_t, eid_t>& pack,
                                                 int objective) {
  return {&pack, objective * pack.bits, (uint32_t{1} << pack.bits) - 1};
}

/// pack_objectives() for K known at compile time: the per-slot loop over the objectives unrolls
/// (with K a run-time value it cost about 15 cycles a slot, most of the pass on R-MAT 20).
/// Folds the smallest and largest weight of each objective into low/high.
template <int K, class vid_t, class eid_t>
void pack_objective_rows(const adjacency_view_t<vid_t, eid_t>& out, vid_t first, vid_t last,
                         const eid_t* offsets,
                         typename packed_objectives_t<vid_t, eid_t>::arc_t* arcs, int32_t* low,
                         int32_t* high) {
  constexpr int bits = 32 / K;
  constexpr uint32_t mask = (uint32_t{1} << bits) - 1;
  const int stride = out.num_weights;
  int32_t lo[K], hi[K];
  for (int i = 0; i < K; ++i) {
    lo[i] = low[i];
    hi[i] = high[i];
  }
  // How far ahead the column and weight streams are prefetched, in slots: the graph's rows are
  // short runs between gaps of headroom, and the hardware prefetcher alone falls behind.
  // Addresses are formed as integers, as in prefetch_lines(): near the end they pass the arrays.
  constexpr int64_t ahead = 1024;
  const auto col_base = reinterpret_cast<std::uintptr_t>(out.col);
  const auto weight_base = reinterpret_cast<std::uintptr_t>(out.weights);
  const auto weight_bytes = static_cast<std::uintptr_t>(stride) * sizeof(int32_t);
  for (vid_t u = first; u < last; ++u) {
    eid_t at = offsets[u];
    const eid_t end = out.end(u);
    for (eid_t slot = out.begin(u); slot < end; ++slot, ++at) {
      const int32_t* w = out.weights + static_cast<int64_t>(slot) * stride;
      if ((slot & 15) == 0) {  // a line of columns and the weight lines of 16 slots
        const auto next = static_cast<std::uintptr_t>(slot + ahead);
        prefetch(reinterpret_cast<const void*>(col_base + next * sizeof(vid_t)));
        const std::uintptr_t from = weight_base + next * weight_bytes;
        for (std::uintptr_t b = 0; b < 16 * weight_bytes; b += 64) {
          prefetch(reinterpret_cast<const void*>(from + b));
        }
      }
      uint32_t word = 0;
      for (int i = 0; i < K; ++i) {
        lo[i] = w[i] < lo[i] ? w[i] : lo[i];
        hi[i] = w[i] > hi[i] ? w[i] : hi[i];
        word |= (static_cast<uint32_t>(w[i]) & mask) << (i * bits);
      }
      arcs[at] = {out.col[slot], word};
    }
  }
  for (int i = 0; i < K; ++i) {
    low[i] = lo[i];
    high[i] = hi[i];
  }
}

/// Packs the first `k` weight columns of `out` (2 <= k <= k_max_packed_objectives) on
/// `threads` threads; `pack.usable` says whether every weight fitted (see packed_objectives_t).
template <class vid_t, class eid_t>
void pack_objectives(const adjacency_view_t<vid_t, eid_t>& out, int k, int threads,
                     packed_objectives_t<vid_t, eid_t>& pack) {
  using arc_t = typename packed_objectives_t<vid_t, eid_t>::arc_t;
  const vid_t n = out.num_vertices;
  pack.usable = false;
  if (k < 2 || k > k_max_packed_objectives || k > out.num_weights) return;
  pack.num_objectives = k;
  pack.bits = 32 / k;
  const auto limit = static_cast<int32_t>((int64_t{1} << pack.bits) - 1);
  pack.offsets = {};
  pack.offsets.resize(static_cast<size_t>(n) + 1);
  eid_t* offsets = pack.offsets.data();
  eid_t m = 0;
  for (vid_t u = 0; u < n; ++u) {
    offsets[u] = m;
    m += out.degree(u);
  }
  offsets[n] = m;
  pack.arcs = {};
  pack.arcs.resize(static_cast<size_t>(m));
  pack.arcs.prefer_huge_pages();  // every page is written, and the searches read them at random
  arc_t* arcs = pack.arcs.data();
  // Per thread and objective: the smallest and largest weight, merged after.
  const int team = std::max(1, threads);
  std::vector<int32_t> lows(static_cast<size_t>(team) * k, INT32_MAX);
  std::vector<int32_t> highs(static_cast<size_t>(team) * k, INT32_MIN);
  // Blocks of rows, few enough that a block's scheduling costs nothing next to its rows.
  constexpr vid_t k_rows_per_block = 16384;
  const vid_t blocks = (n + k_rows_per_block - 1) / k_rows_per_block;
#pragma omp parallel for num_threads(team) schedule(dynamic, 1) if (team > 1)
  for (vid_t block = 0; block < blocks; ++block) {
    int t = 0;
#if defined(_OPENMP)
    t = omp_get_thread_num();
#endif
    const vid_t first = block * k_rows_per_block;
    const vid_t last = std::min<vid_t>(n, first + k_rows_per_block);
    int32_t* low = lows.data() + static_cast<size_t>(t) * k;
    int32_t* high = highs.data() + static_cast<size_t>(t) * k;
    switch (k) {
      case 2: pack_objective_rows<2>(out, first, last, offsets, arcs, low, high); break;
      case 3: pack_objective_rows<3>(out, first, last, offsets, arcs, low, high); break;
      default: pack_objective_rows<4>(out, first, last, offsets, arcs, low, high); break;
    }
  }
  pack.max_weight.assign(static_cast<size_t>(k), 0);
  bool fits = true;
  for (int i = 0; i < k; ++i) {
    int32_t low = INT32_MAX, high = INT32_MIN;
    for (int t = 0; t < team; ++t) {
      low = std::min(low, lows[static_cast<size_t>(t) * k + i]);
      high = std::max(high, highs[static_cast<size_t>(t) * k + i]);
    }
    if (m > 0 && (low < 1 || high > limit)) fits = false;
    pack.max_weight[static_cast<size_t>(i)] = m > 0 ? high : 0;
  }
  pack.usable = fits;
  if (!fits) {  // the searches pack their own objectives; give the memory back now
    pack.offsets = {};
    pack.arcs = {};
  }
}

}  // namespace dyng::sssp::detail
