// compact_ids(): the file's ids renumbered 0..n-1 in ascending order.
//
// Dense ids (the usual case: 0..n-1 or 1..n with gaps, span at most about 2m) go through a
// bitmap with per-word counts (id_ranks.hpp): each thread marks its share of the edges in a
// bitmap of its own, the bitmaps are merged word by word, and every id is replaced by its rank
// in place. Sparse ids (a few huge values) fall back to sorting the distinct ids and a binary
// search per id. Either way the ranks fit 32 bits, so a table read with 64-bit ids comes out
// with 32-bit ones.
#include <algorithm>
#include <limits>
#include <type_traits>

#include "dyng/core/thread_share.hpp"
#include "dyng/io/edge_steps.hpp"
#include "dyng/io/id_ranks.hpp"

namespace dyng::io {
namespace {

template <class id_t>
void id_bounds(const column_t<id_t>& src, const column_t<id_t>& dst, int threads, int64_t& lo,
               int64_t& hi) {
  const auto m = static_cast<int64_t>(src.size());
  int64_t l = std::numeric_limits<int64_t>::max(), h = std::numeric_limits<int64_t>::min();
#pragma omp parallel for num_threads(threads) reduction(min : l) reduction(max : h) if (threads > 1)
  for (int64_t e = 0; e < m; ++e) {
    const int64_t s = static_cast<int64_t>(src[e]), d = static_cast<int64_t>(dst[e]);
    l = std::min({l, s, d});
    h = std::max({h, s, d});
  }
  lo = l;
  hi = h;
}

/// Replaces every id by rank(id): in place for 32-bit ids; for 64-bit ones into new 32-bit
/// columns when the n ranks fit them, so the table leaves here narrow.
template <class id_t, class rank_fn>
void renumber(edge_table_t& t, column_t<id_t>& src, column_t<id_t>& dst, int64_t n, rank_fn&& rank,
              int threads) {
  const auto m = static_cast<int64_t>(src.size());
  if constexpr (std::is_same_v<id_t, int64_t>) {
    if (fits_narrow(n - 1)) {
      column_t<uint32_t> s(static_cast<size_t>(m)), d(static_cast<size_t>(m));
#pragma omp parallel for num_threads(threads) if (threads > 1)
      for (int64_t e = 0; e < m; ++e) {
        s[e] = static_cast<uint32_t>(rank(src[e]));
        d[e] = static_cast<uint32_t>(rank(dst[e]));
      }
      t.src32.swap(s);
      t.dst32.swap(d);
      column_t<int64_t>().swap(t.src64);
      column_t<int64_t>().swap(t.dst64);
      t.wide = false;
      return;
    }
  }
#pragma omp parallel for num_threads(threads) if (threads > 1)
  for (int64_t e = 0; e < m; ++e) {
    src[e] = static_cast<id_t>(rank(static_cast<int64_t>(src[e])));
    dst[e] = static_cast<id_t>(rank(static_cast<int64_t>(dst[e])));
  }
}

template <class id_t>
void compact_dense(edge_table_t& t, column_t<id_t>& src, column_t<id_t>& dst, int64_t lo,
                   uint64_t span, int threads) {
  const auto m = static_cast<int64_t>(src.size());
  std::vector<id_ranks_t> sets(static_cast<size_t>(threads), id_ranks_t(lo, span));
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    const thread_share_t me = thread_share(m);
    id_ranks_t& mine = sets[static_cast<size_t>(me.thread)];
    for (int64_t e = me.lo; e < me.hi; ++e) {
      mine.add(static_cast<int64_t>(src[e]));
      mine.add(static_cast<int64_t>(dst[e]));
    }
#pragma omp barrier
    // Each thread merges every other set into the first one over its own share of the words.
    const thread_share_t words = thread_share(static_cast<int64_t>(sets[0].words()));
    for (int u = 1; u < words.threads; ++u)
      sets[0].add_all(sets[static_cast<size_t>(u)], static_cast<size_t>(words.lo),
                      static_cast<size_t>(words.hi));
  }
  id_ranks_t& ids = sets[0];
  const int64_t n = ids.count_ranks();
  t.external_ids.resize(static_cast<size_t>(n));
  const auto words = static_cast<int64_t>(ids.words());
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    const thread_share_t me = thread_share(words);
    ids.list(t.external_ids.data(), static_cast<size_t>(me.lo), static_cast<size_t>(me.hi));
  }
  renumber(t, src, dst, n, [&ids](int64_t id) { return ids.rank(id); }, threads);
  t.num_vertices = n;
}

template <class id_t>
void compact_sparse(edge_table_t& t, column_t<id_t>& src, column_t<id_t>& dst, int threads) {
  const auto m = static_cast<int64_t>(src.size());
  std::vector<int64_t> ids;
  ids.reserve(static_cast<size_t>(2 * m));
  ids.insert(ids.end(), src.begin(), src.end());
  ids.insert(ids.end(), dst.begin(), dst.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  const auto n = static_cast<int64_t>(ids.size());
  renumber(
      t, src, dst, n,
      [&ids](int64_t id) -> int64_t {
        return std::lower_bound(ids.begin(), ids.end(), id) - ids.begin();
      },
      threads);
  t.num_vertices = n;
  t.external_ids = std::move(ids);
}

}  // namespace

void compact_ids(edge_table_t& t, int threads) {
  if (t.size() == 0) {
    t.num_vertices = 0;
    t.external_ids.clear();
    return;
  }
  t.with_ids([&](auto& src, auto& dst) {
    int64_t lo = t.id_lo, hi = t.id_hi;
    if (!t.id_bounds_known) id_bounds(src, dst, threads, lo, hi);
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    const auto m = static_cast<uint64_t>(t.size());
    // Ranks fit 32 bits when m < 2^31 (at most 2m distinct ids); the bitmaps take at most
    // (2m + 2^20) / 8 bytes per thread, a small part of what the ids themselves take.
    if (m < (uint64_t{1} << 31) && span <= 2 * m + (uint64_t{1} << 20))
      compact_dense(t, src, dst, lo, span, threads);
    else compact_sparse(t, src, dst, threads);
  });
}

}  // namespace dyng::io
