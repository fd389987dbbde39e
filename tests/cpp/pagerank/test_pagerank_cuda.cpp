// pagerank on the GPU against the dense oracle (pagerank_oracle.hpp) and the host backend: compute
// within the bound of the exact ranks and of the host compute, summing to 1, the same bits on a
// second run; update after the adversarial batches of components_batches.hpp on a device graph
// kept level by sync() (deletions along paths, self-loops, parallel edges, a hub gaining
// in-edges, vertex growth; directed and undirected, weighted and not) on every budget path,
// converged and within 2 * n * tol / (1 - alpha) of a fresh compute, with the same bits from two
// runs; a skewed graph whose rows take all three schedules (thread, warp, block) with batches that
// strip a hub of its out-edges; empty graphs; and refused calls that change nothing.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "components/components_batches.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/pagerank/pagerank.hpp"
#include "dyng/pagerank/pagerank_cuda.hpp"
#include "gpu_test_util.hpp"
#include "pagerank/pagerank_oracle.hpp"

namespace {

using namespace dyng;
namespace pr = dyng::pagerank;

pr::options_t options_for(bool weighted, double budget = -1.0, double tol = 1e-6) {
  pr::options_t options;
  options.weighted = weighted;
  options.repair_budget = budget;
  options.tol = tol;
  options.max_iter = 1000;
  return options;
}

double bound(const pr::options_t& o, size_t n) {
  return 2.0 * static_cast<double>(n) * o.tol / (1.0 - o.alpha);
}

template <class vid_t>
std::vector<double> ranks_of(const pr::cuda::device_state_t<vid_t>& state) {
  return dyng::cuda::to_host(state, nullptr).ranks;
}

template <class vid_t, class eid_t>
std::vector<double> host_ranks(const graph_t<vid_t, eid_t>& g, const pr::options_t& options) {
  pr::state_t<vid_t> state;
  pr::compute(g, options, execution_t{}, state);
  return state.ranks;
}

double sum_of(const std::vector<double>& x) {
  double s = 0.0;
  for (double r : x) s += r;
  return s;
}

/// `got` converged, sums to 1 and lies within the bound of `want`; says where it failed.
void check_close(const std::vector<double>& got, const std::vector<double>& want,
                 const pr::options_t& options, const std::string& context) {
  CHECK_EQ(got.size(), want.size());
  if (got.size() != want.size() || got.empty()) return;
  const double distance = dyng_test::l1_distance(got, want);
  if (!(distance < bound(options, got.size()))) {
    std::fprintf(stderr, "  %s: L1 distance %.3g, bound %.3g\n", context.c_str(), distance,
                 bound(options, got.size()));
  }
  CHECK(distance < bound(options, got.size()));
  CHECK(std::fabs(sum_of(got) - 1.0) < 1e-9);
}

/// Applies `batch` to `g` and to its device copy `d` (which replays the log's row edits).
template <class vid_t, class eid_t, class batch_t>
change_log_t<vid_t> apply_to_both(graph_t<vid_t, eid_t>& g, cuda::device_graph_t<vid_t, eid_t>& d,
                                  const batch_t& batch) {
  change_log_t<vid_t> log;
  log.record_row_edits = true;
  g.apply(batch.view(), &log);
  d.sync(g, log);
  return log;
}

/// Updates `state` for `log` and a clone of it the same way: the update's stats, and whether the
/// two came out with the same bits.
template <class vid_t, class eid_t>
std::pair<pr::stats_t, bool> update_twice(const graph_t<vid_t, eid_t>& g,
                                          const cuda::device_graph_t<vid_t, eid_t>& d,
                                          const change_log_t<vid_t>& log,
                                          const pr::options_t& options,
                                          pr::cuda::device_state_t<vid_t>& state) {
  auto again = dyng::cuda::clone(state, nullptr);
  const pr::stats_t stats = pr::cuda::update(g, d, log, options, nullptr, state);
  pr::cuda::update(g, d, log, options, nullptr, again);
  return {stats, ranks_of(state) == ranks_of(again)};
}

/// Every budget variant of update() from `before` on clones, each twice (same bits); returns
/// the default one's state.
template <class vid_t, class eid_t>
pr::cuda::device_state_t<vid_t> check_updates(const std::string& name,
                                              const graph_t<vid_t, eid_t>& g,
                                              const cuda::device_graph_t<vid_t, eid_t>& d,
                                              const change_log_t<vid_t>& log, bool weighted,
                                              const pr::cuda::device_state_t<vid_t>& before,
                                              int paths[2]) {
  const auto fresh = host_ranks(g, options_for(weighted));
  pr::cuda::device_state_t<vid_t> kept;
  for (const double budget : {-1.0, 0.0, 1e9}) {
    const auto options = options_for(weighted, budget);
    auto state = dyng::cuda::clone(before, nullptr);
    auto again = dyng::cuda::clone(before, nullptr);
    const pr::stats_t stats = pr::cuda::update(g, d, log, options, nullptr, state);
    pr::cuda::update(g, d, log, options, nullptr, again);
    const auto got = ranks_of(state);
    const std::string context = name + ", budget " + std::to_string(budget);
    check_close(got, fresh, options, context);
    CHECK(got == ranks_of(again));
    CHECK(stats.converged);
    CHECK(state.residual < static_cast<double>(g.num_vertices()) * options.tol);
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
    const bool weighted = rng() % 2 == 0;
    const auto options = options_for(weighted);
    pr::cuda::device_state_t<vid_t> state, second;
    pr::cuda::compute(g, d, options, nullptr, state);
    pr::cuda::compute(g, d, options, nullptr, second);
    const auto got = ranks_of(state);
    CHECK(got == ranks_of(second));
    check_close(got, dyng_test::oracle_ranks(g, options.alpha, weighted), options, "vs oracle");
    check_close(got, host_ranks(g, options), options, "compute vs host");
    for (int round = 0; round < 5; ++round) {
      const auto log = apply_to_both(g, d, dyng_test::random_batch(rng, g));
      const std::string name = "trial " + std::to_string(trial) + " round " +
                               std::to_string(round) + (weighted ? " weighted" : "");
      state = check_updates(name, g, d, log, weighted, state, paths);
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("GPU compute and update within the bound on random batches, i32/i32") {
  random_rounds<int32_t, int32_t>(51, 30);
}
DYNG_TEST("GPU compute and update within the bound on random batches, i32/i64") {
  random_rounds<int32_t, int64_t>(52, 15);
}
DYNG_TEST("GPU compute and update within the bound on random batches, i64/i64") {
  random_rounds<int64_t, int64_t>(53, 15);
}

/// A skewed graph: 1 in 3 edge ends at one of 16 hubs (in-rows of ~10^4 slots: the block
/// schedule), 1 in 7 at one of 2,048 (rows of ~30: the warp schedule), the rest uniform (the
/// thread schedule). Weights 1..9 when weighted.
graph_t<int32_t, int64_t> skewed_graph(std::mt19937_64& rng, int32_t n, int64_t m, bool directed) {
  auto draw = [&] {
    const uint64_t r = rng();
    if (r % 3 == 0) return static_cast<int32_t>((r >> 8) % 16);
    if (r % 7 == 0) return static_cast<int32_t>((r >> 8) % 2048);
    return static_cast<int32_t>((r >> 8) % static_cast<uint64_t>(n));
  };
  std::vector<int32_t> src, dst, w;
  for (int64_t i = 0; i < m; ++i) {
    src.push_back(draw()), dst.push_back(draw()), w.push_back(1 + static_cast<int32_t>(rng() % 9));
  }
  graph_properties_t props;
  props.num_weights = 1;
  props.directed = directed;
  return graph_t<int32_t, int64_t>::from_edges(n, src, dst, w, props);
}

/// Batches of 1,000 mixed changes on a skewed graph at a tolerance that makes the bound tight;
/// the third batch also strips hub 0 of every out-edge and adds vertices.
void skewed_rounds(bool directed, bool weighted) {
  std::mt19937_64 rng(directed ? 11 : 12);
  const int32_t n = 60000;
  auto g = skewed_graph(rng, n, 400000, directed);
  cuda::device_graph_t<int32_t, int64_t> d(g, 0, nullptr);
  const auto options = options_for(weighted, -1.0, 1e-11);
  pr::cuda::device_state_t<int32_t> state, second;
  const pr::stats_t stats = pr::cuda::compute(g, d, options, nullptr, state);
  pr::cuda::compute(g, d, options, nullptr, second);
  CHECK(stats.converged);
  CHECK(ranks_of(state) == ranks_of(second));
  check_close(ranks_of(state), host_ranks(g, options), options, "skewed compute vs host");
  for (int round = 0; round < 4; ++round) {
    dyng_test::batch_t<int32_t> b;
    b.num_weights = 1;
    const auto out = g.out_view();
    for (int i = 0; i < 500; ++i) {
      const auto u = static_cast<int32_t>(rng() % static_cast<uint64_t>(n));
      if (out.degree(u) > 0) {
        b.delete_src.push_back(u), b.delete_dst.push_back(out.neighbour(out.begin(u)));
      }
      // Tails from 1 on, so that hub 0 keeps no out-edge after round 2.
      b.insert(1 + static_cast<int32_t>(rng() % static_cast<uint64_t>(n - 1)),
               static_cast<int32_t>(rng() % 16));
    }
    if (round == 2) {
      for (auto s = out.begin(0); s < out.end(0); ++s) {
        b.delete_src.push_back(0), b.delete_dst.push_back(out.neighbour(s));
      }
      b.insert(n + 3, 5);
    }
    const auto log = apply_to_both(g, d, b);
    const auto [s, same_bits] = update_twice(g, d, log, options, state);
    const std::string context =
        "skewed round " + std::to_string(round) + " (" + path_name(s.path) + ")";
    CHECK(s.converged);
    CHECK(same_bits);
    check_close(ranks_of(state), host_ranks(g, options), options, context);
    // Undirected, the round's insertions may end at 0, which then has edges again.
    if (round == 2 && directed) CHECK_EQ(g.out_view().degree(0), 0);
  }
}

DYNG_TEST("GPU pagerank of a skewed directed graph, batches of 1000 changes") {
  skewed_rounds(true, false);
}
DYNG_TEST("GPU weighted pagerank of a skewed directed graph, batches of 1000 changes") {
  skewed_rounds(true, true);
}
DYNG_TEST("GPU pagerank of a skewed undirected graph, batches of 1000 changes") {
  skewed_rounds(false, false);
}

DYNG_TEST("GPU updates that skip the full iterations meet the convergence test") {
  // As the host's test: a loose tol leaves room under n * tol, so most small batches are
  // certified by the frontier's residual bound; whichever way an update went, one more full
  // iteration (from the edge list) moves its ranks by at most the residual it reports.
  std::mt19937_64 rng(12);
  int certified = 0;
  for (int trial = 0; trial < 30; ++trial) {
    auto g = dyng_test::sparse_graph<int32_t, int32_t>(rng);
    cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
    const bool weighted = rng() % 2 == 0;
    const auto options = options_for(weighted, -1.0, 2e-2);
    pr::cuda::device_state_t<int32_t> state;
    pr::cuda::compute(g, d, options, nullptr, state);
    for (int step = 0; step < 4; ++step) {
      const auto log = apply_to_both(g, d, dyng_test::random_batch(rng, g));
      const auto [stats, same_bits] = update_twice(g, d, log, options, state);
      const auto got = ranks_of(state);
      CHECK(same_bits);
      const auto n = static_cast<double>(g.num_vertices());
      CHECK(stats.converged && state.residual < n * options.tol);
      CHECK(dyng_test::one_iteration_change(g, got, options.alpha, weighted) <=
            state.residual + 1e-12);
      check_close(got, host_ranks(g, options), options, "certified update vs host");
      certified += stats.vertices_touched < g.num_vertices() ? 1 : 0;
    }
  }
  CHECK(certified > 10);
}

DYNG_TEST("GPU pagerank of graphs without vertices or without edges") {
  graph_properties_t props;
  props.num_weights = 0;
  const std::vector<int32_t> none;
  auto empty = graph_t<int32_t, int32_t>::from_edges(0, none, none, {}, props);
  cuda::device_graph_t<int32_t, int32_t> d0(empty, 0, nullptr);
  pr::cuda::device_state_t<int32_t> state;
  const pr::stats_t stats = pr::cuda::compute(empty, d0, options_for(false), nullptr, state);
  CHECK(stats.converged);
  CHECK_EQ(state.num_vertices, 0);
  auto lonely = graph_t<int32_t, int32_t>::from_edges(5, none, none, {}, props);
  cuda::device_graph_t<int32_t, int32_t> d5(lonely, 0, nullptr);
  pr::cuda::compute(lonely, d5, options_for(false), nullptr, state);
  for (double r : ranks_of(state)) CHECK(std::fabs(r - 0.2) < 1e-15);
  // Growth alone (a batch that only adds a vertex) starts it at its share and rescales.
  const std::vector<int32_t> is{6}, id{6};
  change_log_t<int32_t> log;
  log.record_row_edits = true;
  lonely.apply({is, id, {}, 0, {}, {}}, &log);
  d5.sync(lonely, log);
  pr::cuda::update(lonely, d5, log, options_for(false), nullptr, state);
  check_close(ranks_of(state), host_ranks(lonely, options_for(false)), options_for(false),
              "after growth");
}

DYNG_TEST("GPU refused calls leave the result as it was") {
  const std::vector<int32_t> src{0, 1, 2}, dst{1, 2, 0}, w{1, 1, 1};
  graph_properties_t props;
  props.num_weights = 1;
  auto g = graph_t<int32_t, int32_t>::from_edges(4, src, dst, w, props);
  cuda::device_graph_t<int32_t, int32_t> d(g, 0, nullptr);
  pr::cuda::device_state_t<int32_t> state;
  auto bad = options_for(true);
  bad.alpha = 1.0;
  CHECK_THROWS_AS(pr::cuda::compute(g, d, bad, nullptr, state), invalid_argument_error);
  pr::cuda::compute(g, d, options_for(true), nullptr, state);
  const auto before = ranks_of(state);
  const std::vector<int32_t> is{3}, id{0}, iw{-2};
  change_log_t<int32_t> log;
  log.record_row_edits = true;
  g.apply({is, id, iw, 1, {}, {}}, &log);
  d.sync(g, log);
  bool named = false;
  try {
    pr::cuda::update(g, d, log, options_for(true), nullptr, state);
  } catch (const invalid_argument_error& e) {
    named = std::string(e.what()).find("3 -> 0 has weight -2") != std::string::npos;
  }
  CHECK(named);
  CHECK(ranks_of(state) == before);
  pr::cuda::update(g, d, log, options_for(false), nullptr, state);
  check_close(ranks_of(state), host_ranks(g, options_for(false)), options_for(false),
              "unweighted after the refusal");
  graph_properties_t plain;
  plain.num_weights = 0;
  auto unweighted = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, plain);
  cuda::device_graph_t<int32_t, int32_t> du(unweighted, 0, nullptr);
  CHECK_THROWS_AS(pr::cuda::compute(unweighted, du, options_for(true), nullptr, state),
                  invalid_argument_error);
}

}  // namespace

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
