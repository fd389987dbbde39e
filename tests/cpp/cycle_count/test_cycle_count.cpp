// cycle_count on the host backends: compute (sequential and a forced OpenMP team) equals plain
// enumeration (enumerate_cycles, no shortcuts) and a brute force over vertex sequences on tiny
// graphs, for bounds 2..8 and unbounded; after random batches (deletions of cycle edges, both
// directions of a pair, insert and delete of one edge, self-loops, vertex growth, directed and
// undirected) every update variant equals a fresh compute; bad input is refused; counts never
// wrap.
#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "check.hpp"
#include "cycle_count/cycle_test_graphs.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/cycle_count/detail/histogram.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/whole_graph_count/counts.hpp"

namespace {

using namespace dyng;
namespace cc = dyng::cycle_count;
using dyng_test::props_of;
using dyng_test::random_batch;
using dyng_test::random_graph;

execution_t exec_of(backend_t backend) {
  execution_t exec;
  exec.backend = backend;
  exec.num_threads = 2;
  return exec;
}

/// Cycles by trying every sequence of distinct vertices that starts at its smallest one.
std::vector<uint64_t> brute_force(int64_t n, const std::set<std::pair<int64_t, int64_t>>& edges,
                                  int64_t bound) {
  std::vector<uint64_t> hist(static_cast<size_t>(bound) + 1, 0);
  std::vector<int64_t> seq;
  std::vector<bool> used(static_cast<size_t>(n), false);
  auto edge = [&](int64_t u, int64_t v) { return u != v && edges.count({u, v}) > 0; };
  auto extend = [&](auto&& self) -> void {
    const int64_t len = static_cast<int64_t>(seq.size());
    if (len >= 2 && edge(seq.back(), seq.front())) ++hist[static_cast<size_t>(len)];
    if (len == bound) return;
    for (int64_t w = seq.front() + 1; w < n; ++w) {
      if (used[w] || !edge(seq.back(), w)) continue;
      used[w] = true;
      seq.push_back(w);
      self(self);
      seq.pop_back();
      used[w] = false;
    }
  };
  for (int64_t r = 0; r < n; ++r) {
    seq.assign(1, r);
    used[r] = true;
    extend(extend);
    used[r] = false;
  }
  return hist;
}

template <class eid_t>
std::set<std::pair<int64_t, int64_t>> edge_set(const graph_t<int32_t, eid_t>& g) {
  std::vector<int32_t> src, dst;
  std::vector<int32_t> w;
  g.edges(src, dst, w);
  std::set<std::pair<int64_t, int64_t>> out;
  for (size_t e = 0; e < src.size(); ++e) out.insert({src[e], dst[e]});
  return out;
}

const int64_t k_bounds[] = {cc::k_unbounded, 2, 3, 4, 5, 8};

DYNG_TEST("compute equals enumeration and the brute force") {
  std::mt19937_64 rng(1);
  for (int trial = 0; trial < 120; ++trial) {
    const int32_t n = static_cast<int32_t>(2 + rng() % 7);
    const bool directed = rng() % 4 != 0;
    auto g = random_graph<int32_t>(rng, n, static_cast<int64_t>(rng() % (3 * n + 1)), directed,
                                   rng() % 2 == 0);
    for (const int64_t max_length : k_bounds) {
      cc::options_t options;
      options.max_length = max_length;
      options.parallel_min_edges = 0;
      const auto want = brute_force(n, edge_set(g), cc::bound_of(max_length, n));
      CHECK(cc::enumerate_cycles(g, max_length) == want);
      for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
        cc::state_t<int32_t> state;
        const cc::stats_t stats = cc::compute(g, options, exec_of(backend), state);
        CHECK(state.counts == want);
        CHECK_EQ(stats.affected, static_cast<int64_t>(std::count_if(
                                     want.begin(), want.end(), [](uint64_t c) { return c > 0; })));
      }
    }
  }
}

DYNG_TEST("compute on a denser graph equals enumeration, both backends") {
  std::mt19937_64 rng(2);
  auto g = random_graph<int64_t>(rng, 60, 400, true, true);
  for (const int64_t max_length : {3, 5, 7}) {
    cc::options_t options;
    options.max_length = max_length;
    options.parallel_min_edges = 0;
    const auto want = cc::enumerate_cycles(g, max_length);
    for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
      cc::state_t<int32_t> state;
      cc::compute(g, options, exec_of(backend), state);
      CHECK(state.counts == want);
    }
  }
}

