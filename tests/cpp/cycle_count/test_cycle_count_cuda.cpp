// cycle_count on the GPU against plain enumeration and the host backends: compute on random
// graphs (directed and undirected, with and without stored in-edges, every bound up to 64, with
// the search forced into small waves and into the depth-first kernel early), the complete
// digraphs' formula, and update after random adversarial batches on a device graph kept level by
// sync(), with every budget path and the same stats as the host update; bounds past 64 and 64-bit
// ids are refused and leave the result as it was.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "cycle_count/cycle_test_graphs.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/cycle_count/cycle_count_cuda.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "gpu_test_util.hpp"

namespace {

using namespace dyng;
namespace cc = dyng::cycle_count;
using dyng_test::props_of;
using dyng_test::random_batch;
using dyng_test::random_graph;

/// The knob settings every search runs under: automatic, tiny waves (the reset between waves),
/// depth-first from the first list on (the lane-group kernel on small graphs).
std::vector<cc::options_t> knob_variants(int64_t max_length) {
  std::vector<cc::options_t> out(3);
  for (auto& o : out) o.max_length = max_length;
  out[1].gpu_wave_slots = 3;
  out[2].gpu_depth_first_paths = 0;
  out[2].gpu_wave_slots = 7;
  return out;
}

template <class eid_t>
std::vector<uint64_t> gpu_counts(const graph_t<int32_t, eid_t>& g,
                                 const cuda::device_graph_t<int32_t, eid_t>& d,
                                 const cc::options_t& options) {
  cc::cuda::device_state_t<int32_t> state;
  const cc::stats_t stats = cc::cuda::compute(g, d, options, nullptr, state);
  CHECK(stats.path == update_path_t::compute);
  CHECK_EQ(state.num_vertices, static_cast<int64_t>(g.num_vertices()));
  return state.counts;
}

template <class eid_t>
void random_computes(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const int32_t n = static_cast<int32_t>(2 + rng() % 40);
    const bool directed = rng() % 4 != 0;
    auto g = random_graph<eid_t>(rng, n, static_cast<int64_t>(rng() % (4 * n + 1)), directed,
                                 rng() % 3 != 0);
    cuda::device_graph_t<int32_t, eid_t> d(g, 0, nullptr);
    for (const int64_t max_length :
         {int64_t{2}, int64_t{3}, int64_t{4}, int64_t{5}, int64_t{8}, cc::k_unbounded}) {
      if (max_length == cc::k_unbounded && n > 12) continue;  // enumeration's time
      const auto want = cc::enumerate_cycles(g, max_length);
      for (const auto& options : knob_variants(max_length)) {
        const auto got = gpu_counts(g, d, options);
        if (got != want) {
          std::fprintf(stderr, "  trial %d: n %d, max_length %lld, waves %lld, depth-first %lld\n",
                       trial, n, static_cast<long long>(max_length),
                       static_cast<long long>(options.gpu_wave_slots),
                       static_cast<long long>(options.gpu_depth_first_paths));
        }
        CHECK(got == want);
      }
    }
  }
}

DYNG_TEST("GPU compute equals enumeration on random graphs, i32/i32") {
  random_computes<int32_t>(1, 60);
}
DYNG_TEST("GPU compute equals enumeration on random graphs, i32/i64") {
  random_computes<int64_t>(2, 30);
}

DYNG_TEST("GPU compute on denser graphs: both lane-group widths, long bounds, the formula") {
  std::mt19937_64 rng(3);
  // Sparse (4-lane groups) and dense (32-lane groups) graphs with hubs of the host's size.
  for (const int64_t m : {int64_t{300}, int64_t{1500}}) {
    auto g = random_graph<int32_t>(rng, 80, m, true, true);
    cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
    for (const int64_t max_length : {3, 5, 6}) {
      cc::options_t host;
      host.max_length = max_length;
      cc::state_t<int32_t> want;
      execution_t exec;
      exec.backend = backend_t::openmp;
      cc::compute(g, host, exec, want);
      for (const auto& options : knob_variants(max_length)) {
        CHECK(gpu_counts(g, d, options) == want.counts);
      }
    }
  }
  // Complete digraphs: C(n, l) (l - 1)! cycles of length l; K9 unbounded is bound 9.
  for (const int32_t n : {7, 9}) {
    std::vector<int32_t> src, dst;
    for (int32_t u = 0; u < n; ++u) {
      for (int32_t v = 0; v < n; ++v) {
        if (u != v) src.push_back(u), dst.push_back(v);
      }
    }
    auto k = graph_t<int32_t, int32_t>::from_edges(n, src, dst, {}, props_of(true, n == 7));
    cuda::device_graph_t<int32_t, int32_t> d(k, 0, nullptr);
    std::vector<uint64_t> want(static_cast<size_t>(n) + 1, 0);
    for (int l = 2; l <= n; ++l) {
      uint64_t c = 1;
      for (int i = 0; i < l; ++i)
        c = c * static_cast<uint64_t>(n - i) / static_cast<uint64_t>(i + 1);
      for (int i = 1; i < l; ++i) c *= static_cast<uint64_t>(i);
      want[static_cast<size_t>(l)] = c;
    }
    for (const auto& options : knob_variants(cc::k_unbounded)) {
      CHECK(gpu_counts(k, d, options) == want);
    }
  }
  // A long ring: its one cycle has 64 edges, the longest the GPU counts.
  std::vector<int32_t> src, dst;
  for (int32_t v = 0; v < 64; ++v) src.push_back(v), dst.push_back((v + 1) % 64);
  src.push_back(0), dst.push_back(32);
  auto ring = graph_t<int32_t, int32_t>::from_edges(64, src, dst, {}, props_of(true, true));
  cuda::device_graph_t<int32_t, int32_t> d(ring, 0, nullptr);
  for (const auto& options : knob_variants(cc::k_unbounded)) {
    CHECK(gpu_counts(ring, d, options) == cc::enumerate_cycles(ring, -1));
  }
}

