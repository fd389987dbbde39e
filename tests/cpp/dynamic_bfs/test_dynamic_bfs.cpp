// dynamic_bfs on the host backends against the relaxation oracle: compute, then update after
// adversarial batches (deletions of supporting edges, insertions that shorten, vertex growth,
// parallel edges, undirected and unweighted graphs) on the sequential and the forced OpenMP
// kernels, with every budget path; `affected` and `invalidated` against counts from the
// definitions; bad arguments refused without changing the result.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "dynamic_bfs/bfs_oracle.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/dynamic_bfs/dynamic_bfs.hpp"
#include "dyng/graph/graph.hpp"
#include "random_graph_case.hpp"

namespace {

using namespace dyng;
namespace bfs = dyng::dynamic_bfs;

struct variant_t {
  backend_t backend;
  double budget;
};

const variant_t k_variants[] = {{backend_t::sequential, -1.0},
                                {backend_t::sequential, 0.0},
                                {backend_t::sequential, 1e9},
                                {backend_t::openmp, -1.0},
                                {backend_t::openmp, 0.0}};

int64_t differences(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  int64_t count = 0;
  for (size_t v = 0; v < a.size(); ++v) count += a[v] != b[v] ? 1 : 0;
  return count;
}

/// Every variant of update() from `before` after the batch in `log`; returns the new state.
template <class vid_t, class eid_t>
bfs::state_t<vid_t> check_updates(const graph_t<vid_t, eid_t>& g, const change_log_t<vid_t>& log,
                                  const bfs::state_t<vid_t>& before, int paths[2]) {
  const std::vector<int64_t> oracle = dyng_test::oracle_levels(g, before.source);
  std::vector<int64_t> grown = before.levels;
  grown.resize(static_cast<size_t>(g.num_vertices()), -1);
  const int64_t affected = differences(grown, oracle);
  const int64_t invalidated = dyng_test::expected_invalidated(g, before.levels, before.source);
  bfs::state_t<vid_t> result;
  for (const variant_t& v : k_variants) {
    bfs::state_t<vid_t> state = before;
    bfs::options_t options;
    options.repair_budget = v.budget;
    options.parallel_min_edges = 0;
    execution_t exec;
    exec.backend = v.backend;
    exec.num_threads = 2;
    const bfs::stats_t stats = bfs::update(g, log, options, exec, state);
    CHECK(state.levels == oracle);
    CHECK_EQ(stats.affected, affected);
    CHECK(stats.path != update_path_t::compute);
    CHECK(!stats.engine_used.empty());
    CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
    if (v.budget == 0.0) CHECK(stats.path == update_path_t::recompute);
    if (v.budget >= 1e9) {
      CHECK(stats.path == update_path_t::incremental);
      CHECK_EQ(stats.invalidated, invalidated);
    }
    ++paths[stats.path == update_path_t::incremental ? 0 : 1];
    result = state;
  }
  return result;
}

template <class vid_t, class eid_t>
void random_rounds(uint64_t seed, int trials, bool weighted) {
  std::mt19937_64 rng(seed);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < trials; ++trial) {
    auto rc = dyng_test::random_graph_case<vid_t>(rng, 50);
    if (!weighted) rc.props.num_weights = 0, rc.weights.clear();
    const vid_t n = rc.n;
    auto g = graph_t<vid_t, eid_t>::from_edges(n, rc.src, rc.dst, rc.weights, rc.props);
    const vid_t source = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    bfs::state_t<vid_t> state;
    for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
      bfs::options_t options;
      options.parallel_min_edges = 0;
      execution_t exec;
      exec.backend = backend;
      exec.num_threads = 2;
      const bfs::stats_t stats = bfs::compute(g, source, options, exec, state);
      CHECK(state.levels == dyng_test::oracle_levels(g, source));
      CHECK(stats.path == update_path_t::compute);
    }
    for (int round = 0; round < 6; ++round) {
      const auto batch = dyng_test::random_bfs_batch(rng, g, state.levels);
      change_log_t<vid_t> log;
      g.apply(batch.view(), &log);
      state = check_updates(g, log, state, paths);
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("update equals the oracle on random batches, i32/i32 weighted") {
  random_rounds<int32_t, int32_t>(11, 40, true);
}
DYNG_TEST("update equals the oracle on random batches, i32/i64 unweighted") {
  random_rounds<int32_t, int64_t>(12, 30, false);
}
DYNG_TEST("update equals the oracle on random batches, i64/i64 weighted") {
  random_rounds<int64_t, int64_t>(13, 30, true);
}

DYNG_TEST("a long path cut near the source invalidates the whole tail in one round each") {
  const int32_t n = 2000;
  std::vector<int32_t> src, dst;
  for (int32_t v = 0; v + 1 < n; ++v) src.push_back(v), dst.push_back(v + 1);
  graph_properties_t props;
  props.num_weights = 0;
  auto g = graph_t<int32_t, int32_t>::from_edges(n, src, dst, {}, props);
  bfs::state_t<int32_t> state;
  bfs::compute(g, 0, {}, {}, state);
  const std::vector<int32_t> ds{3}, dd{4}, is{0}, id{1500};
  change_log_t<int32_t> log;
  g.apply({is, id, {}, 0, ds, dd}, &log);
  bfs::options_t options;
  options.repair_budget = 1e9;
  const bfs::stats_t stats = bfs::update(g, log, options, {}, state);
  CHECK(state.levels == dyng_test::oracle_levels(g, 0));
  CHECK_EQ(stats.invalidated, n - 4);
  CHECK_EQ(stats.invalidation_rounds, n - 4);
  CHECK_EQ(state.levels[1999], 1 + 499);
  CHECK_EQ(state.levels[1000], -1);
}

DYNG_TEST("bad arguments are refused and change nothing") {
  const std::vector<int32_t> src{0, 1}, dst{1, 2};
  graph_properties_t props;
  props.num_weights = 0;
  auto g = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props);
  bfs::state_t<int32_t> state;
  CHECK_THROWS_AS(bfs::compute(g, 3, {}, {}, state), invalid_argument_error);
  CHECK_THROWS_AS(bfs::compute(g, -1, {}, {}, state), invalid_argument_error);
  props.store_transposed = false;
  auto no_in = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props);
  CHECK_THROWS_AS(bfs::compute(no_in, 0, {}, {}, state), invalid_argument_error);
  props.directed = false;  // an undirected graph is its own transpose
  auto undirected = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props);
  bfs::compute(undirected, 2, {}, {}, state);
  CHECK((state.levels == std::vector<int64_t>{2, 1, 0}));
  bfs::compute(g, 0, {}, {}, state);
  const bfs::state_t<int32_t> before = state;
  change_log_t<int32_t> log;
  g.apply({{}, {}, {}, 0, src, dst}, &log);
  change_log_t<int32_t> wrong = log;
  wrong.num_vertices_before = 2;
  CHECK_THROWS_AS(bfs::update(g, wrong, {}, {}, state), invalid_argument_error);
  CHECK(state.levels == before.levels);
  execution_t cuda;
  cuda.backend = backend_t::cuda;
  CHECK_THROWS_AS(bfs::update(g, log, {}, cuda, state), not_supported_error);
  CHECK(state.levels == before.levels);
}

}  // namespace

DYNG_TEST_MAIN()
