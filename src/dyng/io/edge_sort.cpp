// sort_edges(): the edges in stable (src, dst) order, duplicates merged (the last read wins) or
// kept (ordered by timestamp, then position, as 0.2.0 orders them).
//
// Ids dense enough for one bucket per source (after compaction always) go through a counting
// sort by src, then each row's few records are sorted by dst on their own and written back, so
// src comes from the row: about one scatter instead of a radix sort's several passes. Ids too
// sparse for buckets (as_is with huge values) go through the library's stable LSD radix sort.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "dyng/core/radix_sort.hpp"
#include "dyng/core/thread_share.hpp"
#include "dyng/io/edge_steps.hpp"

namespace dyng::io {
namespace {

struct record_t {
  uint64_t key;
  int64_t at;
};

/// True when the edges are already in the order sort_edges() makes (then it has nothing to do).
template <class id_t>
bool already_in_order(const edge_table_t& t, const column_t<id_t>& src, const column_t<id_t>& dst,
                      bool strict) {
  for (int64_t e = 1; e < t.size(); ++e) {
    if (src[e - 1] < src[e] || (src[e - 1] == src[e] && dst[e - 1] < dst[e])) continue;
    const bool equal = src[e - 1] == src[e] && dst[e - 1] == dst[e];
    if (strict || !equal || (t.timed && t.timestamps[e - 1] > t.timestamps[e])) return false;
  }
  return true;
}

// The bucket sort's records: the sort key (the source's low bits, then the target) in the high
// 32 bits and, in the low 32, the edge's one weight or its position, so weights and
// timestamps follow it; K = 0 without timestamps needs the key alone. Fewer bytes per record
// is less to move and fewer fresh pages, which can cost more than the sorting itself.

/// What a record carries besides its key.
enum class payload_t { none, weight, position };

template <payload_t payload>
using bucket_record_t = std::conditional_t<payload == payload_t::none, uint32_t, uint64_t>;

template <payload_t payload>
bucket_record_t<payload> make_record(uint32_t key, int64_t e, const int32_t* weights) {
  if constexpr (payload == payload_t::none) return key;
  else if constexpr (payload == payload_t::weight)
    return (uint64_t{key} << 32) | static_cast<uint32_t>(weights[e]);
  else return (uint64_t{key} << 32) | static_cast<uint64_t>(e);
}

template <payload_t payload>
uint32_t key_of(bucket_record_t<payload> r) {
  if constexpr (payload == payload_t::none) return r;
  else return static_cast<uint32_t>(r >> 32);
}

/// How the bucket sort splits a 32-bit key: (source's low bits << dst_bits) | target, the
/// source's high bits choosing the bucket.
struct bucket_layout_t {
  int dst_bits;
  int low_bits;
  int64_t buckets;
  uint32_t low_mask;
};

/// About 2^10 buckets of source high bits for ids below `n` (as many write streams as the TLB
/// and L2 serve well; twice as many slowed the whole read), more only when the ids are too wide
/// for that.
inline bucket_layout_t bucket_layout(int64_t n) {
  const int dst_bits = key_bits_below(std::max<int64_t>(n, 2));
  const int low_bits = std::clamp(dst_bits - 10, 0, 32 - dst_bits);
  return {dst_bits, low_bits, ((n - 1) >> low_bits) + 1, (uint32_t{1} << low_bits) - 1};
}

/// The first level: counts the edges per bucket and scatters their records into `records`,
/// bucket b at [start[b], start[b + 1]). Each thread counts and places its own contiguous share,
/// its records of a bucket after those of the threads before it (stable). Per-thread counters
/// cost team * buckets words, so a team is used only while that stays below the records' size.
template <payload_t payload, class id_t>
void scatter_into_buckets(const edge_table_t& t, const column_t<id_t>& src,
                          const column_t<id_t>& dst, const bucket_layout_t& layout, int threads,
                          column_t<int64_t>& start, column_t<bucket_record_t<payload>>& records) {
  const int64_t m = t.size();
  const int64_t buckets = layout.buckets;
  const int low_bits = layout.low_bits;
  const int team = (threads > 1 && threads * buckets <= 2 * m) ? threads : 1;
  column_t<int64_t> offsets(static_cast<size_t>(team) * buckets);
#pragma omp parallel num_threads(team) if (team > 1)
  {
    const thread_share_t me = thread_share(m);
    int64_t* mine = offsets.data() + static_cast<int64_t>(me.thread) * buckets;
    for (int64_t e = me.lo; e < me.hi; ++e) ++mine[static_cast<uint64_t>(src[e]) >> low_bits];
#pragma omp barrier
#pragma omp single
    {
      int64_t at = 0;
      for (int64_t b = 0; b < buckets; ++b) {
        start[b] = at;
        for (int u = 0; u < me.threads; ++u) {
          int64_t& c = offsets[static_cast<size_t>(u) * buckets + b];
          const int64_t here = c;
          c = at;
          at += here;
        }
      }
      start[buckets] = at;
    }
    for (int64_t e = me.lo; e < me.hi; ++e) {
      const auto s = static_cast<uint64_t>(src[e]);
      const auto key = static_cast<uint32_t>(((s & layout.low_mask) << layout.dst_bits) |
                                             static_cast<uint64_t>(dst[e]));
      records[mine[s >> low_bits]++] = make_record<payload>(key, e, t.weights.data());
    }
  }
}

/// The second level for one bucket of `size` records at `lo`: sorted by key in place (radix,
/// stable), kept duplicates ordered by timestamp when `by_time`, merged to the last record of
/// each key when `merge`. Returns how many records the bucket keeps.
template <payload_t payload>
int64_t sort_bucket(bucket_record_t<payload>* lo, int64_t size,
                    std::vector<bucket_record_t<payload>>& scratch, int key_bits, bool by_time,
                    bool merge, const edge_table_t& t) {
  using record_t = bucket_record_t<payload>;
  if (scratch.size() < static_cast<size_t>(size)) scratch.resize(static_cast<size_t>(size));
  const record_t* sorted = radix_sort_by_key(
      lo, scratch.data(), size, key_bits, [](record_t r) { return key_of<payload>(r); }, 1);
  if (sorted != lo) std::copy(sorted, sorted + size, lo);
  if (by_time) {
    // Kept duplicates are ordered by timestamp (stable), as 0.2.0 orders them.
    for (int64_t i = 0; i < size;) {
      int64_t j = i + 1;
      while (j < size && key_of<payload>(lo[j]) == key_of<payload>(lo[i])) ++j;
      if (j - i > 1)
        std::stable_sort(lo + i, lo + j, [&t](record_t x, record_t y) {
          const auto at_x = static_cast<uint32_t>(x), at_y = static_cast<uint32_t>(y);
          return t.timestamps[at_x] < t.timestamps[at_y];
        });
      i = j;
    }
  }
  if (!merge) return size;
  // Keep the last record of each run of equal keys: the last edge read.
  int64_t out = 0;
  for (int64_t i = 0; i < size; ++i)
    if (i + 1 == size || key_of<payload>(lo[i + 1]) != key_of<payload>(lo[i])) lo[out++] = lo[i];
  return out;
}

/// Writes the kept records back into the columns, bucket b's to [kept[b], kept[b + 1]). The
/// records hold what src and dst said (and, with a weight payload, the weight), so those columns
/// are overwritten in place: no fresh memory for the largest arrays. A position payload gathers
/// the weights and timestamps into new columns.
template <payload_t payload, class id_t>
void write_back_buckets(edge_table_t& t, column_t<id_t>& src, column_t<id_t>& dst,
                        const bucket_layout_t& layout, const column_t<int64_t>& start,
                        const column_t<int64_t>& kept,
                        const column_t<bucket_record_t<payload>>& records, int threads) {
  using record_t = bucket_record_t<payload>;
  const int k = t.num_weights;
  const int64_t buckets = layout.buckets;
  const int64_t total = kept[buckets];
  column_t<int64_t> stamps;
  column_t<int32_t> weights;
  if constexpr (payload == payload_t::position) {
    stamps.resize(t.timed ? static_cast<size_t>(total) : 0);
    weights.resize(static_cast<size_t>(total) * k);
  }
  const int dst_bits = layout.dst_bits;
  const uint32_t dst_mask = static_cast<uint32_t>((uint64_t{1} << dst_bits) - 1);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16) if (threads > 1)
  for (int64_t b = 0; b < buckets; ++b) {
    const record_t* r = records.data() + start[b];
    for (int64_t i = kept[b]; i < kept[b + 1]; ++i, ++r) {
      const uint32_t key = key_of<payload>(*r);
      src[i] = static_cast<id_t>((static_cast<uint64_t>(b) << layout.low_bits) | (key >> dst_bits));
      dst[i] = static_cast<id_t>(key & dst_mask);
      if constexpr (payload == payload_t::weight) {
        t.weights[static_cast<size_t>(i)] = static_cast<int32_t>(static_cast<uint32_t>(*r));
      } else if constexpr (payload == payload_t::position) {
        const auto e = static_cast<int64_t>(static_cast<uint32_t>(*r));
        for (int j = 0; j < k; ++j) weights[i * k + j] = t.weights[e * k + j];
        if (t.timed) stamps[i] = t.timestamps[e];
      }
    }
  }
  src.resize(static_cast<size_t>(total));
  dst.resize(static_cast<size_t>(total));
  if constexpr (payload == payload_t::position) {
    t.weights.swap(weights);
    t.timestamps.swap(stamps);
  } else {
    t.weights.resize(static_cast<size_t>(total) * k);
  }
}

/// Sorts (and merges) in two levels. A counting pass and a scatter by the source's high bits
/// put the edges into about 1024 buckets, streaming: a scatter into one bucket per source (n
/// buckets) missed the cache and the TLB on almost every record and was most of the read.
/// Each bucket, a few hundred KiB, is then sorted by (source's low bits, target) with the
/// library's LSD radix sort inside the core's cache, merged, and written out. Both levels are
/// stable, so a merge keeps the last edge read and kept duplicates stay in file order.
template <payload_t payload, class id_t>
void bucket_sort_edges(edge_table_t& t, column_t<id_t>& src, column_t<id_t>& dst, bool merge,
                       int threads) {
  using record_t = bucket_record_t<payload>;
  const bucket_layout_t layout = bucket_layout(t.num_vertices);
  const int64_t buckets = layout.buckets;
  column_t<int64_t> start(static_cast<size_t>(buckets) + 1);
  column_t<record_t> records(static_cast<size_t>(t.size()));
  scatter_into_buckets<payload>(t, src, dst, layout, threads, start, records);
  // Sorted and merged in place; kept[b + 1] is how many records bucket b keeps.
  column_t<int64_t> kept(static_cast<size_t>(buckets) + 1);
  const int key_bits = layout.low_bits + layout.dst_bits;
  const bool by_time = !merge && t.timed;
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    std::vector<record_t> scratch;
#pragma omp for schedule(dynamic, 1)
    for (int64_t b = 0; b < buckets; ++b) {
      kept[b + 1] = sort_bucket<payload>(records.data() + start[b], start[b + 1] - start[b],
                                         scratch, key_bits, by_time, merge, t);
    }
  }
  for (int64_t b = 0; b < buckets; ++b) kept[b + 1] += kept[b];
  write_back_buckets<payload>(t, src, dst, layout, start, kept, records, threads);
}

