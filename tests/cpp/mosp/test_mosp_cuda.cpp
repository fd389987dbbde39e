// mosp on the GPU against the host backend: compute, then update after random adversarial
// batches (deleted tree edges, parallel edges, reweights, missing deletions, vertex growth,
// undirected graphs) on a device graph kept level by sync(), with every budget path, on every id
// combination; the copies between spaces; and sssp's joint search, each column equal to its own
// search, on a graph with a hub long enough to be split into chunk items.
#include <cstdint>
#include <random>
#include <vector>

#include "check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/mosp/mosp_cuda.hpp"
#include "dyng/sssp/detail/cuda_views.hpp"
#include "gpu_test_util.hpp"
#include "mosp/mosp_test_util.hpp"
#include "random_graph_case.hpp"

namespace {

using namespace dyng;

execution_t sequential() {
  execution_t exec;
  exec.backend = backend_t::sequential;
  return exec;
}

template <class vid_t>
mosp::state_t<vid_t> on_host(const mosp::cuda::device_state_t<vid_t>& state) {
  return dyng::cuda::to_host(state, nullptr);
}

template <class vid_t, class eid_t>
void random_rounds(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < trials; ++trial) {
    auto rc = dyng_test::random_graph_case<vid_t>(rng, 60);
    const int k = 1 + static_cast<int>(rng() % 6);
    rc.props.num_weights = k;
    rc.weights.clear();
    for (size_t e = 0; e < rc.src.size() * static_cast<size_t>(k); ++e) {
      rc.weights.push_back(rc.weight(rng));
    }
    auto g = graph_t<vid_t, eid_t>::from_edges(rc.n, rc.src, rc.dst, rc.weights, rc.props);
    cuda::device_graph_t<vid_t, eid_t> d(g, 0, nullptr);
    mosp::options_t options;
    if (rng() % 2) {
      for (int i = 0; i < k; ++i)
        options.preferences.push_back(1 + static_cast<int64_t>(rng() % 5));
    }
    const vid_t source = static_cast<vid_t>(rng() % static_cast<uint64_t>(rc.n));
    mosp::cuda::device_state_t<vid_t> state;
    const mosp::stats_t computed = mosp::cuda::compute(g, d, source, options, nullptr, state);
    mosp::state_t<vid_t> host;
    const mosp::stats_t host_computed = mosp::compute(g, source, options, sequential(), host);
    dyng_test::check_same(on_host(state), host);
    CHECK_EQ(computed.affected, host_computed.affected);
    CHECK_EQ(computed.combined_edges, host_computed.combined_edges);
    for (int round = 0; round < 5; ++round) {
      std::vector<vid_t> is, id, ds, dd;
      std::vector<int32_t> iw;
      dyng_test::random_batch(rng, g, rc, is, id, iw, ds, dd);
      change_log_t<vid_t> log;
      log.record_row_edits = true;  // replayed by d.sync() below
      g.apply({is, id, iw, k, ds, dd}, &log);
      d.sync(g, log);
      mosp::state_t<vid_t> fresh;
      mosp::compute(g, source, options, sequential(), fresh);
      for (const double budget : {-1.0, 0.0, 1e9}) {
        auto updated = dyng::cuda::clone(state, nullptr);
        mosp::options_t o = options;
        o.repair_budget = budget;
        const mosp::stats_t stats = mosp::cuda::update(g, d, log, o, nullptr, updated);
        dyng_test::check_same(on_host(updated), fresh);
        CHECK_EQ(static_cast<int>(stats.objectives.size()), k);
        CHECK_EQ(stats.combined_edges, static_cast<int64_t>(fresh.combined_graph.num_edges()));
        CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
        if (budget == 0.0) CHECK(stats.path == update_path_t::recompute);
        ++paths[stats.path == update_path_t::incremental ? 0 : 1];
      }
      mosp::cuda::update(g, d, log, options, nullptr, state);
      dyng_test::check_same(on_host(state), fresh);
    }
    // A host result moved to the device keeps updating like one computed there.
    auto moved =
        dyng::cuda::to_device<mosp::cuda::device_state_t<vid_t>>(on_host(state), 0, nullptr);
    dyng_test::check_same(on_host(moved), on_host(state));
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("GPU mosp equals the host on random batches, i32/i32") {
  random_rounds<int32_t, int32_t>(31, 30);
}
DYNG_TEST("GPU mosp equals the host on random batches, i32/i64") {
  random_rounds<int32_t, int64_t>(32, 15);
}
DYNG_TEST("GPU mosp equals the host on random batches, i64/i64") {
  random_rounds<int64_t, int64_t>(33, 15);
}

DYNG_TEST("joint search: every column equals its own search") {
  std::mt19937_64 rng(5);
  const int32_t n = 30000;
  const int k = 5;
  std::vector<int32_t> src, dst, w;
  for (int32_t v = 1; v < n; ++v) {  // a hub reaching everything, plus random edges
    src.push_back(0), dst.push_back(v);
    for (int j = 0; j < 3; ++j) src.push_back(static_cast<int32_t>(rng() % n)), dst.push_back(v);
  }
  for (size_t e = 0; e < src.size() * k; ++e) w.push_back(1 + static_cast<int32_t>(rng() % 1000));
  graph_properties_t props;
  props.num_weights = k;
  auto g = graph_t<int32_t, int32_t>::from_edges(n, src, dst, w, props);
  cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
  cuda::device_buffer<int64_t> dist(static_cast<size_t>(n) * k);
  cuda::device_buffer<int32_t> parents(static_cast<size_t>(n) * k);
  sssp::stats_t joint;
  sssp::cuda::compute_joint(d.out_view(), d.in_view(), int32_t{0}, 0, k, 0, nullptr, dist.data(),
                            parents.data(), joint);
  std::vector<int64_t> all_dist(static_cast<size_t>(n) * k);
  std::vector<int32_t> all_parents(static_cast<size_t>(n) * k);
  dist.copy_to_host(all_dist.data(), all_dist.size());
  parents.copy_to_host(all_parents.data(), all_parents.size());
  for (int o = 0; o < k; ++o) {
    sssp::state_t<int32_t> one;
    sssp::options_t so;
    so.objective = o;
    sssp::compute(g, int32_t{0}, so, sequential(), one);
    CHECK(std::vector<int64_t>(all_dist.begin() + int64_t{o} * n,
                               all_dist.begin() + int64_t{o + 1} * n) == one.distances);
    CHECK(std::vector<int32_t>(all_parents.begin() + int64_t{o} * n,
                               all_parents.begin() + int64_t{o + 1} * n) == one.parents);
  }
  CHECK(joint.iterations > 0);
}

}  // namespace

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
