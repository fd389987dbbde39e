// triangle_delta on the host backends: compute (sequential and a forced OpenMP team) equals a
// brute force over vertex triples; after random adversarial batches (deletions of triangle edges,
// insert and delete of one edge, both directions of a pair, self-loops, vertex growth) every
// update variant (default budget, always recompute, never recompute; both backends) equals a
// fresh compute, and its counters add up; unsuitable graphs are refused.
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "check.hpp"
#include "cycle_count/cycle_test_graphs.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/triangle_delta/triangle_delta.hpp"

namespace {

using namespace dyng;
namespace td = dyng::triangle_delta;
using dyng_test::props_of;
using dyng_test::random_batch;
using dyng_test::random_graph;

execution_t exec_of(backend_t backend) {
  execution_t exec;
  exec.backend = backend;
  exec.num_threads = 2;
  return exec;
}

/// Triangles by trying every triple u < v < w.
template <class eid_t>
uint64_t brute_force(const graph_t<int32_t, eid_t>& g) {
  std::vector<int32_t> src, dst, w;
  g.edges(src, dst, w);
  std::set<std::pair<int32_t, int32_t>> edges;
  for (size_t e = 0; e < src.size(); ++e) edges.insert({src[e], dst[e]});
  auto adjacent = [&](int32_t a, int32_t b) { return edges.count({a, b}) > 0; };
  const int32_t n = g.num_vertices();
  uint64_t found = 0;
  for (int32_t u = 0; u < n; ++u) {
    for (int32_t v = u + 1; v < n; ++v) {
      if (!adjacent(u, v)) continue;
      for (int32_t x = v + 1; x < n; ++x) found += adjacent(u, x) && adjacent(v, x) ? 1 : 0;
    }
  }
  return found;
}

/// A clique on k vertices plus a few stray edges, so batches meet many triangles at once.
template <class eid_t>
graph_t<int32_t, eid_t> clique_graph(std::mt19937_64& rng, int32_t n, int32_t k) {
  std::vector<int32_t> src, dst;
  for (int32_t a = 0; a < k; ++a) {
    for (int32_t b = a + 1; b < k; ++b) src.push_back(a), dst.push_back(b);
  }
  for (int e = 0; e < n; ++e) {
    src.push_back(static_cast<int32_t>(rng() % n));
    dst.push_back(static_cast<int32_t>(rng() % n));
  }
  return graph_t<int32_t, eid_t>::from_edges(n, src, dst, {}, props_of(false, false));
}

DYNG_TEST("compute equals the brute force, both backends") {
  std::mt19937_64 rng(1);
  for (int trial = 0; trial < 200; ++trial) {
    const int32_t n = static_cast<int32_t>(1 + rng() % 40);
    auto g = trial % 3 == 0 ? clique_graph<int64_t>(rng, n, std::min<int32_t>(n, 8))
                            : random_graph<int64_t>(
                                  rng, n, static_cast<int64_t>(rng() % (4 * n + 1)), false, false);
    const uint64_t want = brute_force(g);
    for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
      td::options_t options;
      options.parallel_min_edges = 0;
      td::state_t<int32_t> state;
      const td::stats_t stats = td::compute(g, options, exec_of(backend), state);
      CHECK_EQ(state.count, want);
      CHECK_EQ(stats.affected, want != 0 ? 1 : 0);
      CHECK(stats.path == update_path_t::compute);
    }
  }
}