template <class id_t>
void bucket_sort_edges(edge_table_t& t, column_t<id_t>& src, column_t<id_t>& dst, bool merge,
                       int threads) {
  if (!t.timed && t.num_weights == 0)
    bucket_sort_edges<payload_t::none>(t, src, dst, merge, threads);
  else if (!t.timed && t.num_weights == 1)
    bucket_sort_edges<payload_t::weight>(t, src, dst, merge, threads);
  else bucket_sort_edges<payload_t::position>(t, src, dst, merge, threads);
}

/// Positions of the edges in stable (src, dst) order by radix sort: the fallback for ids too
/// sparse for row buckets.
template <class id_t>
std::vector<record_t> radix_order(const edge_table_t& t, const column_t<id_t>& src,
                                  const column_t<id_t>& dst, int threads) {
  const int64_t m = t.size();
  const int bits = key_bits_below(std::max<int64_t>(t.num_vertices, 1));
  std::vector<record_t> records(m), scratch;
  if (2 * bits <= 64) {
#pragma omp parallel for num_threads(threads) if (threads > 1)
    for (int64_t e = 0; e < m; ++e)
      records[e] = {(static_cast<uint64_t>(src[e]) << bits) | static_cast<uint64_t>(dst[e]), e};
    radix_sort_vector(records, scratch, 2 * bits, [](const record_t& r) { return r.key; }, threads);
    return records;
  }
  // Ids too wide for one 64-bit key: two stable passes, destination first.
  for (int64_t e = 0; e < m; ++e) records[e] = {static_cast<uint64_t>(dst[e]), e};
  radix_sort_vector(records, scratch, bits, [](const record_t& r) { return r.key; }, threads);
  for (auto& r : records) r.key = static_cast<uint64_t>(src[r.at]);
  radix_sort_vector(records, scratch, bits, [](const record_t& r) { return r.key; }, threads);
  return records;
}

