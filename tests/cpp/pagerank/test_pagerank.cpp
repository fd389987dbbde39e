// pagerank on the host backends against a dense oracle (pagerank_oracle.hpp): compute within the
// convergence bound of the exact ranks; update after random adversarial batches (paths deleted,
// self-loops, parallel edges, a hub gaining in-edges, vertex growth; directed and undirected,
// weighted and not) converged and within 2 * n * tol / (1 - alpha) of a fresh compute on every
// budget path (the fallback a warm start from the previous ranks); the same bits from the
// sequential kernels and OpenMP teams of 1 to 4 threads; bad options refused.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "components/components_batches.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/pagerank/pagerank.hpp"
#include "pagerank/pagerank_oracle.hpp"

namespace {

using namespace dyng;
namespace pr = dyng::pagerank;

struct variant_t {
  backend_t backend;
  int threads;
  double budget;
};

const variant_t k_variants[] = {{backend_t::sequential, 1, -1.0}, {backend_t::sequential, 1, 0.0},
                                {backend_t::openmp, 1, 1e9},      {backend_t::openmp, 2, -1.0},
                                {backend_t::openmp, 3, 0.0},      {backend_t::openmp, 4, 1e9}};

execution_t exec_for(const variant_t& v) {
  execution_t exec;
  exec.backend = v.backend;
  exec.num_threads = v.threads;
  return exec;
}

pr::options_t options_for(bool weighted, double budget) {
  pr::options_t options;
  options.weighted = weighted;
  options.repair_budget = budget;
  options.parallel_min_edges = 0;
  options.max_iter = 1000;
  return options;
}

double bound(const pr::options_t& o, size_t n) {
  return 2.0 * static_cast<double>(n) * o.tol / (1.0 - o.alpha);
}

template <class vid_t, class eid_t>
void random_runs(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 40; ++round) {
    auto g = dyng_test::sparse_graph<vid_t, eid_t>(rng);
    const bool weighted = rng() % 2 == 0;
    pr::state_t<vid_t> state;
    pr::compute(g, options_for(weighted, -1.0), {}, state);
    const auto exact = dyng_test::oracle_ranks(g, 0.85, weighted);
    const double limit = bound(options_for(weighted, -1.0), exact.size());
    CHECK(dyng_test::l1_distance(state.ranks, exact) < limit);
    for (int step = 0; step < 4; ++step) {
      const auto batch = dyng_test::random_batch(rng, g);
      change_log_t<vid_t> log;
      g.apply(batch.view(), &log);
      pr::state_t<vid_t> fresh;
      pr::compute(g, options_for(weighted, -1.0), {}, fresh);
      pr::state_t<vid_t> first;
      for (const variant_t& v : k_variants) {
        pr::state_t<vid_t> updated = state;
        const auto options = options_for(weighted, v.budget);
        const auto stats = pr::update(g, log, options, exec_for(v), updated);
        CHECK(stats.converged);
        if (v.budget == 0.0) CHECK(stats.method == "warm_power_iteration");
        CHECK(updated.residual < static_cast<double>(g.num_vertices()) * options.tol);
        CHECK(dyng_test::l1_distance(updated.ranks, fresh.ranks) <
              bound(options, fresh.ranks.size()));
        // Same path, same bits: the sequential kernels and every team size agree.
        if (v.budget == -1.0 && v.backend == backend_t::sequential) first = updated;
        if (v.budget == -1.0 && v.backend == backend_t::openmp) CHECK(updated.ranks == first.ranks);
      }
      pr::update(g, log, options_for(weighted, -1.0), {}, state);
    }
  }
}

}  // namespace

DYNG_TEST("compute and update within the bound on random batches, i32/i32") {
  random_runs<int32_t, int32_t>(1);
}
DYNG_TEST("compute and update within the bound on random batches, i64/i64") {
  random_runs<int64_t, int64_t>(2);
}

DYNG_TEST("compute gives the same bits on every host backend and team size") {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    const auto g = dyng_test::sparse_graph<int32_t, int32_t>(rng);
    pr::state_t<int32_t> first;
    for (const variant_t& v : k_variants) {
      pr::state_t<int32_t> state;
      pr::compute(g, options_for(false, -1.0), exec_for(v), state);
      if (v.backend == backend_t::sequential) first = state;
      CHECK(state.ranks == first.ranks);
      CHECK_EQ(state.iterations, first.iterations);
    }
  }
}

DYNG_TEST("the fallback starts from the previous ranks, not the uniform vector") {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 10; ++round) {
    auto g = dyng_test::sparse_graph<int32_t, int32_t>(rng);
    pr::state_t<int32_t> state;
    const auto cold = pr::compute(g, options_for(false, 0.0), {}, state);
    // An empty batch: converged ranks stay converged after one iteration, which a start from
    // the uniform vector would not be.
    const dyng_test::batch_t<int32_t> batch;
    change_log_t<int32_t> log;
    g.apply(batch.view(), &log);
    const auto warm = pr::update(g, log, options_for(false, 0.0), {}, state);
    CHECK(warm.method == "warm_power_iteration" && warm.path == update_path_t::recompute);
    CHECK_EQ(warm.iterations, int64_t{1});
    CHECK(cold.iterations > 1);
  }
}

DYNG_TEST("an update that skips the full iterations meets the convergence test") {
  // A loose tol leaves room under n * tol, so most small batches are certified by the frontier's
  // bound; the test that one more full iteration moves the ranks by less than n * tol is checked
  // from the edge list, whichever way the update went.
  std::mt19937_64 rng(11);
  int certified = 0;
  for (int round = 0; round < 40; ++round) {
    auto g = dyng_test::sparse_graph<int32_t, int32_t>(rng);
    const bool weighted = rng() % 2 == 0;
    auto options = options_for(weighted, -1.0);
    options.tol = 2e-2;
    pr::state_t<int32_t> state;
    pr::compute(g, options, {}, state);
    for (int step = 0; step < 4; ++step) {
      const auto batch = dyng_test::random_batch(rng, g);
      change_log_t<int32_t> log;
      g.apply(batch.view(), &log);
      const auto stats = pr::update(g, log, options, {}, state);
      const auto n = static_cast<double>(g.num_vertices());
      CHECK(stats.converged && state.residual < n * options.tol);
      // The residual bounds the change, up to the rounding of the check (a graph whose uniform
      // ranks are exact converges with a residual of 0).
      CHECK(dyng_test::one_iteration_change(g, state.ranks, options.alpha, weighted) <=
            state.residual + 1e-12);
      pr::state_t<int32_t> fresh;
      pr::compute(g, options, {}, fresh);
      CHECK(dyng_test::l1_distance(state.ranks, fresh.ranks) < bound(options, fresh.ranks.size()));
      certified += stats.vertices_touched < g.num_vertices() ? 1 : 0;
    }
  }
  CHECK(certified > 10);
}

DYNG_TEST("bad options are refused") {
  std::mt19937_64 rng(3);
  const auto g = dyng_test::sparse_graph<int32_t, int32_t>(rng);
  pr::state_t<int32_t> state;
  for (int bad = 0; bad < 3; ++bad) {
    pr::options_t o;
    if (bad == 0) o.alpha = 1.0;
    if (bad == 1) o.tol = 0.0;
    if (bad == 2) o.max_iter = 0;
    bool threw = false;
    try {
      pr::compute(g, o, {}, state);
    } catch (const invalid_argument_error&) {
      threw = true;
    }
    CHECK(threw);
  }
}

DYNG_TEST_MAIN()
