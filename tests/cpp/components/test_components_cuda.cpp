// components on the GPU against the reachability oracle (components_oracle.hpp) and the host
// backend: compute, then update after the adversarial batches of components_batches.hpp on a
// device graph kept level by sync(), weak and strong, with every budget path, on every id
// combination; larger graphs (many phases, a giant component, long cycles) against the host
// compute; and refused calls that change nothing.
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "components/components_batches.hpp"
#include "components/components_oracle.hpp"
#include "dyng/components/components.hpp"
#include "dyng/components/components_cuda.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "gpu_test_util.hpp"

namespace {

using namespace dyng;
namespace cc = dyng::components;

cc::options_t options_for(bool strong, double budget = -1.0) {
  cc::options_t options;
  options.kind = strong ? cc::kind_t::strong : cc::kind_t::weak;
  options.repair_budget = budget;
  return options;
}

template <class vid_t>
cc::state_t<vid_t> on_host(const cc::cuda::device_state_t<vid_t>& state) {
  return dyng::cuda::to_host(state, nullptr);
}

/// The host compute of the same graph: the answer every GPU result must equal.
template <class vid_t, class eid_t>
cc::state_t<vid_t> host_answer(const graph_t<vid_t, eid_t>& g, bool strong) {
  cc::state_t<vid_t> state;
  cc::compute(g, options_for(strong), execution_t{}, state);
  return state;
}

template <class vid_t>
void check_equal(const cc::state_t<vid_t>& got, const cc::state_t<vid_t>& want,
                 const std::string& context) {
  if (got.labels != want.labels || got.sizes != want.sizes || got.count != want.count) {
    std::fprintf(stderr, "  %s: the GPU result differs (count %lld, want %lld)\n", context.c_str(),
                 static_cast<long long>(got.count), static_cast<long long>(want.count));
  }
  CHECK(got.labels == want.labels);
  CHECK(got.sizes == want.sizes);
  CHECK_EQ(got.count, want.count);
}

/// The oracle's answer for a small graph.
template <class vid_t, class eid_t>
cc::state_t<vid_t> oracle_answer(const graph_t<vid_t, eid_t>& g, bool strong) {
  cc::state_t<vid_t> state;
  state.labels = dyng_test::oracle_labels(g, strong);
  state.sizes = dyng_test::oracle_sizes(state.labels, state.count);
  return state;
}

/// Every budget variant of update() from `before` on clones; returns the default one's state.
template <class vid_t, class eid_t>
cc::cuda::device_state_t<vid_t> check_updates(const std::string& name,
                                              const graph_t<vid_t, eid_t>& g,
                                              const cuda::device_graph_t<vid_t, eid_t>& d,
                                              const change_log_t<vid_t>& log, bool strong,
                                              const cc::cuda::device_state_t<vid_t>& before,
                                              const cc::state_t<vid_t>& want, int paths[2]) {
  cc::cuda::device_state_t<vid_t> kept;
  for (const double budget : {-1.0, 0.0, 1e9}) {
    auto state = dyng::cuda::clone(before, nullptr);
    const cc::stats_t stats =
        cc::cuda::update(g, d, log, options_for(strong, budget), nullptr, state);
    check_equal(on_host(state), want, name + ", budget " + std::to_string(budget));
    CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
    if (budget == 0.0) CHECK(stats.path == update_path_t::recompute);
    if (budget >= 1e9) CHECK(stats.path == update_path_t::incremental);
    ++paths[stats.path == update_path_t::incremental ? 0 : 1];
    if (budget < 0) kept = std::move(state);
  }
  return kept;
}

template <class vid_t, class eid_t>
void random_rounds(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < trials; ++trial) {
    auto g = dyng_test::sparse_graph<vid_t, eid_t>(rng);
    cuda::device_graph_t<vid_t, eid_t> d(g, 0, nullptr);
    const bool strong = g.properties().directed && rng() % 2 == 0;
    cc::cuda::device_state_t<vid_t> state;
    cc::cuda::compute(g, d, options_for(strong), nullptr, state);
    check_equal(on_host(state), oracle_answer(g, strong), "compute");
    for (int round = 0; round < 6; ++round) {
      const auto batch = dyng_test::random_batch(rng, g);
      change_log_t<vid_t> log;
      log.record_row_edits = true;  // replayed by d.sync() below
      g.apply(batch.view(), &log);
      d.sync(g, log);
      const std::string name = "trial " + std::to_string(trial) + " round " +
                               std::to_string(round) + (strong ? " strong" : " weak");
      state = check_updates(name, g, d, log, strong, state, oracle_answer(g, strong), paths);
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("GPU update equals the oracle on random batches, i32/i32") {
  random_rounds<int32_t, int32_t>(41, 40);
}
DYNG_TEST("GPU update equals the oracle on random batches, i32/i64") {
  random_rounds<int32_t, int64_t>(42, 25);
}
DYNG_TEST("GPU update equals the oracle on random batches, i64/i64") {
  random_rounds<int64_t, int64_t>(43, 25);
}

/// A skewed random graph (a few hubs take a share of the edge ends), and mixed batches of
/// `changes` with half deletions of existing edges, against the host compute.
void large_rounds(bool strong, bool directed, int32_t n, int64_t m, int changes) {
  std::mt19937_64 rng(strong ? 7 : 8);
  auto draw = [&] {
    const uint64_t r = rng();
    return static_cast<int32_t>(r % 5 == 0 ? r % 64 : (r >> 8) % static_cast<uint64_t>(n));
  };
  std::vector<int32_t> src, dst;
  for (int64_t i = 0; i < m; ++i) src.push_back(draw()), dst.push_back(draw());
  graph_properties_t props;
  props.num_weights = 0;
  props.directed = directed;
  auto g = graph_t<int32_t, int32_t>::from_edges(n, src, dst, {}, props);
  cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
  cc::cuda::device_state_t<int32_t> state;
  cc::cuda::compute(g, d, options_for(strong), nullptr, state);
  check_equal(on_host(state), host_answer(g, strong), "large compute");
  for (int round = 0; round < 4; ++round) {
    std::vector<int32_t> is, id, ds, dd;
    for (int i = 0; i < changes / 2; ++i) {
      const auto e = static_cast<size_t>(rng() % src.size());
      ds.push_back(src[e]), dd.push_back(dst[e]);
      is.push_back(draw()), id.push_back(draw());
    }
    change_log_t<int32_t> log;
    log.record_row_edits = true;
    g.apply({is, id, {}, 0, ds, dd}, &log);
    d.sync(g, log);
    const cc::stats_t stats = cc::cuda::update(g, d, log, options_for(strong), nullptr, state);
    check_equal(on_host(state), host_answer(g, strong),
                "large round " + std::to_string(round) + " (" + path_name(stats.path) + ")");
  }
}

DYNG_TEST("GPU weak components of a skewed directed graph, batches of 1000 changes") {
  large_rounds(false, true, 60000, 400000, 1000);
}
DYNG_TEST("GPU weak components of a skewed undirected graph, batches of 1000 changes") {
  large_rounds(false, false, 60000, 150000, 1000);
}
DYNG_TEST("GPU strong components of a skewed directed graph, batches of 1000 changes") {
  large_rounds(true, true, 60000, 150000, 1000);
}

DYNG_TEST("GPU strong components of a long cycle, then a cut: many rounds, canonical labels") {
  const int32_t n = 200000;
  std::vector<int32_t> src, dst;
  for (int32_t v = 0; v < n; ++v) src.push_back(v), dst.push_back((v + 1) % n);
  graph_properties_t props;
  props.num_weights = 0;
  auto g = graph_t<int32_t, int32_t>::from_edges(n, src, dst, {}, props);
  cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
  cc::cuda::device_state_t<int32_t> state;
  cc::cuda::compute(g, d, options_for(true), nullptr, state);
  CHECK_EQ(state.count, 1);
  const std::vector<int32_t> ds{n / 2}, dd{n / 2 + 1};
  change_log_t<int32_t> log;
  log.record_row_edits = true;
  g.apply({{}, {}, {}, 0, ds, dd}, &log);
  d.sync(g, log);
  cc::cuda::update(g, d, log, options_for(true, 1e9), nullptr, state);
  check_equal(on_host(state), host_answer(g, true), "cycle cut");
  CHECK_EQ(state.count, n);
}

DYNG_TEST("GPU refused calls leave the result as it was") {
  const std::vector<int32_t> src{0, 1}, dst{1, 2};
  graph_properties_t props;
  props.num_weights = 0;
  props.directed = false;
  auto g = graph_t<int32_t, int32_t>::from_edges(4, src, dst, {}, props);
  cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
  cc::cuda::device_state_t<int32_t> state;
  CHECK_THROWS_AS(cc::cuda::compute(g, d, options_for(true), nullptr, state),
                  invalid_argument_error);
  cc::cuda::compute(g, d, options_for(false), nullptr, state);
  const auto before = on_host(state);
  const std::vector<int32_t> is{2}, id{3};
  change_log_t<int32_t> log;
  log.record_row_edits = true;
  g.apply({is, id, {}, 0, {}, {}}, &log);
  d.sync(g, log);
  CHECK_THROWS_AS(cc::cuda::update(g, d, log, options_for(true), nullptr, state),
                  invalid_argument_error);
  check_equal(on_host(state), before, "after a refused update");
  cc::cuda::update(g, d, log, options_for(false), nullptr, state);
  CHECK_EQ(state.count, 1);
}

}  // namespace

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