template <class eid_t>
void random_updates(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < trials; ++trial) {
    const int32_t n = static_cast<int32_t>(3 + rng() % 30);
    const bool directed = rng() % 4 != 0;
    auto g = random_graph<eid_t>(rng, n, static_cast<int64_t>(rng() % (3 * n)), directed,
                                 rng() % 3 != 0);
    cc::options_t options;
    options.max_length = k_bounds[rng() % std::size(k_bounds)];
    if (options.max_length == cc::k_unbounded && n > 14) options.max_length = 9;
    options.parallel_min_edges = 0;
    cc::state_t<int32_t> state;
    cc::compute(g, options, exec_of(backend_t::sequential), state);
    for (int round = 0; round < 5; ++round) {
      std::vector<int32_t> is, id, ds, dd;
      random_batch(rng, g, is, id, ds, dd);
      change_log_t<int32_t> log;
      g.apply({is, id, {}, 0, ds, dd}, &log);
      cc::state_t<int32_t> fresh;
      cc::compute(g, options, exec_of(backend_t::sequential), fresh);
      CHECK(fresh.counts == cc::enumerate_cycles(g, options.max_length));
      for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
        for (const double budget : {-1.0, 0.0, 1e9}) {
          cc::state_t<int32_t> updated = state;
          cc::options_t o = options;
          o.repair_budget = budget;
          const cc::stats_t stats = cc::update(g, log, o, exec_of(backend), updated);
          CHECK(updated.counts == fresh.counts);
          CHECK_EQ(updated.num_vertices, static_cast<int64_t>(g.num_vertices()));
          CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
          if (budget == 0.0) CHECK(stats.path == update_path_t::recompute);
          if (budget >= 1e9) {
            CHECK(stats.path == update_path_t::incremental);
            int64_t changed = 0;
            for (size_t l = 0; l < fresh.counts.size(); ++l) {
              changed += (l < state.counts.size() ? state.counts[l] : 0) != fresh.counts[l];
            }
            CHECK_EQ(stats.affected, changed);
          }
          ++paths[stats.path == update_path_t::incremental ? 0 : 1];
        }
      }
      state = fresh;
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("update equals a fresh compute on random batches, i32/i32") {
  random_updates<int32_t>(3, 80);
}
DYNG_TEST("update equals a fresh compute on random batches, i32/i64") {
  random_updates<int64_t>(4, 40);
}

DYNG_TEST("every-length updates (Johnson's searches through the changed edges) on dense graphs") {
  // Dense enough that most paths pass through the changed edges, whose rows the searches read
  // as filtered copies while the others read the stored rows.
  std::mt19937_64 rng(11);
  int incremental = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int32_t n = static_cast<int32_t>(4 + rng() % 7);
    auto g = random_graph<int32_t>(rng, n, n * n / 2, rng() % 4 != 0, rng() % 2 == 0);
    cc::options_t options;
    options.max_length = trial % 3 == 0 ? int64_t{n} + 2 : cc::k_unbounded;
    options.parallel_min_edges = 0;
    cc::state_t<int32_t> state;
    cc::compute(g, options, exec_of(backend_t::sequential), state);
    for (int round = 0; round < 3; ++round) {
      std::vector<int32_t> is, id, ds, dd;
      random_batch(rng, g, is, id, ds, dd, 9, 8);
      change_log_t<int32_t> log;
      g.apply({is, id, {}, 0, ds, dd}, &log);
      const auto want = cc::enumerate_cycles(g, options.max_length);
      for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
        for (const double budget : {-1.0, 1e9}) {
          cc::state_t<int32_t> updated = state;
          cc::options_t o = options;
          o.repair_budget = budget;
          const cc::stats_t stats = cc::update(g, log, o, exec_of(backend), updated);
          CHECK(updated.counts == want);
          incremental += stats.path == update_path_t::incremental ? 1 : 0;
        }
      }
      state.counts = want;
      state.num_vertices = g.num_vertices();
    }
  }
  CHECK(incremental > 0);
}

DYNG_TEST("bad input is refused") {
  std::vector<int32_t> src{0, 1}, dst{1, 0};
  graph_properties_t append = props_of(true, true);
  append.order = edge_order_t::append;
  auto unsorted = graph_t<int32_t, int32_t>::from_edges(2, src, dst, {}, append);
  cc::state_t<int32_t> state;
  CHECK_THROWS_AS(cc::compute(unsorted, {}, exec_of(backend_t::sequential), state),
                  invalid_argument_error);
  std::vector<int64_t> src64{0, 1}, dst64{1, 0};
  auto wide = graph_t<int64_t, int64_t>::from_edges(2, src64, dst64, {}, props_of(true, true));
  cc::state_t<int64_t> wide_state;
  CHECK_THROWS_AS(cc::compute(wide, {}, exec_of(backend_t::sequential), wide_state),
                  not_supported_error);
  auto g = graph_t<int32_t, int32_t>::from_edges(2, src, dst, {}, props_of(true, true));
  for (const int64_t bad : {0, 1, -2}) {
    cc::options_t options;
    options.max_length = bad;
    CHECK_THROWS_AS(cc::compute(g, options, exec_of(backend_t::sequential), state),
                    invalid_argument_error);
  }
  cc::compute(g, {}, exec_of(backend_t::sequential), state);
  CHECK(state.counts == std::vector<uint64_t>({0, 0, 1}));
}

