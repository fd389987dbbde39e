// pagerank on the host backends against a dense oracle (pagerank_oracle.hpp): compute within the
// convergence bound of the exact ranks; update after random adversarial batches (paths deleted,
// self-loops, parallel edges, a hub gaining in-edges, vertex growth; directed and undirected,
// weighted and not) converged and within 2 * n * tol / (1 - alpha) of a fresh compute on every
// budget path (the fallback a warm start from the previous ranks), with and without
// personalization and dangling vectors (short ones padded, so vertex growth gives new vertices 0);
// a hub losing all its out-edges onto a concentrated dangling vector; the same bits from the
// sequential kernels and OpenMP teams of 1 to 4 threads; compute_from (nstart); the dangling mass
// and sum a result keeps for its next update stay true batch after batch; bad options and
// vectors refused.
#include <cmath>
#include <cstdint>
#include <limits>
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

/// Random teleport vectors for the options of a graph of `n` vertices: none, or up to n weights
/// with zeros among them (at least one positive), and a dangling vector that is absent, as
/// dense, or concentrated on one vertex.
struct vectors_t {
  std::vector<double> personalization, dangling;
};

vectors_t random_vectors(std::mt19937_64& rng, size_t n) {
  vectors_t v;
  if (rng() % 4 == 0) return v;
  v.personalization.resize(1 + rng() % n);
  for (double& w : v.personalization) w = rng() % 3 == 0 ? 0.0 : static_cast<double>(rng() % 7);
  v.personalization[rng() % v.personalization.size()] = 2.5;
  const auto kind = rng() % 3;
  if (kind == 1) v.dangling.assign(n, 1.0), v.dangling[0] = 9.0;
  if (kind == 2) v.dangling.assign(1 + rng() % n, 0.0), v.dangling.back() = 1.0;
  return v;
}

pr::options_t options_for(bool weighted, double budget, const vectors_t& vectors = {}) {
  pr::options_t options;
  options.personalization = vectors.personalization;
  options.dangling = vectors.dangling;
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
void random_runs(uint64_t seed, bool with_vectors, int rounds) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < rounds; ++round) {
    auto g = dyng_test::sparse_graph<vid_t, eid_t>(rng);
    const bool weighted = rng() % 2 == 0;
    const auto vectors =
        with_vectors ? random_vectors(rng, static_cast<size_t>(g.num_vertices())) : vectors_t{};
    pr::state_t<vid_t> state;
    pr::compute(g, options_for(weighted, -1.0, vectors), {}, state);
    const auto exact =
        dyng_test::oracle_ranks(g, 0.85, weighted, vectors.personalization, vectors.dangling);
    const double limit = bound(options_for(weighted, -1.0), exact.size());
    CHECK(dyng_test::l1_distance(state.ranks, exact) < limit);
    for (int step = 0; step < 4; ++step) {
      const auto batch = dyng_test::random_batch(rng, g);
      change_log_t<vid_t> log;
      g.apply(batch.view(), &log);
      pr::state_t<vid_t> fresh;
      pr::compute(g, options_for(weighted, -1.0, vectors), {}, fresh);
      pr::state_t<vid_t> first;
      for (const variant_t& v : k_variants) {
        pr::state_t<vid_t> updated = state;
        const auto options = options_for(weighted, v.budget, vectors);
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
      pr::update(g, log, options_for(weighted, -1.0, vectors), {}, state);
    }
    const auto now_exact =
        dyng_test::oracle_ranks(g, 0.85, weighted, vectors.personalization, vectors.dangling);
    CHECK(dyng_test::l1_distance(state.ranks, now_exact) <
          bound(options_for(weighted, -1.0), now_exact.size()));
  }
}

using graph32_t = graph_t<int32_t, int32_t>;

graph32_t unweighted_graph(int32_t n, const std::vector<int32_t>& src,
                           const std::vector<int32_t>& dst) {
  graph_properties_t props;
  props.num_weights = 0;
  return graph32_t::from_edges(n, src, dst, {}, props);
}

