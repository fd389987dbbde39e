// finish_edges(): the clean-up shared by every edge reader.
//
// Compact renumbering avoids a sort when the ids are dense enough (the usual case: a file's ids
// are 0..n-1 or 1..n with gaps): a presence table over [min, max] and a prefix count give every
// id its rank in one pass. Sparse ids (a few huge values) fall back to sort + binary search.
// Sorting buckets the edges by source (ids are dense after compaction, and rows are short),
// then sorts each row by (target, position); the position lets weights and timestamps follow
// and lets a merge keep the last duplicate read. Ids too sparse for buckets (as_is with huge
// values) go through the library's stable LSD radix sort instead.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

#include "dyng/core/errors.hpp"
#include "dyng/core/radix_sort.hpp"
#include "dyng/core/thread_share.hpp"
#include "dyng/io/edge_table.hpp"
#include "dyng/io/fresh_arrays.hpp"

namespace dyng::io {
namespace {

struct record_t {
  uint64_t key;
  int64_t at;
};

/// Keeps the edges for which keep(e) is true, in order, with their weights and timestamps.
template <class keep_fn>
void filter_edges(edge_table_t& t, keep_fn&& keep) {
  const int64_t m = t.size();
  const int k = t.num_weights;
  const bool ts = !t.timestamps.empty();
  int64_t out = 0;
  for (int64_t e = 0; e < m; ++e) {
    if (!keep(e)) continue;
    t.src[out] = t.src[e];
    t.dst[out] = t.dst[e];
    for (int j = 0; j < k; ++j) t.weights[out * k + j] = t.weights[e * k + j];
    if (ts) t.timestamps[out] = t.timestamps[e];
    ++out;
  }
  t.src.resize(out);
  t.dst.resize(out);
  t.weights.resize(static_cast<size_t>(out) * k);
  if (ts) t.timestamps.resize(out);
}

void compact_ids(edge_table_t& t, int threads) {
  const int64_t m = t.size();
  if (m == 0) {
    t.num_vertices = 0;
    return;
  }
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
#pragma omp parallel for num_threads(threads) reduction(min : lo) reduction(max : hi) if (threads > 1)
  for (int64_t e = 0; e < m; ++e) {
    lo = std::min({lo, t.src[e], t.dst[e]});
    hi = std::max({hi, t.src[e], t.dst[e]});
  }
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  // Ranks fit uint32 when m < 2^31 (at most 2m distinct ids); the table is at most a few bytes
  // per edge, about what the ids themselves take.
  if (m < (int64_t{1} << 31) && span <= static_cast<uint64_t>(2 * m) + (uint64_t{1} << 20)) {
    std::vector<uint32_t> rank = huge_vector<uint32_t>(span, 0, threads);
    // Threads may mark one id at once; they all store the same 1, relaxed atomics make it legal.
#pragma omp parallel for num_threads(threads) if (threads > 1)
    for (int64_t e = 0; e < m; ++e) {
      std::atomic_ref<uint32_t>(rank[t.src[e] - lo]).store(1, std::memory_order_relaxed);
      std::atomic_ref<uint32_t>(rank[t.dst[e] - lo]).store(1, std::memory_order_relaxed);
    }
    uint32_t n = 0;
    t.external_ids.clear();
    for (uint64_t i = 0; i < span; ++i) {
      const bool present = rank[i] != 0;
      rank[i] = n;
      if (present) {
        t.external_ids.push_back(lo + static_cast<int64_t>(i));
        ++n;
      }
    }
#pragma omp parallel for num_threads(threads) if (threads > 1)
    for (int64_t e = 0; e < m; ++e) {
      t.src[e] = rank[t.src[e] - lo];
      t.dst[e] = rank[t.dst[e] - lo];
    }
    t.num_vertices = n;
    return;
  }
  std::vector<int64_t> ids;
  ids.reserve(2 * m);
  ids.insert(ids.end(), t.src.begin(), t.src.end());
  ids.insert(ids.end(), t.dst.begin(), t.dst.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
#pragma omp parallel for num_threads(threads) if (threads > 1)
  for (int64_t e = 0; e < m; ++e) {
    t.src[e] = std::lower_bound(ids.begin(), ids.end(), t.src[e]) - ids.begin();
    t.dst[e] = std::lower_bound(ids.begin(), ids.end(), t.dst[e]) - ids.begin();
  }
  t.num_vertices = static_cast<int64_t>(ids.size());
  t.external_ids = std::move(ids);
}

/// Each mirror (v, u) goes right after its edge, so "last wins" merging sees the file's order
/// of both directions (what 0.2.0 does).
void symmetrize(edge_table_t& t) {
  const int64_t m = t.size();
  const int k = t.num_weights;
  const bool ts = !t.timestamps.empty();
  edge_table_t s;
  s.src.reserve(2 * m);
  s.dst.reserve(2 * m);
  s.weights.reserve(2 * t.weights.size());
  if (ts) s.timestamps.reserve(2 * m);
  for (int64_t e = 0; e < m; ++e) {
    const int copies = t.src[e] == t.dst[e] ? 1 : 2;
    for (int c = 0; c < copies; ++c) {
      s.src.push_back(c == 0 ? t.src[e] : t.dst[e]);
      s.dst.push_back(c == 0 ? t.dst[e] : t.src[e]);
      for (int j = 0; j < k; ++j) s.weights.push_back(t.weights[e * k + j]);
      if (ts) s.timestamps.push_back(t.timestamps[e]);
    }
  }
  t.src.swap(s.src);
  t.dst.swap(s.dst);
  t.weights.swap(s.weights);
  t.timestamps.swap(s.timestamps);
}

/// True when the edges are already in the order sort_edges() makes (then it has nothing to do).
bool already_in_order(const edge_table_t& t, bool strict) {
  const bool ts = !t.timestamps.empty();
  for (int64_t e = 1; e < t.size(); ++e) {
    const bool less = t.src[e - 1] < t.src[e] || (t.src[e - 1] == t.src[e] && t.dst[e - 1] < t.dst[e]);
    const bool equal = t.src[e - 1] == t.src[e] && t.dst[e - 1] == t.dst[e];
    if (less) continue;
    if (strict || !equal || (ts && t.timestamps[e - 1] > t.timestamps[e])) return false;
  }
  return true;
}

/// Positions of the edges in stable (src, dst) order by radix sort: the fallback for ids too
/// sparse for row buckets.
std::vector<record_t> radix_order(const edge_table_t& t, int threads) {
  const int64_t m = t.size();
  const int bits = key_bits_below(std::max<int64_t>(t.num_vertices, 1));
  std::vector<record_t> records(m), scratch;
  if (2 * bits <= 64) {
#pragma omp parallel for num_threads(threads) if (threads > 1)
    for (int64_t e = 0; e < m; ++e)
      records[e] = {(static_cast<uint64_t>(t.src[e]) << bits) | static_cast<uint64_t>(t.dst[e]), e};
    radix_sort_vector(records, scratch, 2 * bits, [](const record_t& r) { return r.key; }, threads);
    return records;
  }
  // Ids too wide for one 64-bit key: two stable passes, destination first.
  for (int64_t e = 0; e < m; ++e) records[e] = {static_cast<uint64_t>(t.dst[e]), e};
  radix_sort_vector(records, scratch, bits, [](const record_t& r) { return r.key; }, threads);
  for (auto& r : records) r.key = static_cast<uint64_t>(t.src[r.at]);
  radix_sort_vector(records, scratch, bits, [](const record_t& r) { return r.key; }, threads);
  return records;
}

// The records of the row-bucket sort. Each knows its target (key) and either its edge's
// position, so weights and timestamps are gathered at the end, or the weight itself, so the
// output needs no gather and can overwrite the old weights in place. Fewer bytes per record is
// less to scatter and fewer fresh pages, which cost more than the sorting on the dev VM.

/// Target and position in one word (n and m below 2^32).
struct packed_t {
  uint64_t bits;
  static packed_t make(const edge_table_t& t, int64_t e) {
    return {(static_cast<uint64_t>(t.dst[e]) << 32) | static_cast<uint64_t>(e)};
  }
  uint64_t key() const { return bits >> 32; }
  int64_t at() const { return static_cast<int64_t>(bits & 0xffffffffu); }
};

/// Target and position, any width.
struct wide_t {
  record_t r;
  static wide_t make(const edge_table_t& t, int64_t e) {
    return {{static_cast<uint64_t>(t.dst[e]), e}};
  }
  uint64_t key() const { return r.key; }
  int64_t at() const { return r.at; }
};

/// Target and the edge's one weight (K = 1, no timestamps).
struct carried_t {
  uint64_t bits;
  static carried_t make(const edge_table_t& t, int64_t e) {
    return {(static_cast<uint64_t>(t.dst[e]) << 32) |
            static_cast<uint32_t>(t.weights[static_cast<size_t>(e)])};
  }
  uint64_t key() const { return bits >> 32; }
  int32_t weight() const { return static_cast<int32_t>(static_cast<uint32_t>(bits)); }
};

/// The target alone (K = 0, no timestamps).
struct bare_t {
  uint32_t dst;
  static bare_t make(const edge_table_t& t, int64_t e) { return {static_cast<uint32_t>(t.dst[e])}; }
  uint64_t key() const { return dst; }
};

template <class rec_t>
constexpr bool k_has_position = requires(const rec_t& r) { r.at(); };

/// Sorts (and merges) by row buckets: one counting pass over src, one scatter of records, then
/// each row's few records sorted and written out on its own, so src comes from the row. Rows of
/// an edge list are short, so this costs about one scatter instead of a radix sort's several
/// passes. Records without a position rely on the scatter and the row sort being stable.
template <class rec_t, class less_fn>
void bucket_sort_edges(edge_table_t& t, bool merge, int threads, less_fn less) {
  const int64_t m = t.size();
  const int64_t n = t.num_vertices;
  const int k = t.num_weights;
  const bool ts = !t.timestamps.empty();
  std::vector<int64_t> start = huge_vector<int64_t>(static_cast<size_t>(n) + 1, 0, threads);
  std::vector<rec_t> records;
  reserve_huge(records, static_cast<size_t>(m), threads);
  records.resize(static_cast<size_t>(m));
  // A counting sort by src on `team` threads: each counts and places its own contiguous share,
  // its records of a row after those of the threads before it (stable). Per-thread counters
  // cost team * n words, so a team is used only while that stays below the records' size.
  const int team = (threads > 1 && static_cast<int64_t>(threads) * n <= 2 * m) ? threads : 1;
  std::vector<int64_t> offsets = huge_vector<int64_t>(static_cast<size_t>(team) * n, 0, team);
#pragma omp parallel num_threads(team) if (team > 1)
  {
    const thread_share_t me = thread_share(m);
    int64_t* mine = offsets.data() + static_cast<int64_t>(me.thread) * n;
    for (int64_t e = me.lo; e < me.hi; ++e) ++mine[t.src[e]];
#pragma omp barrier
#pragma omp single
    {
      int64_t at = 0;
      for (int64_t v = 0; v < n; ++v) {
        start[v] = at;
        for (int u = 0; u < me.threads; ++u) {
          int64_t& c = offsets[static_cast<size_t>(u) * n + v];
          const int64_t here = c;
          c = at;
          at += here;
        }
      }
      start[n] = at;
    }
    for (int64_t e = me.lo; e < me.hi; ++e) records[mine[t.src[e]]++] = rec_t::make(t, e);
  }
  std::vector<int64_t>().swap(offsets);
  std::vector<int64_t> kept = huge_vector<int64_t>(static_cast<size_t>(n) + 1, 0, threads);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096) if (threads > 1)
  for (int64_t v = 0; v < n; ++v) {
    rec_t* lo = records.data() + start[v];
    rec_t* hi = records.data() + start[v + 1];
    if (hi - lo <= 16) {
      // Insertion sort: stable, and the fastest for the few records of a typical row.
      for (rec_t* p = lo + 1; p < hi; ++p)
        for (rec_t* q = p; q > lo && less(*q, q[-1]); --q) std::swap(*q, q[-1]);
    } else {
      std::stable_sort(lo, hi, less);
    }
    if (merge) {
      // Keep the last record of each run of equal dst: the last edge read.
      rec_t* out = lo;
      for (rec_t* p = lo; p < hi; ++p)
        if (p + 1 == hi || p[1].key() != p->key()) *out++ = *p;
      kept[v + 1] = out - lo;
    } else {
      kept[v + 1] = hi - lo;
    }
  }
  for (int64_t v = 0; v < n; ++v) kept[v + 1] += kept[v];
  const int64_t total = kept[n];
  // The records hold what src and dst said (and, carried, the weight), so those columns are
  // overwritten in place: no fresh (page-faulting) memory for the largest arrays.
  std::vector<int64_t> stamps;
  std::vector<int32_t> weights;
  if constexpr (k_has_position<rec_t>) {
    stamps = huge_vector<int64_t>(ts ? total : 0, 0, threads);
    weights = huge_vector<int32_t>(static_cast<size_t>(total) * k, 0, threads);
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096) if (threads > 1)
  for (int64_t v = 0; v < n; ++v) {
    const rec_t* r = records.data() + start[v];
    for (int64_t i = kept[v]; i < kept[v + 1]; ++i, ++r) {
      t.src[i] = v;
      t.dst[i] = static_cast<int64_t>(r->key());
      if constexpr (k_has_position<rec_t>) {
        for (int j = 0; j < k; ++j) weights[i * k + j] = t.weights[r->at() * k + j];
        if (ts) stamps[i] = t.timestamps[r->at()];
      } else if constexpr (requires { r->weight(); }) {
        t.weights[static_cast<size_t>(i)] = r->weight();
      }
    }
  }
  t.src.resize(total);
  t.dst.resize(total);
  if constexpr (k_has_position<rec_t>) {
    t.weights.swap(weights);
    t.timestamps.swap(stamps);
  } else {
    t.weights.resize(static_cast<size_t>(total) * k);
  }
}

void bucket_sort_edges(edge_table_t& t, bool merge, int threads) {
  const bool ordered_by_time = !merge && !t.timestamps.empty();
  const bool narrow = t.num_vertices <= (int64_t{1} << 32);
  auto by_key = [](const auto& a, const auto& b) { return a.key() < b.key(); };
  if (narrow && t.timestamps.empty() && t.num_weights == 1) {
    bucket_sort_edges<carried_t>(t, merge, threads, by_key);
    return;
  }
  if (narrow && t.timestamps.empty() && t.num_weights == 0) {
    bucket_sort_edges<bare_t>(t, merge, threads, by_key);
    return;
  }
  if (!ordered_by_time && narrow && t.size() <= (int64_t{1} << 32)) {
    bucket_sort_edges<packed_t>(t, merge, threads, by_key);
    return;
  }
  // Kept duplicates are ordered by timestamp, then by position (stable), as 0.2.0 orders them.
  bucket_sort_edges<wide_t>(t, merge, threads, [&t, ordered_by_time](const wide_t& a, const wide_t& b) {
    if (a.key() != b.key()) return a.key() < b.key();
    if (ordered_by_time && t.timestamps[a.at()] != t.timestamps[b.at()])
      return t.timestamps[a.at()] < t.timestamps[b.at()];
    return a.at() < b.at();
  });
}

void sort_edges(edge_table_t& t, bool merge, int threads) {
  if (already_in_order(t, merge)) return;
  if (t.num_vertices <= 2 * t.size() + (int64_t{1} << 20)) {
    bucket_sort_edges(t, merge, threads);
    return;
  }
  std::vector<record_t> order = radix_order(t, threads);
  if (!merge && !t.timestamps.empty()) {
    // Kept duplicates are ordered by timestamp (stable), as 0.2.0 orders them.
    const int64_t m = static_cast<int64_t>(order.size());
    for (int64_t i = 0; i < m;) {
      int64_t j = i + 1;
      while (j < m && t.src[order[j].at] == t.src[order[i].at] &&
             t.dst[order[j].at] == t.dst[order[i].at])
        ++j;
      if (j - i > 1)
        std::stable_sort(order.begin() + i, order.begin() + j,
                         [&t](const record_t& a, const record_t& b) {
                           return t.timestamps[a.at] < t.timestamps[b.at];
                         });
      i = j;
    }
  }
  if (merge) {
    // The last record of each run of equal (src, dst) is the last edge read.
    int64_t out = 0;
    const int64_t m = static_cast<int64_t>(order.size());
    for (int64_t i = 0; i < m; ++i) {
      const int64_t e = order[i].at;
      if (i + 1 < m && t.src[order[i + 1].at] == t.src[e] && t.dst[order[i + 1].at] == t.dst[e])
        continue;
      order[out++] = order[i];
    }
    order.resize(out);
  }
  const int64_t m = static_cast<int64_t>(order.size());
  const int k = t.num_weights;
  edge_table_t s;
  s.src.resize(m);
  s.dst.resize(m);
  s.weights.resize(static_cast<size_t>(m) * k);
  if (!t.timestamps.empty()) s.timestamps.resize(m);
#pragma omp parallel for num_threads(threads) if (threads > 1)
  for (int64_t i = 0; i < m; ++i) {
    const int64_t e = order[i].at;
    s.src[i] = t.src[e];
    s.dst[i] = t.dst[e];
    for (int j = 0; j < k; ++j) s.weights[i * k + j] = t.weights[e * k + j];
    if (!s.timestamps.empty()) s.timestamps[i] = t.timestamps[e];
  }
  t.src.swap(s.src);
  t.dst.swap(s.dst);
  t.weights.swap(s.weights);
  t.timestamps.swap(s.timestamps);
}

}  // namespace

void finish_edges(edge_table_t& t, const finish_options_t& options) {
  const int threads = std::max(1, options.threads);
  if (options.drop_self_loops) filter_edges(t, [&t](int64_t e) { return t.src[e] != t.dst[e]; });
  if (options.compact) {
    compact_ids(t, threads);
  } else if (t.num_vertices < 0) {
    int64_t hi = -1;
    for (int64_t e = 0; e < t.size(); ++e) hi = std::max({hi, t.src[e], t.dst[e]});
    t.num_vertices = hi + 1;
  }
  if (options.symmetrize) symmetrize(t);
  if (options.sort) sort_edges(t, options.merge_duplicates, threads);
}

std::vector<int32_t> seeded_uniform(int64_t count, int32_t lo, int32_t hi, uint32_t seed) {
  // std::uniform_int_distribution is what mospPrep uses; its output is library-specific, and
  // libstdc++'s (the toolchain of every dyng build) is the one the original tools ran with.
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> weight(lo, hi);
  std::vector<int32_t> values(static_cast<size_t>(count));
  for (auto& w : values) w = weight(rng);
  return values;
}

void draw_random_weights(edge_table_t& t, int num_weights, int32_t lo, int32_t hi, uint32_t seed) {
  t.num_weights = num_weights;
  t.weights = seeded_uniform(t.size() * num_weights, lo, hi, seed);
}

}  // namespace dyng::io