DYNG_TEST("every length (Johnson's blocking) equals the bounded search and the formula") {
  // The complete digraph on 7 vertices: C(7, l) (l - 1)! cycles of length l.
  std::vector<int32_t> src, dst;
  for (int32_t u = 0; u < 7; ++u) {
    for (int32_t v = 0; v < 7; ++v) {
      if (u != v) src.push_back(u), dst.push_back(v);
    }
  }
  auto k7 = graph_t<int32_t, int32_t>::from_edges(7, src, dst, {}, props_of(true, true));
  const std::vector<uint64_t> want{0, 0, 21, 70, 210, 504, 840, 720};
  for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
    cc::options_t options;
    options.parallel_min_edges = 0;
    cc::state_t<int32_t> state;
    cc::compute(k7, options, exec_of(backend), state);
    CHECK(state.counts == want);
  }
  // A larger strongly connected graph: every length against the bounded search below n.
  std::mt19937_64 rng(9);
  const int32_t n = 30;
  src.clear(), dst.clear();
  for (int32_t v = 0; v < n; ++v) src.push_back(v), dst.push_back((v + 1) % n);
  for (int e = 0; e < 20; ++e) {
    src.push_back(static_cast<int32_t>(rng() % n)), dst.push_back(static_cast<int32_t>(rng() % n));
  }
  auto g = graph_t<int32_t, int32_t>::from_edges(n, src, dst, {}, props_of(true, false));
  cc::options_t all, below;
  below.max_length = n - 1;
  cc::state_t<int32_t> every, bounded;
  cc::compute(g, all, exec_of(backend_t::sequential), every);
  cc::compute(g, below, exec_of(backend_t::sequential), bounded);
  CHECK(std::vector<uint64_t>(every.counts.begin(), every.counts.end() - 1) == bounded.counts);
  CHECK(every.counts == cc::enumerate_cycles(g, -1));
}

DYNG_TEST("counts never wrap past 2^64 - 1") {
  std::vector<uint64_t> hist(4, 0);
  hist[3] = UINT64_MAX - 1;
  cc::detail::add_count(hist, 3, 1);
  CHECK_EQ(hist[3], UINT64_MAX);
  CHECK_THROWS_AS(cc::detail::add_count(hist, 3, 1), capacity_error);
  std::vector<uint64_t> more(4, 0);
  more[3] = 2;
  hist[3] = UINT64_MAX - 1;
  CHECK_THROWS_AS(cc::detail::add_histogram(hist, more), capacity_error);
}

DYNG_TEST("the whole-graph counts' arithmetic agrees for a number and a histogram") {
  namespace wgc = dyng::whole_graph_count;
  const wgc::histogram_t before{0, 0, 3, 5}, now{0, 0, 1, 9, 2};
  uint64_t added = 0, removed = 0;
  wgc::add_net_change(before, now, added, removed);
  CHECK_EQ(added, uint64_t{6});  // 4 more of length 3, 2 of length 4 where none were
  CHECK_EQ(removed, uint64_t{2});
  CHECK_EQ(wgc::changed_entries(before, now), 3);
  CHECK_EQ(wgc::nonzero_entries(now), 3);
  uint64_t one_added = 0, one_removed = 0;
  wgc::add_net_change(uint64_t{7}, uint64_t{4}, one_added, one_removed);
  CHECK_EQ(one_added, uint64_t{0});
  CHECK_EQ(one_removed, uint64_t{3});
  wgc::histogram_t counts = before;
  wgc::take_away(counts, {0, 0, 3, 1}, "cycle_count");
  CHECK(counts == wgc::histogram_t({0, 0, 0, 4}));
  const wgc::histogram_t too_many{0, 0, 1, 0};
  CHECK_THROWS_AS(wgc::take_away(counts, too_many, "cycle_count"), internal_error);
  uint64_t count = 2;
  CHECK_THROWS_AS(wgc::take_away(count, uint64_t{3}, "triangle_delta"), internal_error);
  wgc::histogram_t grown = before;
  grown.resize(6, 0);
  wgc::restore(grown, before);
  CHECK(grown == before);
}

}  // namespace

DYNG_TEST_MAIN()