/// Applies `batch`, updates `state` on every variant and checks each against a fresh compute and
/// the oracle; returns the sequential update's state.
pr::state_t<int32_t> update_everywhere(graph32_t& g, const dyng_test::batch_t<int32_t>& batch,
                                       const vectors_t& vectors,
                                       const pr::state_t<int32_t>& state) {
  change_log_t<int32_t> log;
  g.apply(batch.view(), &log);
  pr::state_t<int32_t> fresh;
  pr::compute(g, options_for(false, -1.0, vectors), {}, fresh);
  const auto exact =
      dyng_test::oracle_ranks(g, 0.85, false, vectors.personalization, vectors.dangling);
  const double limit = bound(options_for(false, -1.0), exact.size());
  CHECK(dyng_test::l1_distance(fresh.ranks, exact) < limit);
  pr::state_t<int32_t> first;
  for (const variant_t& v : k_variants) {
    pr::state_t<int32_t> updated = state;
    const auto stats =
        pr::update(g, log, options_for(false, v.budget, vectors), exec_for(v), updated);
    CHECK(stats.converged);
    CHECK(dyng_test::l1_distance(updated.ranks, fresh.ranks) < limit);
    CHECK(dyng_test::l1_distance(updated.ranks, exact) < limit);
    if (v.budget == -1.0 && v.backend == backend_t::sequential) first = updated;
    if (v.budget == -1.0 && v.backend == backend_t::openmp) CHECK(updated.ranks == first.ranks);
  }
  return first;
}

}  // namespace

DYNG_TEST("a hub losing all its out-edges feeds a concentrated dangling vector") {
  // Hub 0 points at 1..8, which point back at it; vertex 9 only receives. The dangling vector
  // sends everything to 9, so the hub turning dangling moves 9 a lot at once.
  std::vector<int32_t> src, dst;
  for (int32_t v = 1; v <= 8; ++v) src.push_back(0), dst.push_back(v);
  for (int32_t v = 1; v <= 8; ++v) src.push_back(v), dst.push_back(0);
  src.push_back(3), dst.push_back(9);
  auto g = unweighted_graph(10, src, dst);
  vectors_t vectors;
  vectors.personalization = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  vectors.dangling = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  pr::state_t<int32_t> state;
  pr::compute(g, options_for(false, -1.0, vectors), {}, state);
  dyng_test::batch_t<int32_t> cut;
  for (int32_t v = 1; v <= 8; ++v) cut.delete_src.push_back(0), cut.delete_dst.push_back(v);
  state = update_everywhere(g, cut, vectors, state);
  CHECK(state.ranks[9] > 0.3);
  dyng_test::batch_t<int32_t> back;
  back.insert(0, 1);
  update_everywhere(g, back, vectors, state);
}

DYNG_TEST("vertex growth with a short personalization vector gives new vertices 0") {
  auto g = unweighted_graph(4, {0, 1, 2, 3}, {1, 2, 3, 0});
  vectors_t vectors;
  vectors.personalization = {1.0, 3.0};  // vertices 2.. get 0, and so will new ones
  pr::state_t<int32_t> state;
  pr::compute(g, options_for(false, -1.0, vectors), {}, state);
  dyng_test::batch_t<int32_t> grow;
  grow.insert(5, 1);  // 5 is new and only gives: its rank is (1 - alpha) * p[5] = 0
  grow.insert(3, 4);  // 4 is new and receives
  state = update_everywhere(g, grow, vectors, state);
  CHECK_EQ(state.ranks.size(), size_t{6});
  CHECK(state.ranks[5] == 0.0);
  CHECK(state.ranks[4] > 0.0);
}

DYNG_TEST("compute_from starts from the given vector") {
  std::mt19937_64 rng(5);
  const auto g = dyng_test::sparse_graph<int32_t, int32_t>(rng);
  const auto options = options_for(false, -1.0);
  pr::state_t<int32_t> cold, warm, other;
  pr::compute(g, options, {}, cold);
  pr::compute_from(g, cold.ranks, options, {}, warm);
  CHECK(warm.iterations < cold.iterations);
  std::vector<double> start(static_cast<size_t>(g.num_vertices()) / 2, 5.0);
  pr::compute_from(g, start, options, {}, other);
  CHECK(dyng_test::l1_distance(other.ranks, cold.ranks) <
        bound(options, static_cast<size_t>(g.num_vertices())));
}