template <class eid_t>
void random_updates(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int paths[2] = {0, 0};
  execution_t host_exec;
  host_exec.backend = backend_t::sequential;
  for (int trial = 0; trial < trials; ++trial) {
    const int32_t n = static_cast<int32_t>(3 + rng() % 40);
    const bool directed = rng() % 4 != 0;
    auto g = random_graph<eid_t>(rng, n, static_cast<int64_t>(rng() % (4 * n)), directed,
                                 rng() % 3 != 0);
    cuda::device_graph_t<int32_t, eid_t> d(g, 0, nullptr);
    const int64_t bounds[] = {2, 3, 4, 5, 6, 8, cc::k_unbounded};
    int64_t max_length = bounds[rng() % std::size(bounds)];
    if (max_length == cc::k_unbounded && n > 12) max_length = 7;
    cc::options_t options;
    options.max_length = max_length;
    cc::cuda::device_state_t<int32_t> state;
    cc::cuda::compute(g, d, options, nullptr, state);
    cc::state_t<int32_t> host_state;
    cc::compute(g, options, host_exec, host_state);
    CHECK(state.counts == host_state.counts);
    for (int round = 0; round < 5; ++round) {
      std::vector<int32_t> is, id, ds, dd;
      random_batch(rng, g, is, id, ds, dd, 7, 6);
      change_log_t<int32_t> log;
      log.record_row_edits = true;  // replayed by d.sync() below
      g.apply({is, id, {}, 0, ds, dd}, &log);
      d.sync(g, log);
      const auto want = cc::enumerate_cycles(g, max_length);
      cc::state_t<int32_t> host_updated = host_state;
      cc::options_t host_options = options;
      host_options.repair_budget = 1e9;
      const cc::stats_t host_stats = cc::update(g, log, host_options, host_exec, host_updated);
      CHECK(host_updated.counts == want);
      for (const double budget : {-1.0, 0.0, 1e9}) {
        for (auto o : knob_variants(max_length)) {
          o.repair_budget = budget;
          cc::cuda::device_state_t<int32_t> updated = state;
          const cc::stats_t stats = cc::cuda::update(g, d, log, o, nullptr, updated);
          if (updated.counts != want) {
            std::fprintf(stderr, "  trial %d round %d: n %d, max_length %lld, budget %g\n", trial,
                         round, n, static_cast<long long>(max_length), budget);
          }
          CHECK(updated.counts == want);
          CHECK_EQ(updated.num_vertices, static_cast<int64_t>(g.num_vertices()));
          CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
          CHECK_EQ(stats.deletions, host_stats.deletions);
          CHECK_EQ(stats.insertions, host_stats.insertions);
          CHECK_EQ(stats.affected, host_stats.affected);
          if (budget == 0.0) CHECK(stats.path == update_path_t::recompute);
          if (budget >= 1e9) {
            CHECK(stats.path == update_path_t::incremental);
            CHECK_EQ(stats.cycles_removed, host_stats.cycles_removed);
            CHECK_EQ(stats.cycles_added, host_stats.cycles_added);
          }
          ++paths[stats.path == update_path_t::incremental ? 0 : 1];
        }
      }
      cc::options_t o = options;
      cc::cuda::update(g, d, log, o, nullptr, state);
      host_state = host_updated;
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("GPU update equals enumeration and the host update, i32/i32") {
  random_updates<int32_t>(5, 40);
}
DYNG_TEST("GPU update equals enumeration and the host update, i32/i64") {
  random_updates<int64_t>(6, 20);
}

DYNG_TEST("bounds past 64 and 64-bit ids are refused; the result stays as it was") {
  std::vector<int32_t> src, dst;
  for (int32_t v = 0; v < 70; ++v) src.push_back(v), dst.push_back((v + 1) % 70);
  auto g = graph_t<int32_t, int32_t>::from_edges(70, src, dst, {}, props_of(true, true));
  cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
  cc::cuda::device_state_t<int32_t> state;
  cc::options_t unbounded, long_bound, ok;
  long_bound.max_length = 65;
  ok.max_length = 64;
  CHECK_THROWS_AS(cc::cuda::compute(g, d, unbounded, nullptr, state), not_supported_error);
  CHECK_THROWS_AS(cc::cuda::compute(g, d, long_bound, nullptr, state), not_supported_error);
  cc::cuda::compute(g, d, ok, nullptr, state);
  CHECK(state.counts == std::vector<uint64_t>(65, 0));
  const std::vector<int32_t> is{69}, id{0};  // nothing changes: the edge is there
  change_log_t<int32_t> log;
  log.record_row_edits = true;  // replayed by d.sync() below
  g.apply({is, id, {}, 0, {}, {}}, &log);
  d.sync(g, log);
  const auto before = state.counts;
  CHECK_THROWS_AS(cc::cuda::update(g, d, log, long_bound, nullptr, state), not_supported_error);
  CHECK(state.counts == before);
  std::vector<int64_t> src64{0, 1}, dst64{1, 0};
  auto wide = graph_t<int64_t, int64_t>::from_edges(2, src64, dst64, {}, props_of(true, true));
  cuda::device_graph_t<int64_t, int64_t> dw(wide, 0, nullptr);
  cc::cuda::device_state_t<int64_t> wide_state;
  CHECK_THROWS_AS(cc::cuda::compute(wide, dw, {}, nullptr, wide_state), not_supported_error);
}

}  // namespace

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