template <class id_t>
void radix_sort_edges(edge_table_t& t, column_t<id_t>& src, column_t<id_t>& dst, bool merge,
                      int threads) {
  std::vector<record_t> order = radix_order(t, src, dst, threads);
  auto same_pair = [&](int64_t a, int64_t b) { return src[a] == src[b] && dst[a] == dst[b]; };
  if (!merge && t.timed) {
    // Kept duplicates are ordered by timestamp (stable), as 0.2.0 orders them.
    const auto m = static_cast<int64_t>(order.size());
    for (int64_t i = 0; i < m;) {
      int64_t j = i + 1;
      while (j < m && same_pair(order[j].at, order[i].at)) ++j;
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
    const auto m = static_cast<int64_t>(order.size());
    for (int64_t i = 0; i < m; ++i) {
      if (i + 1 < m && same_pair(order[i + 1].at, order[i].at)) continue;
      order[out++] = order[i];
    }
    order.resize(out);
  }
  const auto m = static_cast<int64_t>(order.size());
  const int k = t.num_weights;
  column_t<id_t> s(static_cast<size_t>(m)), d(static_cast<size_t>(m));
  column_t<int32_t> w(static_cast<size_t>(m) * k);
  column_t<int64_t> stamps(t.timed ? static_cast<size_t>(m) : 0);
#pragma omp parallel for num_threads(threads) if (threads > 1)
  for (int64_t i = 0; i < m; ++i) {
    const int64_t e = order[i].at;
    s[i] = src[e];
    d[i] = dst[e];
    for (int j = 0; j < k; ++j) w[i * k + j] = t.weights[e * k + j];
    if (t.timed) stamps[i] = t.timestamps[e];
  }
  src.swap(s);
  dst.swap(d);
  t.weights.swap(w);
  t.timestamps.swap(stamps);
}

}  // namespace

void sort_edges(edge_table_t& t, bool merge, int threads) {
  t.with_ids([&](auto& src, auto& dst) {
    if (already_in_order(t, src, dst, merge)) return;
    // Buckets need 32-bit keys and positions and a bucket count that the ids do not blow up.
    const bool fits = t.num_vertices <= (int64_t{1} << 32) && t.size() < (int64_t{1} << 32);
    if (fits && t.num_vertices <= 2 * t.size() + (int64_t{1} << 20))
      bucket_sort_edges(t, src, dst, merge, threads);
    else radix_sort_edges(t, src, dst, merge, threads);
  });
}

}  // namespace dyng::io