template <class eid_t>
void random_updates(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < trials; ++trial) {
    const int32_t n = static_cast<int32_t>(3 + rng() % 25);
    auto g = trial % 2 == 0
                 ? clique_graph<eid_t>(rng, n, std::min<int32_t>(n, 7))
                 : random_graph<eid_t>(rng, n, static_cast<int64_t>(rng() % (4 * n)), false, false);
    td::options_t options;
    options.parallel_min_edges = 0;
    td::state_t<int32_t> state;
    td::compute(g, options, exec_of(backend_t::sequential), state);
    for (int round = 0; round < 6; ++round) {
      std::vector<int32_t> is, id, ds, dd;
      random_batch(rng, g, is, id, ds, dd, 8, 8);
      change_log_t<int32_t> log;
      g.apply({is, id, {}, 0, ds, dd}, &log);
      const uint64_t want = brute_force(g);
      for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
        for (const double budget : {-1.0, 0.0, 1e9}) {
          td::state_t<int32_t> updated = state;
          td::options_t o = options;
          o.repair_budget = budget;
          const td::stats_t stats = td::update(g, log, o, exec_of(backend), updated);
          CHECK_EQ(updated.count, want);
          CHECK_EQ(updated.num_vertices, static_cast<int64_t>(g.num_vertices()));
          CHECK_EQ(stats.affected, want != state.count ? 1 : 0);
          CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
          // removed and added explain the change exactly.
          CHECK_EQ(state.count - stats.triangles_removed + stats.triangles_added, want);
          if (budget == 0.0) CHECK(stats.path == update_path_t::recompute);
          if (budget >= 1e9) CHECK(stats.path == update_path_t::incremental);
          ++paths[stats.path == update_path_t::incremental ? 0 : 1];
        }
      }
      td::state_t<int32_t> next;
      td::compute(g, options, exec_of(backend_t::sequential), next);
      state = next;
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("update equals a fresh compute after random batches (int32 offsets)") {
  random_updates<int32_t>(3, 150);
}

DYNG_TEST("update equals a fresh compute after random batches (int64 offsets)") {
  random_updates<int64_t>(4, 100);
}

DYNG_TEST("a batch through one clique removes and adds what it should") {
  // K5 holds 10 triangles; deleting (0, 1) removes the 3 through it, and inserting (0, 5)
  // with (1, 5) adds none until (0, 1) is back: net effects checked against the brute force.
  std::vector<int32_t> src, dst;
  for (int32_t a = 0; a < 5; ++a) {
    for (int32_t b = a + 1; b < 5; ++b) src.push_back(a), dst.push_back(b);
  }
  auto g = graph_t<int32_t, int32_t>::from_edges(6, src, dst, {}, props_of(false, false));
  td::state_t<int32_t> state;
  td::compute(g, {}, exec_of(backend_t::sequential), state);
  CHECK_EQ(state.count, uint64_t{10});
  change_log_t<int32_t> log;
  const std::vector<int32_t> is{0, 1}, id{5, 5}, ds{1, 0}, dd{0, 2};
  g.apply({is, id, {}, 0, ds, dd}, &log);
  td::options_t options;
  options.repair_budget = 1e9;
  const td::stats_t stats = td::update(g, log, options, exec_of(backend_t::sequential), state);
  CHECK_EQ(stats.deletions, int64_t{2});
  CHECK_EQ(stats.insertions, int64_t{2});
  // Through (0,1) or (0,2): (0,1,x) for x in 2,3,4 and (0,2,x) for x in 3,4 -> 5 triangles.
  CHECK_EQ(stats.triangles_removed, uint64_t{5});
  CHECK_EQ(stats.triangles_added, uint64_t{0});
  CHECK_EQ(state.count, brute_force(g));
  CHECK_EQ(state.count, uint64_t{5});
}

DYNG_TEST("unsuitable graphs are refused") {
  std::vector<int32_t> src{0, 1}, dst{1, 2};
  auto directed = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props_of(true, true));
  td::state_t<int32_t> state;
  CHECK_THROWS_AS(td::compute(directed, {}, exec_of(backend_t::sequential), state),
                  invalid_argument_error);
  auto props = props_of(false, false);
  props.allow_parallel_edges = true;
  auto multi = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props);
  CHECK_THROWS_AS(td::compute(multi, {}, exec_of(backend_t::sequential), state),
                  invalid_argument_error);
  props = props_of(false, false);
  props.order = edge_order_t::append;
  auto unsorted = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props);
  CHECK_THROWS_AS(td::compute(unsorted, {}, exec_of(backend_t::sequential), state),
                  invalid_argument_error);
  execution_t cuda;
  cuda.backend = backend_t::cuda;
  auto fine = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props_of(false, false));
  CHECK_THROWS_AS(td::compute(fine, {}, cuda, state), not_supported_error);
}

}  // namespace

DYNG_TEST_MAIN()