DYNG_TEST("bad personalization, dangling and start vectors are refused") {
  const auto g = unweighted_graph(3, {0, 1}, {1, 2});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::vector<double>> bad = {{1, 1, 1, 1}, {1, -1},   {nan},
                                                {inf, 1},     {0, 0, 0}, {1e308, 1e308}};
  for (const auto& vector : bad) {
    for (int field = 0; field < 3; ++field) {
      pr::options_t o;
      if (field == 0) o.personalization = vector;
      if (field == 1) o.dangling = vector;
      pr::state_t<int32_t> state;
      bool threw = false;
      try {
        if (field == 2) {
          pr::compute_from(g, vector, o, {}, state);
        } else {
          pr::compute(g, o, {}, state);
        }
      } catch (const invalid_argument_error&) {
        threw = true;
      }
      CHECK(threw);
    }
  }
}

DYNG_TEST("compute and update within the bound on random batches, i32/i32") {
  random_runs<int32_t, int32_t>(1, false, 40);
}
DYNG_TEST("compute and update within the bound on random batches, i64/i64") {
  random_runs<int64_t, int64_t>(2, false, 40);
}
DYNG_TEST("personalization and dangling vectors: compute and update within the bound") {
  random_runs<int32_t, int32_t>(11, true, 15);
  random_runs<int64_t, int64_t>(12, true, 10);
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

/// The rank held by the vertices without out-edges, added in long double.
template <class vid_t, class eid_t>
double exact_dangling_mass(const graph_t<vid_t, eid_t>& g, const std::vector<double>& ranks) {
  const auto out = g.out_view();
  long double mass = 0.0L;
  for (size_t v = 0; v < ranks.size(); ++v) {
    if (out.degree(static_cast<vid_t>(v)) == 0) mass += ranks[v];
  }
  return static_cast<double>(mass);
}

/// Checks the totals `state` keeps for its next update against its ranks on `g`.
template <class vid_t, class eid_t>
void check_kept_totals(const graph_t<vid_t, eid_t>& g, const pr::state_t<vid_t>& state,
                       bool weighted) {
  CHECK(state.totals_known == !weighted);
  if (weighted) return;
  const double exact = exact_dangling_mass(g, state.ranks);
  CHECK(std::fabs(state.dangling_mass - exact) <= state.dangling_error);
  CHECK(state.dangling_error < 1e-9);
  long double sum = 0.0L;
  for (const double r : state.ranks) sum += r;
  CHECK(std::fabs(static_cast<double>(sum) - state.rank_sum) < 1e-12);
  CHECK(std::fabs(state.rank_sum - 1.0) < 1e-12);
}

DYNG_TEST("the totals an update starts from stay true batch after batch") {
  // Random batches make vertices dangling and stop them being so (paths deleted, self-loops,
  // growth); a loose tol lets most updates end after their frontier rounds, so the kept dangling
  // mass is the one corrected and carried from update to update. A copy that has no totals sums
  // them again and must land within the bound too.
  std::mt19937_64 rng(21);
  for (int round = 0; round < 30; ++round) {
    auto g = dyng_test::sparse_graph<int32_t, int32_t>(rng);
    const bool weighted = rng() % 3 == 0;
    const auto vectors = random_vectors(rng, static_cast<size_t>(g.num_vertices()));
    auto options = options_for(weighted, -1.0, vectors);
    options.tol = round % 2 == 0 ? 2e-2 : 1e-6;
    pr::state_t<int32_t> state;
    pr::compute(g, options, {}, state);
    check_kept_totals(g, state, weighted);
    for (int step = 0; step < 6; ++step) {
      const auto batch = dyng_test::random_batch(rng, g);
      change_log_t<int32_t> log;
      g.apply(batch.view(), &log);
      pr::state_t<int32_t> unknown = state;
      unknown.totals_known = false;
      unknown.dangling_mass = -1.0;  // must not be read
      pr::update(g, log, options, {}, state);
      check_kept_totals(g, state, weighted);
      const auto stats = pr::update(g, log, options, {}, unknown);
      check_kept_totals(g, unknown, weighted);
      const auto n = static_cast<double>(g.num_vertices());
      CHECK(stats.converged && unknown.residual < n * options.tol);
      CHECK(dyng_test::l1_distance(state.ranks, unknown.ranks) <
            bound(options, state.ranks.size()));
    }
  }
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
