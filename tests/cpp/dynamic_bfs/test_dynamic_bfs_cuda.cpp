// dynamic_bfs on the GPU against the relaxation oracle (bfs_oracle.hpp): compute, then update after
// random adversarial batches on a device graph kept level by sync(), with every budget path, on
// every id combination, weighted and unweighted, directed and undirected; long paths and hubs for
// the persistent loops; and the rule that a refused call leaves the result as it was.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "dynamic_bfs/bfs_oracle.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/dynamic_bfs/dynamic_bfs_cuda.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "gpu_test_util.hpp"
#include "random_graph_case.hpp"

namespace {

using namespace dyng;
namespace bfs = dyng::dynamic_bfs;

template <class vid_t>
std::vector<int64_t> levels_of(const bfs::cuda::device_state_t<vid_t>& state) {
  return dyng::cuda::to_host(state, nullptr).levels;
}

int64_t differences(std::vector<int64_t> a, const std::vector<int64_t>& b) {
  a.resize(b.size(), -1);
  int64_t count = 0;
  for (size_t v = 0; v < a.size(); ++v) count += a[v] != b[v] ? 1 : 0;
  return count;
}

/// Every budget variant of update() from `before`; returns the default variant's result.
template <class vid_t, class eid_t>
std::vector<int64_t> check_updates(const std::string& name, const graph_t<vid_t, eid_t>& g,
                                   const cuda::device_graph_t<vid_t, eid_t>& d,
                                   const change_log_t<vid_t>& log,
                                   const bfs::cuda::device_state_t<vid_t>& before, int paths[2]) {
  const std::vector<int64_t> old = levels_of(before);
  const std::vector<int64_t> oracle = dyng_test::oracle_levels(g, before.source);
  const int64_t affected = differences(old, oracle);
  const int64_t invalidated = dyng_test::expected_invalidated(g, old, before.source);
  std::vector<int64_t> result;
  for (const double budget : {-1.0, 0.0, 1e9}) {
    bfs::cuda::device_state_t<vid_t> state = dyng::cuda::clone(before, nullptr);
    bfs::options_t options;
    options.repair_budget = budget;
    const bfs::stats_t stats = bfs::cuda::update(g, d, log, options, nullptr, state);
    const std::vector<int64_t> got = levels_of(state);
    if (got != oracle) {
      std::fprintf(stderr, "  %s, budget %g: %lld levels differ from the oracle (path %s)\n",
                   name.c_str(), budget, static_cast<long long>(differences(got, oracle)),
                   path_name(stats.path));
    }
    CHECK(got == oracle);
    CHECK_EQ(stats.affected, affected);
    CHECK(stats.engine_used == "fused");
    CHECK(stats.method == "frontier");
    CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
    if (budget == 0.0) CHECK(stats.path == update_path_t::recompute);
    if (budget >= 1e9) {
      CHECK(stats.path == update_path_t::incremental);
      CHECK_EQ(stats.invalidated, invalidated);
    }
    ++paths[stats.path == update_path_t::incremental ? 0 : 1];
    if (budget < 0) result = got;
  }
  return result;
}

template <class vid_t, class eid_t>
void random_rounds(uint64_t seed, int trials, bool weighted) {
  std::mt19937_64 rng(seed);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < trials; ++trial) {
    auto rc = dyng_test::random_graph_case<vid_t>(rng, 70);
    if (!weighted) rc.props.num_weights = 0, rc.weights.clear();
    const vid_t n = rc.n;
    auto g = graph_t<vid_t, eid_t>::from_edges(n, rc.src, rc.dst, rc.weights, rc.props);
    cuda::device_graph_t<vid_t, eid_t> d(g, 0, nullptr);
    const vid_t source = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    bfs::cuda::device_state_t<vid_t> state;
    bfs::cuda::compute(g, d, source, {}, nullptr, state);
    CHECK(levels_of(state) == dyng_test::oracle_levels(g, source));
    for (int round = 0; round < 6; ++round) {
      const auto batch = dyng_test::random_bfs_batch(rng, g, levels_of(state));
      change_log_t<vid_t> log;
      log.record_row_edits = true;  // replayed by d.sync() below
      g.apply(batch.view(), &log);
      d.sync(g, log);
      const std::vector<int64_t> want =
          check_updates("trial " + std::to_string(trial) + " round " + std::to_string(round), g, d,
                        log, state, paths);
      bfs::options_t options;
      bfs::cuda::update(g, d, log, options, nullptr, state);
      CHECK(levels_of(state) == want);
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("GPU update equals the oracle on random batches, i32/i32 weighted") {
  random_rounds<int32_t, int32_t>(21, 30, true);
}
DYNG_TEST("GPU update equals the oracle on random batches, i32/i64 unweighted") {
  random_rounds<int32_t, int64_t>(22, 20, false);
}
DYNG_TEST("GPU update equals the oracle on random batches, i64/i64 weighted") {
  random_rounds<int64_t, int64_t>(23, 20, true);
}

DYNG_TEST("GPU compute and update on a long path and a hub") {
  const int32_t n = 20000;
  std::vector<int32_t> src, dst;
  for (int32_t v = 0; v + 1 < n; ++v) src.push_back(v), dst.push_back(v + 1);
  for (int32_t v = 2; v < n; v += 7) src.push_back(1), dst.push_back(v);  // a hub at level 1
  graph_properties_t props;
  props.num_weights = 0;
  auto g = graph_t<int32_t, int32_t>::from_edges(n, src, dst, {}, props);
  cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
  bfs::cuda::device_state_t<int32_t> state;
  const bfs::stats_t computed = bfs::cuda::compute(g, d, 0, {}, nullptr, state);
  CHECK(levels_of(state) == dyng_test::oracle_levels(g, 0));
  CHECK_EQ(computed.affected, n);
  const std::vector<int32_t> ds{0}, dd{1};  // the hub loses its only supporter
  change_log_t<int32_t> log;
  log.record_row_edits = true;  // replayed by d.sync() below
  g.apply({{}, {}, {}, 0, ds, dd}, &log);
  d.sync(g, log);
  int paths[2] = {0, 0};
  check_updates("hub cut", g, d, log, state, paths);
}

DYNG_TEST("refused calls leave the result as it was") {
  const std::vector<int32_t> src{0, 1}, dst{1, 2};
  graph_properties_t props;
  props.num_weights = 0;
  auto g = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props);
  cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
  bfs::cuda::device_state_t<int32_t> state;
  CHECK_THROWS_AS(bfs::cuda::compute(g, d, 3, {}, nullptr, state), invalid_argument_error);
  bfs::cuda::compute(g, d, 0, {}, nullptr, state);
  const std::vector<int64_t> before = levels_of(state);
  change_log_t<int32_t> log;
  g.apply({{}, {}, {}, 0, src, dst}, &log);
  // The device copy was not synced: it is at the old version.
  CHECK_THROWS_AS(bfs::cuda::update(g, d, log, {}, nullptr, state), internal_error);
  d.sync(g, log);
  change_log_t<int32_t> wrong = log;
  wrong.num_vertices_before = 2;
  CHECK_THROWS_AS(bfs::cuda::update(g, d, wrong, {}, nullptr, state), invalid_argument_error);
  CHECK(levels_of(state) == before);
  CHECK_EQ(state.num_vertices, 3);
}

}  // namespace

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
