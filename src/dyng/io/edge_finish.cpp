// finish_edges(): the clean-up shared by every edge reader, in the order finish_options_t
// lists: self-loops dropped, ids renumbered (id_compaction.cpp), mirrors added, edges from
// sources outside the range left out, edges sorted and merged (edge_sort.cpp). Also the seeded
// weights of mospPrep's mtx2csr.
#include <algorithm>
#include <random>

#include "dyng/core/stdlib_random.hpp"
#include "dyng/io/edge_steps.hpp"

namespace dyng::io {
namespace {

/// Keeps the edges for which keep(e) is true, in order, with their weights and timestamps.
template <class id_t, class keep_fn>
void filter_edges(edge_table_t& t, column_t<id_t>& src, column_t<id_t>& dst, keep_fn&& keep) {
  const int64_t m = t.size();
  const int k = t.num_weights;
  int64_t out = 0;
  for (int64_t e = 0; e < m; ++e) {
    if (!keep(src[e], dst[e])) continue;
    src[out] = src[e];
    dst[out] = dst[e];
    for (int j = 0; j < k; ++j) t.weights[out * k + j] = t.weights[e * k + j];
    if (t.timed) t.timestamps[out] = t.timestamps[e];
    ++out;
  }
  t.resize(out);
}

/// Each mirror (v, u) goes right after its edge, so "last wins" merging sees the file's order
/// of both directions (what 0.2.0 does).
template <class id_t>
void symmetrize(edge_table_t& t, column_t<id_t>& src, column_t<id_t>& dst) {
  const int64_t m = t.size();
  const int k = t.num_weights;
  int64_t rows = 0;
  for (int64_t e = 0; e < m; ++e) rows += src[e] == dst[e] ? 1 : 2;
  column_t<id_t> s(static_cast<size_t>(rows)), d(static_cast<size_t>(rows));
  column_t<int32_t> w(static_cast<size_t>(rows) * k);
  column_t<int64_t> stamps(t.timed ? static_cast<size_t>(rows) : 0);
  int64_t at = 0;
  for (int64_t e = 0; e < m; ++e) {
    const int copies = src[e] == dst[e] ? 1 : 2;
    for (int c = 0; c < copies; ++c, ++at) {
      s[at] = c == 0 ? src[e] : dst[e];
      d[at] = c == 0 ? dst[e] : src[e];
      for (int j = 0; j < k; ++j) w[at * k + j] = t.weights[e * k + j];
      if (t.timed) stamps[at] = t.timestamps[e];
    }
  }
  src.swap(s);
  dst.swap(d);
  t.weights.swap(w);
  t.timestamps.swap(stamps);
}

/// max id + 1 (0 for no edges).
template <class id_t>
int64_t id_count(const column_t<id_t>& src, const column_t<id_t>& dst, int threads) {
  const auto m = static_cast<int64_t>(src.size());
  int64_t hi = -1;
#pragma omp parallel for num_threads(threads) reduction(max : hi) if (threads > 1)
  for (int64_t e = 0; e < m; ++e)
    hi = std::max({hi, static_cast<int64_t>(src[e]), static_cast<int64_t>(dst[e])});
  return hi + 1;
}

}  // namespace

void finish_edges(edge_table_t& t, const finish_options_t& options) {
  const int threads = std::max(1, options.threads);
  if (options.drop_self_loops)
    t.with_ids([&t](auto& src, auto& dst) {
      filter_edges(t, src, dst, [](auto s, auto d) { return s != d; });
    });
  if (options.compact) {
    compact_ids(t, threads);
  } else if (t.num_vertices < 0) {
    t.num_vertices =
        t.with_ids([threads](auto& src, auto& dst) { return id_count(src, dst, threads); });
  }
  if (options.symmetrize) t.with_ids([&t](auto& src, auto& dst) { symmetrize(t, src, dst); });
  if (!options.sources.all())
    t.with_ids([&t, range = options.sources](auto& src, auto& dst) {
      filter_edges(t, src, dst, [range](auto s, auto) { return range.holds(s); });
    });
  if (options.sort) sort_edges(t, options.merge_duplicates, threads);
}

std::vector<int32_t> seeded_uniform(int64_t count, int32_t lo, int32_t hi, uint32_t seed) {
  // mospPrep's std::uniform_int_distribution as libstdc++ maps it (core/stdlib_random.hpp): the
  // wheels' libc++ would give other weights.
  std::mt19937 rng(seed);
  std::vector<int32_t> values(static_cast<size_t>(count));
  for (auto& w : values) w = stdlib_random::uniform_int(rng, lo, hi);
  return values;
}

void draw_random_weights(edge_table_t& t, int num_weights, int32_t lo, int32_t hi, uint32_t seed) {
  const std::vector<int32_t> drawn = seeded_uniform(t.size() * num_weights, lo, hi, seed);
  t.num_weights = num_weights;
  t.weights = column_t<int32_t>(drawn.size());
  std::copy(drawn.begin(), drawn.end(), t.weights.begin());
}

}  // namespace dyng::io
