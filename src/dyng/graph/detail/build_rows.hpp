// Builds one direction straight from an edge list (from_edges) in a few sequential passes:
//
//   1. count each row's entries and lay the rows out with the headroom of their raw counts;
//   2. scatter every entry (column + payload) into its row's range, in input order;
//   3. per row: sort by column only when the row is not sorted already, and merge repeated
//      columns in place (first position kept, last payload wins);
//   4. slide the rows left into the final layout of their merged sizes (a row never moves right,
//      because merging only shrinks a row and its capacity), zeroing the spare slots.
//
// The payload is the entry's weight when K == 1 (so the weights are scattered along with the
// columns and no gather is needed) and the input index otherwise. The in-edges of a sorted
// directed graph are then a counting-sort transpose of the finished out-rows: walking the
// out-rows in order lists each in-row's sources ascending, copies in out-row order, which is
// exactly the stable sort that the sorted layout asks for.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "dyng/core/huge_pages.hpp"
#include "dyng/core/zeroed_array.hpp"
#include "dyng/graph/detail/slots.hpp"

namespace dyng::detail {

/// The rows a pass over a direction visits, ascending: all n, or, when the entries are few
/// against n, only the rows that have any. Ids are not renumbered, so `num_vertices=10**8` with a
/// handful of edges is a valid graph; with the sparse walk it builds in time proportional to its
/// edges, and the per-row arrays of the other rows are never read or written.
class row_walk_t {
 public:
  /// Sparse below one entry per k_sparse_factor rows: sorting the entries' rows then costs less
  /// than a pass over all of them.
  static constexpr int64_t k_sparse_factor = 16;

  /// The walk over the rows named by row_of(i) for i < count (an entry's row).
  template <class row_fn>
  static row_walk_t of(int64_t n, int64_t count, row_fn&& row_of) {
    row_walk_t walk;
    walk.n_ = n;
    if (count >= n / k_sparse_factor) return walk;
    walk.sparse_ = true;
    walk.rows_.resize(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) walk.rows_[i] = static_cast<int64_t>(row_of(i));
    std::sort(walk.rows_.begin(), walk.rows_.end());
    walk.rows_.erase(std::unique(walk.rows_.begin(), walk.rows_.end()), walk.rows_.end());
    return walk;
  }

  bool sparse() const noexcept { return sparse_; }
  /// Rows visited; row(j) is the j-th, ascending.
  int64_t size() const noexcept { return sparse_ ? static_cast<int64_t>(rows_.size()) : n_; }
  int64_t row(int64_t j) const noexcept { return sparse_ ? rows_[j] : j; }
  template <class F>
  void each(F&& f) const {
    for (int64_t j = 0, count = size(); j < count; ++j) f(row(j));
  }

