// from_edges against a direct model of its spec on random edge lists, for every combination of
// direction, order, parallel edges, in-edges and K in {0, 1, 2}: rows slot for slot, and the
// headroom layout (each row its degree plus spare slots, then the free tail).
#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "check.hpp"
#include "dyng/graph/detail/slots.hpp"
#include "graph/graph_test_util.hpp"

using namespace graph_test;
using dyng::edge_order_t;

namespace {

struct entry_t {
  int64_t row;
  int64_t col;
  std::vector<int32_t> w;
};

/// Rows the spec asks for: entries in input order (the first copy of a merged pair, with its last
/// weights), both directions for an undirected pair, stably sorted by column when sorted.
std::vector<row_t> model_rows(int64_t n, const std::vector<int64_t>& src,
                              const std::vector<int64_t>& dst, const std::vector<int32_t>& w, int k,
                              const dyng::graph_properties_t& p, bool transposed) {
  const int64_t m = static_cast<int64_t>(src.size());
  std::map<std::pair<int64_t, int64_t>, int64_t> last;
  auto key = [&](int64_t i) {
    return p.directed ? std::pair{src[i], dst[i]}
                      : std::pair{std::min(src[i], dst[i]), std::max(src[i], dst[i])};
  };
  for (int64_t i = 0; i < m; ++i) last[key(i)] = i;
  std::map<std::pair<int64_t, int64_t>, bool> seen;
  std::vector<row_t> rows(static_cast<size_t>(n));
  for (int64_t i = 0; i < m; ++i) {
    int64_t wi = i;
    if (!p.allow_parallel_edges) {
      if (seen[key(i)]) continue;
      seen[key(i)] = true;
      wi = last[key(i)];
    }
    const std::vector<int32_t> ws(w.begin() + wi * k, w.begin() + (wi + 1) * k);
    const int64_t a = transposed ? dst[i] : src[i];
    const int64_t b = transposed ? src[i] : dst[i];
    rows[a].push_back({b, ws});
    if (!p.directed && a != b) rows[b].push_back({a, ws});
  }
  if (p.order == edge_order_t::sorted) {
    for (auto& r : rows) {
      std::stable_sort(r.begin(), r.end(),
                       [](const auto& x, const auto& y) { return x.first < y.first; });
    }
  }
  return rows;
}

/// Builds random graphs and compares them with the model: `trials` graphs of up to `max_n`
/// vertices and `max_m` edges (at least half of each), with random properties; `ascending`
/// sorts the sources (the input order that skips the staged scatter).
template <class G>
void check_random(uint64_t seed, int trials = 200, int64_t max_n = 40, int64_t max_m = 300,
                  bool ascending = false) {
  using vid_t = typename G::vertex_type;
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const int64_t n = max_n / 2 + 1 + static_cast<int64_t>(rng() % (max_n - max_n / 2));
    const int64_t m = max_m / 2 + static_cast<int64_t>(rng() % (max_m - max_m / 2));
    // Skewed ids: a few heavy rows (long, unsorted, many repeats) among short ones.
    auto id = [&]() {
      return static_cast<int64_t>(rng() % 3 == 0 ? rng() % std::min<int64_t>(n, 3) : rng() % n);
    };
    const int k = static_cast<int>(rng() % 3);
    auto p = props(rng() % 2 == 0, k, rng() % 2 == 0 ? edge_order_t::sorted : edge_order_t::append,
                   rng() % 3 == 0);
    p.store_transposed = rng() % 4 != 0;
    p.headroom = (rng() % 3) * 0.25;
    std::vector<int64_t> src, dst;
    std::vector<vid_t> s, d;
    std::vector<int32_t> w;
    for (int64_t i = 0; i < m; ++i) {
      src.push_back(id());
      dst.push_back(id());
    }
    if (ascending) std::sort(src.begin(), src.end());
    for (int64_t i = 0; i < m; ++i) {
      s.push_back(static_cast<vid_t>(src[i]));
      d.push_back(static_cast<vid_t>(dst[i]));
      for (int j = 0; j < k; ++j) w.push_back(static_cast<int32_t>(rng() % 1000));
    }
    auto g = G::from_edges(static_cast<vid_t>(n), std::span<const vid_t>(s),
                           std::span<const vid_t>(d), std::span<const int32_t>(w), p);
    g.check_integrity();
    const auto out = model_rows(n, src, dst, w, k, p, false);
    int64_t stored = 0, slots = 0;
    for (int64_t v = 0; v < n; ++v) {
      CHECK((row(g.out_view(), v) == out[v]));
      const int64_t deg = static_cast<int64_t>(out[v].size());
      stored += deg;
      slots += deg + dyng::detail::spare_slots(deg, p.headroom);
    }
    CHECK_EQ(static_cast<int64_t>(g.num_edges()), stored);
    CHECK_EQ(g.slot_capacity(), slots + dyng::detail::tail_slots(stored, p.headroom));
    if (p.directed && p.store_transposed) {
      const auto in = model_rows(n, src, dst, w, k, p, true);
      for (int64_t v = 0; v < n; ++v) CHECK((row(g.in_view(), v) == in[v]));
    }
  }
}

}  // namespace

DYNG_TEST("from_edges matches the model on random edge lists: i32/i32") {
  check_random<dyng::graph_t<int32_t, int32_t>>(1);
}
DYNG_TEST("from_edges matches the model on random edge lists: i32/i64") {
  check_random<dyng::graph_t<int32_t, int64_t>>(2);
}
DYNG_TEST("from_edges matches the model on random edge lists: i64/i64") {
  check_random<dyng::graph_t<int64_t, int64_t>>(3);
}

// More rows than the direct scatter handles (2^16): the staged scatter and transpose, and the
// parallel per-row pass where OpenMP is on.
DYNG_TEST("from_edges matches the model with more than 65536 rows") {
  check_random<dyng::graph_t<int32_t, int64_t>>(4, 4, 140000, 200000);
  check_random<dyng::graph_t<int32_t, int32_t>>(5, 2, 140000, 200000, true);
}

DYNG_TEST_MAIN()
