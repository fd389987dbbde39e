// triangle_delta on the GPU against the host backends: compute on random graphs (i32 and i64 ids
// and offsets; cliques, whose rows every warp lane shares) and update after random adversarial
// batches on a device graph kept level by sync(), on every budget path, with the host update's
// stats; unsuitable graphs are refused.
#include <cstdint>
#include <random>
#include <vector>

#include "check.hpp"
#include "cycle_count/cycle_test_graphs.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/triangle_delta/triangle_delta.hpp"
#include "dyng/triangle_delta/triangle_delta_cuda.hpp"
#include "gpu_test_util.hpp"

namespace {

using namespace dyng;
namespace td = dyng::triangle_delta;
using dyng_test::props_of;
using dyng_test::random_batch;

/// A random simple undirected graph with a clique on its first k vertices.
template <class vid_t, class eid_t>
graph_t<vid_t, eid_t> clique_graph(std::mt19937_64& rng, vid_t n, vid_t k, int64_t extra) {
  std::vector<vid_t> src, dst;
  for (vid_t a = 0; a < k; ++a) {
    for (vid_t b = a + 1; b < k; ++b) src.push_back(a), dst.push_back(b);
  }
  for (int64_t e = 0; e < extra; ++e) {
    src.push_back(static_cast<vid_t>(rng() % static_cast<uint64_t>(n)));
    dst.push_back(static_cast<vid_t>(rng() % static_cast<uint64_t>(n)));
  }
  return graph_t<vid_t, eid_t>::from_edges(n, src, dst, {}, props_of(false, false));
}

execution_t sequential() {
  execution_t exec;
  exec.backend = backend_t::sequential;
  return exec;
}

template <class vid_t, class eid_t>
void random_computes(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const auto n = static_cast<vid_t>(1 + rng() % 300);
    const auto k = static_cast<vid_t>(std::min<uint64_t>(static_cast<uint64_t>(n), rng() % 60));
    auto g = clique_graph<vid_t, eid_t>(rng, n, k, static_cast<int64_t>(rng() % (6 * n + 1)));
    cuda::device_graph_t<vid_t, eid_t> d(g, 0, nullptr);
    td::state_t<vid_t> want;
    td::compute(g, {}, sequential(), want);
    td::cuda::device_state_t<vid_t> got;
    const td::stats_t stats = td::cuda::compute(g, d, {}, nullptr, got);
    CHECK_EQ(got.count, want.count);
    CHECK_EQ(got.compute_work, want.compute_work);
    CHECK(stats.path == update_path_t::compute);
  }
}

DYNG_TEST("GPU compute equals the host, i32/i32") { random_computes<int32_t, int32_t>(1, 80); }
DYNG_TEST("GPU compute equals the host, i32/i64") { random_computes<int32_t, int64_t>(2, 40); }
DYNG_TEST("GPU compute equals the host, i64/i64") { random_computes<int64_t, int64_t>(3, 40); }

DYNG_TEST("GPU update equals the host update and a fresh compute") {
  std::mt19937_64 rng(5);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < 60; ++trial) {
    const auto n = static_cast<int32_t>(3 + rng() % 40);
    auto g = clique_graph<int32_t, int32_t>(rng, n, std::min<int32_t>(n, 9),
                                            static_cast<int64_t>(rng() % (3 * n)));
    cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
    td::cuda::device_state_t<int32_t> state;
    td::cuda::compute(g, d, {}, nullptr, state);
    for (int round = 0; round < 5; ++round) {
      std::vector<int32_t> is, id, ds, dd;
      random_batch(rng, g, is, id, ds, dd, 9, 9);
      change_log_t<int32_t> log;
      log.record_row_edits = true;  // replayed by d.sync() below
      g.apply({is, id, {}, 0, ds, dd}, &log);
      d.sync(g, log);
      td::state_t<int32_t> fresh;
      td::compute(g, {}, sequential(), fresh);
      td::state_t<int32_t> host_state = state;
      td::options_t always;
      always.repair_budget = 1e9;
      const td::stats_t host_stats = td::update(g, log, always, sequential(), host_state);
      CHECK_EQ(host_state.count, fresh.count);
      for (const double budget : {-1.0, 0.0, 1e9}) {
        td::options_t o;
        o.repair_budget = budget;
        td::cuda::device_state_t<int32_t> updated = state;
        const td::stats_t stats = td::cuda::update(g, d, log, o, nullptr, updated);
        CHECK_EQ(updated.count, fresh.count);
        CHECK_EQ(updated.num_vertices, static_cast<int64_t>(g.num_vertices()));
        CHECK_EQ(stats.deletions, host_stats.deletions);
        CHECK_EQ(stats.insertions, host_stats.insertions);
        CHECK_EQ(stats.affected, host_stats.affected);
        CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
        if (budget == 0.0) CHECK(stats.path == update_path_t::recompute);
        if (budget >= 1e9) {
          CHECK(stats.path == update_path_t::incremental);
          CHECK_EQ(stats.triangles_removed, host_stats.triangles_removed);
          CHECK_EQ(stats.triangles_added, host_stats.triangles_added);
        }
        ++paths[stats.path == update_path_t::incremental ? 0 : 1];
      }
      td::cuda::update(g, d, log, {}, nullptr, state);
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("GPU compute refuses directed graphs") {
  std::vector<int32_t> src{0, 1}, dst{1, 2};
  auto g = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props_of(true, true));
  cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
  td::cuda::device_state_t<int32_t> state;
  CHECK_THROWS_AS(td::cuda::compute(g, d, {}, nullptr, state), invalid_argument_error);
}

}  // namespace

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