 private:
  int64_t n_ = 0;
  bool sparse_ = false;
  std::vector<int64_t> rows_;
};

/// Total slots of a layout of rows with sizes size(v) holding m entries: padded (headroom per row
/// plus a free tail) when the offsets type can address it, else compact (sets `padded` false).
/// Rows outside `rows` are empty.
template <class eid_t, class size_fn>
int64_t layout_total(const row_walk_t& rows, int64_t m, size_fn&& size, double headroom,
                     bool& padded) {
  int64_t total = tail_slots(m, headroom);
  rows.each([&](int64_t v) {
    const int64_t s = size(v);
    total += s + spare_slots(s, headroom);
  });
  padded = total <= static_cast<int64_t>(std::numeric_limits<eid_t>::max());
  return padded ? total : m;
}

/// Sizes `v` to `count` zeroed elements, huge-page backed where possible (core/huge_pages.hpp).
template <class T>
void assign_zeroed(std::vector<T>& v, size_t count) {
  std::vector<T>().swap(v);
  v.reserve(count);
  advise_huge_pages(v.data(), count * sizeof(T));
  v.assign(count, T{});
}

/// One scattered entry: its row (the scatter key), column and payload.
template <class vid_t, class pay_t>
struct scatter_rec_t {
  vid_t row;
  vid_t col;
  pay_t pay;
};

/// Stable scatter of records into their rows: emit(push) calls push(rec) for every record in
/// order, count[v] is how many have row v, and place(rec) writes a record to its row's next slot.
/// A direct scatter over a million rows keeps a million write fronts open, so nearly every write
/// misses the cache and the TLB; large row counts therefore go through a staging array bucketed
/// by a coarse digit (at most 1024 fronts), whose buckets then each fill a small, cached part of
/// the destination (the same idea as bucket_order.hpp).
template <class rec_t, class counts_t, class emit_fn, class place_fn>
void staged_scatter(int64_t n, const counts_t& count, bool rows_ascending, bool few_rows,
                    emit_fn&& emit, place_fn&& place) {
  constexpr int64_t k_direct_limit = int64_t{1} << 16;
  // Records that arrive by ascending row are written sequentially anyway, and a sparse walk's
  // few rows keep few write fronts.
  if (n <= k_direct_limit || rows_ascending || few_rows) {
    emit([&](const rec_t& r) { place(r); });
    return;
  }
  int shift = 0;
  while (((n - 1) >> shift) >= 1024) ++shift;
  const int64_t coarse = ((n - 1) >> shift) + 1;
  std::vector<int64_t> front(static_cast<size_t>(coarse) + 1, 0);
  for (int64_t v = 0; v < n; ++v) front[(v >> shift) + 1] += count[v];
  for (int64_t c = 0; c < coarse; ++c) front[c + 1] += front[c];
  // Not value-initialised: every record is written before it is read.
  const int64_t m = front[coarse];
  std::unique_ptr<rec_t[]> staged(new rec_t[static_cast<size_t>(m)]);
  advise_huge_pages(staged.get(), sizeof(rec_t) * static_cast<size_t>(m));
  std::vector<int64_t> bucket_begin(front.begin(), front.end() - 1);
  emit([&](const rec_t& r) { staged[front[static_cast<int64_t>(r.row) >> shift]++] = r; });
  // Each bucket fills only its own rows, so buckets can be placed concurrently.
#if defined(DYNG_HAVE_OPENMP)
#pragma omp parallel for schedule(dynamic, 4)
#endif
  for (int64_t c = 0; c < coarse; ++c) {
    for (int64_t p = bucket_begin[c]; p < front[c]; ++p) place(staged[p]);
  }
}

/// Reusable buffers of sort_row.
template <class vid_t, class pay_t>
struct sort_scratch_t {
  std::vector<uint64_t> keys;
  std::vector<std::pair<vid_t, pay_t>> pairs;
  std::vector<pay_t> pay;
};

/// Sorts row slots [0, s) of c / p stably by column: insertion sort for the short rows that
/// dominate real graphs; for long ones an unstable sort of (column, position) packed into one
/// 64-bit key (unique keys, so the result is the stable order, and about twice as fast as a
/// stable sort of pairs), or a stable sort of pairs when ids do not fit 32 bits.
template <class vid_t, class pay_t>
void sort_row(vid_t* c, pay_t* p, int64_t s, int64_t n, sort_scratch_t<vid_t, pay_t>& scratch) {
  if (std::is_sorted(c, c + s)) return;
  if (s <= 32) {
    for (int64_t i = 1; i < s; ++i) {
      const vid_t col = c[i];
      const pay_t pay = p[i];
      int64_t j = i;
      for (; j > 0 && col < c[j - 1]; --j) {
        c[j] = c[j - 1];
        p[j] = p[j - 1];
      }
      c[j] = col;
      p[j] = pay;
    }
    return;
  }
  if (n <= (int64_t{1} << 32) && s <= (int64_t{1} << 32)) {
    auto& keys = scratch.keys;
    keys.resize(static_cast<size_t>(s));
    for (int64_t i = 0; i < s; ++i) {
      keys[i] = (static_cast<uint64_t>(c[i]) << 32) | static_cast<uint64_t>(i);
    }
    std::sort(keys.begin(), keys.end());
    scratch.pay.assign(p, p + s);
    for (int64_t i = 0; i < s; ++i) {
      c[i] = static_cast<vid_t>(keys[i] >> 32);
      p[i] = scratch.pay[keys[i] & 0xffffffffu];
    }
    return;
  }
  auto& pairs = scratch.pairs;
  pairs.resize(static_cast<size_t>(s));
  for (int64_t i = 0; i < s; ++i) pairs[i] = {c[i], p[i]};
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (int64_t i = 0; i < s; ++i) {
    c[i] = pairs[i].first;
    p[i] = pairs[i].second;
  }
}

/// Merges repeated columns of an append-ordered row in place (first position kept, last payload
/// wins, order otherwise unchanged); returns the new size.
template <class vid_t, class pay_t>
int64_t merge_append_row(vid_t* c, pay_t* p, int64_t s,
                         std::vector<std::pair<vid_t, int64_t>>& scratch, std::vector<char>& dead) {
  if (s < 2) return s;
  scratch.resize(static_cast<size_t>(s));
  for (int64_t i = 0; i < s; ++i) scratch[i] = {c[i], i};
  std::sort(scratch.begin(), scratch.end());  // (column, position): unique keys
  bool any = false;
  for (int64_t i = 1; i < s && !any; ++i) any = scratch[i].first == scratch[i - 1].first;
  if (!any) return s;
  dead.assign(static_cast<size_t>(s), 0);
  for (int64_t g = 0; g < s;) {
    int64_t h = g;
    while (h + 1 < s && scratch[h + 1].first == scratch[g].first) ++h;
    if (h > g) {
      p[scratch[g].second] = p[scratch[h].second];
      for (int64_t j = g + 1; j <= h; ++j) dead[scratch[j].second] = 1;
    }
    g = h + 1;
  }
  int64_t w = 0;
  for (int64_t i = 0; i < s; ++i) {
    if (dead[i]) continue;
    c[w] = c[i];
    p[w] = p[i];
    ++w;
  }
  return w;
}

/// The rows that entries (src[i] -> dst[i]), plus (dst[i] -> src[i]) when `both_ways`, occupy.
template <class vid_t>
row_walk_t rows_of_entries(int64_t n, std::span<const vid_t> src, std::span<const vid_t> dst,
                           bool both_ways) {
  const int64_t m = static_cast<int64_t>(src.size());
  return row_walk_t::of(n, both_ways ? 2 * m : m,
                        [&](int64_t i) { return i < m ? src[i] : dst[i - m]; });
}

/// The rows of build_rows() between its passes: each row's entry count, the start of its range
/// in the raw layout, and the next slot pass 2 writes there. Written only for rows with entries,
/// so the rows of isolated vertices cost no memory (core/zeroed_array.hpp).
struct raw_rows_t {
  zeroed_array<int64_t> size;
  zeroed_array<int64_t> begin;
  zeroed_array<int64_t> fill;
  bool ascending = false;  ///< The entries arrive by ascending row.
  int64_t entries = 0;     ///< Raw entry count (before merging).
};

/// Pass 1: raw row sizes, and a layout padded for them (int64 offsets: the raw count may exceed
/// the offsets type even when the merged one does not); sizes d.col and `pay` for it, zeroed.
template <class D, class vid_t, class pay_t>
raw_rows_t count_row_entries(D& d, std::vector<pay_t>& pay, int64_t n, const row_walk_t& rows,
                             std::span<const vid_t> src, std::span<const vid_t> dst, bool both_ways,
                             double headroom) {
  const int64_t m_in = static_cast<int64_t>(src.size());
  raw_rows_t raw{zeroed_array<int64_t>(static_cast<size_t>(n)),
                 zeroed_array<int64_t>(static_cast<size_t>(n)),
                 zeroed_array<int64_t>(static_cast<size_t>(n))};
  if (!rows.sparse()) {
    for (auto* a : {&raw.size, &raw.begin, &raw.fill}) a->prefer_huge_pages();
  }
  // Through plain pointers and local sums, so that the stores into the arrays cannot be taken
  // for stores into `raw`'s other members (which would keep the sums out of registers).
  int64_t* const size = raw.size.data();
  int64_t* const begin = raw.begin.data();
  int64_t* const fill = raw.fill.data();
  bool ascending = !both_ways;
  for (int64_t i = 0; i < m_in; ++i) {
    ascending = ascending && (i == 0 || src[i - 1] <= src[i]);
    ++size[static_cast<size_t>(src[i])];
    if (both_ways && src[i] != dst[i]) ++size[static_cast<size_t>(dst[i])];
  }
  raw.ascending = ascending;
  int64_t entries = 0;
  int64_t raw_total = 0;
  rows.each([&](int64_t v) {
    const int64_t s = size[v];
    if (s == 0) return;
    begin[v] = raw_total;
    fill[v] = raw_total;
    entries += s;
    raw_total += s + spare_slots(s, headroom);
  });
  raw.entries = entries;
  raw_total += tail_slots(entries, headroom);
  assign_zeroed(d.col, static_cast<size_t>(raw_total));
  assign_zeroed(pay, static_cast<size_t>(raw_total));
  return raw;
}

/// Pass 2: scatters every entry (column + payload) into its row's raw range, in input order.
template <class vid_t, class pay_t, class payload_fn>
void scatter_entries(vid_t* col, pay_t* pl, int64_t n, const row_walk_t& rows, raw_rows_t& raw,
                     std::span<const vid_t> src, std::span<const vid_t> dst, payload_fn& payload,
                     bool both_ways) {
  const int64_t m_in = static_cast<int64_t>(src.size());
  using rec_t = scatter_rec_t<vid_t, pay_t>;
  int64_t* const fill = raw.fill.data();
  staged_scatter<rec_t>(
      n, raw.size, raw.ascending, rows.sparse(),
      [&](auto&& push) {
        for (int64_t i = 0; i < m_in; ++i) {
          const vid_t u = src[i];
          const vid_t v = dst[i];
          const pay_t x = payload(i);
          push(rec_t{u, v, x});
          if (both_ways && u != v) push(rec_t{v, u, x});
        }
      },
      [&](const rec_t& r) {
        const int64_t p = fill[static_cast<size_t>(r.row)]++;
        col[p] = r.col;
        pl[p] = r.pay;
      });
  raw.fill = {};
}

/// Merges repeated columns of a sorted row in place (the last payload wins); returns the new
/// size.
template <class vid_t, class pay_t>
int64_t merge_sorted_row(vid_t* c, pay_t* p, int64_t s) {
  int64_t w = 1;
  for (int64_t i = 1; i < s; ++i) {
    if (c[i] == c[w - 1]) {
      p[w - 1] = p[i];  // repeated pair: the last weight wins
    } else {
      c[w] = c[i];
      p[w] = p[i];
      ++w;
    }
  }
  return w;
}

/// Pass 3: per row, sorts by column (when `sorted`, and only a row not sorted already) and merges
/// repeated columns in place (when `merge`); raw.size takes the new sizes. Returns the entry
/// count after merging.
template <class vid_t, class pay_t>
int64_t order_and_merge_rows(vid_t* col, pay_t* pl, int64_t n, const row_walk_t& rows,
                             raw_rows_t& raw, bool sorted, bool merge) {
  if (!sorted && !merge) return raw.entries;
  int64_t m = 0;
  // Rows are independent; each thread keeps its own scratch.
#if defined(DYNG_HAVE_OPENMP)
#pragma omp parallel reduction(+ : m) if (raw.entries > (int64_t{1} << 16))
#endif
  {
    sort_scratch_t<vid_t, pay_t> sort_scratch;
    std::vector<std::pair<vid_t, int64_t>> merge_scratch;
    std::vector<char> dead;
    const int64_t visited = rows.size();
#if defined(DYNG_HAVE_OPENMP)
#pragma omp for schedule(dynamic, 1024)
#endif
    for (int64_t j = 0; j < visited; ++j) {
      const int64_t v = rows.row(j);
      int64_t s = raw.size[v];
      if (s < 2) {  // nothing to order or merge (and an empty row is not written)
        m += s;
        continue;
      }
      vid_t* c = col + raw.begin[v];
      pay_t* p = pl + raw.begin[v];
      if (sorted) {
        sort_row(c, p, s, n, sort_scratch);
        if (merge) s = merge_sorted_row(c, p, s);
      } else {
        s = merge_append_row(c, p, s, merge_scratch, dead);
      }
      raw.size[v] = s;
      m += s;
    }
  }
  return m;
}

/// Pass 4: slides the rows left into the final layout of their merged sizes (m entries) and
/// zeroes what they leave behind; sets d's row offsets and tail and trims d.col and `pay`.
template <class D, class vid_t, class pay_t>
void slide_rows_into_layout(D& d, std::vector<pay_t>& pay, int64_t n, const row_walk_t& rows,
                            const raw_rows_t& raw, int64_t m, double headroom) {
  using eid_t = typename decltype(d.row_begin)::value_type;
  vid_t* col = d.col.data();
  pay_t* pl = pay.data();
  bool padded = true;
  const int64_t total =
      layout_total<eid_t>(rows, m, [&](int64_t v) { return raw.size[v]; }, headroom, padded);
  d.row_begin = {};
  d.row_end = {};
  d.row_capacity_end = {};
  for (auto* a : {&d.row_begin, &d.row_end, &d.row_capacity_end}) {
    a->resize(static_cast<size_t>(n));
    if (!rows.sparse()) a->prefer_huge_pages();
  }
  int64_t pos = 0;
  for (int64_t j = 0, visited = rows.size(); j < visited; ++j) {
    const int64_t v = rows.row(j);
    const int64_t s = raw.size[v];
    if (s == 0) continue;  // an empty row has no capacity: offsets (0, 0, 0), never written
    const int64_t cap = padded ? s + spare_slots(s, headroom) : s;
    if (pos != raw.begin[v] && s > 0) {
      std::memmove(col + pos, col + raw.begin[v], sizeof(vid_t) * static_cast<size_t>(s));
      std::memmove(pl + pos, pl + raw.begin[v], sizeof(pay_t) * static_cast<size_t>(s));
    }
    // The spare slots lie inside the raw range of row v (the final one is never larger), so
    // zeroing them cannot touch rows not yet moved.
    std::fill(col + pos + s, col + pos + cap, vid_t{0});
    std::fill(pl + pos + s, pl + pos + cap, pay_t{});
    d.row_begin[v] = static_cast<eid_t>(pos);
    d.row_end[v] = static_cast<eid_t>(pos + s);
    pos += cap;
    d.row_capacity_end[v] = static_cast<eid_t>(pos);
  }
  d.tail = static_cast<eid_t>(pos);
  std::fill(col + pos, col + total, vid_t{0});
  std::fill(pl + pos, pl + total, pay_t{});
  d.col.resize(static_cast<size_t>(total));
  pay.resize(static_cast<size_t>(total));
}

/// Fills direction `d` (col, row offsets; not its weights) and `pay` (one payload per slot, same
/// layout) with n rows from entries (src[i] -> dst[i], payload(i)), plus (dst[i] -> src[i]) for
/// non-loops when `both_ways`; `rows` holds every row they occupy. Rows keep input order, or are
/// sorted stably by column when `sorted`; `merge` merges repeated columns. Returns the stored
/// entry count; `check(count)` is called with it before the final layout (it throws when the
/// offsets type cannot hold it). The passes are the file header's four.
template <class D, class vid_t, class pay_t, class payload_fn, class check_fn>
int64_t build_rows(D& d, std::vector<pay_t>& pay, int64_t n, const row_walk_t& rows,
                   std::span<const vid_t> src, std::span<const vid_t> dst, payload_fn&& payload,
                   bool both_ways, bool sorted, bool merge, double headroom, check_fn&& check) {
  raw_rows_t raw = count_row_entries(d, pay, n, rows, src, dst, both_ways, headroom);
  scatter_entries(d.col.data(), pay.data(), n, rows, raw, src, dst, payload, both_ways);
  const int64_t m = order_and_merge_rows(d.col.data(), pay.data(), n, rows, raw, sorted, merge);
  check(m);
  slide_rows_into_layout<D, vid_t>(d, pay, n, rows, raw, m, headroom);
  return m;
}

/// Fills direction `in` with the transpose of the finished direction `out` (n rows, K weights per
/// slot): in-row v lists the sources u of out-edges (u, v) ascending, copies in out-row order.
/// `out_rows` and `in_rows` hold every row each direction occupies.
template <class D>
void transpose_rows(D& in, const D& out, int64_t n, int num_weights, double headroom,
                    const row_walk_t& out_rows, const row_walk_t& in_rows) {
  using eid_t = typename decltype(in.row_begin)::value_type;
  using vid_t = typename decltype(in.col)::value_type;
  const int64_t k = num_weights;
  zeroed_array<int64_t> count(static_cast<size_t>(n)), fill(static_cast<size_t>(n));
  if (!in_rows.sparse()) {
    for (auto* a : {&count, &fill}) a->prefer_huge_pages();
  }
  int64_t m = 0;
  out_rows.each([&](int64_t u) {
    for (int64_t e = out.row_begin[u]; e < static_cast<int64_t>(out.row_end[u]); ++e) {
      ++count[static_cast<size_t>(out.col[e])];
    }
    m += static_cast<int64_t>(out.row_end[u]) - static_cast<int64_t>(out.row_begin[u]);
  });
  bool padded = true;
  const int64_t total =
      layout_total<eid_t>(in_rows, m, [&](int64_t v) { return count[v]; }, headroom, padded);
  in.row_begin = {};
  in.row_end = {};
  in.row_capacity_end = {};
  for (auto* a : {&in.row_begin, &in.row_end, &in.row_capacity_end}) {
    a->resize(static_cast<size_t>(n));
    if (!in_rows.sparse()) a->prefer_huge_pages();
  }
  assign_zeroed(in.col, static_cast<size_t>(total));
  assign_zeroed(in.weights, static_cast<size_t>(total * k));
  int64_t pos = 0;
  for (int64_t j = 0, visited = in_rows.size(); j < visited; ++j) {
    const int64_t v = in_rows.row(j);
    const int64_t s = count[v];
    if (s == 0) continue;  // offsets (0, 0, 0), as in build_rows
    in.row_begin[v] = static_cast<eid_t>(pos);
    in.row_end[v] = static_cast<eid_t>(pos + s);
    fill[v] = pos;
    pos += padded ? s + spare_slots(s, headroom) : s;
    in.row_capacity_end[v] = static_cast<eid_t>(pos);
  }
  in.tail = static_cast<eid_t>(pos);
  // Records carry the weight itself when K == 1, else the out-slot to copy the weights from.
  auto scatter = [&](auto payload_tag) {
    using pay_t = decltype(payload_tag);
    using rec_t = scatter_rec_t<vid_t, pay_t>;
    staged_scatter<rec_t>(
        n, count, false, in_rows.sparse(),
        [&](auto&& push) {
          out_rows.each([&](int64_t u) {
            for (int64_t e = out.row_begin[u]; e < static_cast<int64_t>(out.row_end[u]); ++e) {
              const pay_t x = k == 1 ? static_cast<pay_t>(out.weights[e]) : static_cast<pay_t>(e);
              push(rec_t{out.col[e], static_cast<vid_t>(u), x});
            }
          });
        },
        [&](const rec_t& r) {
          const int64_t p = fill[static_cast<size_t>(r.row)]++;
          in.col[p] = r.col;
          if (k == 1) {
            in.weights[p] = static_cast<int32_t>(r.pay);
          } else if (k > 0) {
            copy_weights(in.weights.data() + p * k, out.weights.data() + r.pay * k, k);
          }
        });
  };
  if (k == 1) {
    scatter(int32_t{});
  } else {
    scatter(int64_t{});
  }
}

}  // namespace dyng::detail
