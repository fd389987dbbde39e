// mosp on the host backends: after random adversarial batches (deleted tree edges, parallel
// edges, reweights, missing deletions, vertex growth, undirected graphs) every variant of update
// (sequential and forced OpenMP kernels, each budget path) equals a fresh compute bit for bit:
// trees, combined graph, MOSP tree and path costs; the combined graph and the path costs also
// equal direct constructions from their definitions; bad options are refused.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/mosp/detail/combined_edges.hpp"
#include "dyng/mosp/detail/path_costs.hpp"
#include "dyng/mosp/mosp.hpp"
#include "mosp/mosp_test_util.hpp"
#include "random_graph_case.hpp"

namespace {

using namespace dyng;
using dyng_test::check_definitions;
using dyng_test::check_same;
using dyng_test::expected_costs;
using dyng_test::random_batch;

struct variant_t {
  backend_t backend;
  double budget;
  int threads = 2;
};

// Teams of 5 and 7 exceed every K drawn (1..4): the objectives then run side by side in nested
// teams, repairs and fallback computes alike.
const variant_t k_variants[] = {{backend_t::sequential, -1.0}, {backend_t::sequential, 0.0},
                                {backend_t::sequential, 1e9},  {backend_t::openmp, -1.0},
                                {backend_t::openmp, 1e9},      {backend_t::openmp, -1.0, 5},
                                {backend_t::openmp, 0.0, 7}};

execution_t exec_of(backend_t backend, int threads = 2) {
  execution_t exec;
  exec.backend = backend;
  exec.num_threads = threads;
  return exec;
}

template <class vid_t, class eid_t>
void random_rounds(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < trials; ++trial) {
    auto rc = dyng_test::random_graph_case<vid_t>(rng, 40);
    const int k = 1 + static_cast<int>(rng() % 4);
    rc.props.num_weights = k;
    rc.weights.clear();
    for (size_t e = 0; e < rc.src.size() * static_cast<size_t>(k); ++e) {
      rc.weights.push_back(rc.weight(rng));
    }
    auto g = graph_t<vid_t, eid_t>::from_edges(rc.n, rc.src, rc.dst, rc.weights, rc.props);
    mosp::options_t options;
    if (rng() % 2) {
      for (int i = 0; i < k; ++i)
        options.preferences.push_back(1 + static_cast<int64_t>(rng() % 5));
    }
    options.parallel_min_edges = 0;
    const vid_t source = static_cast<vid_t>(rng() % static_cast<uint64_t>(rc.n));
    mosp::state_t<vid_t> state;
    mosp::compute(g, source, options, exec_of(backend_t::sequential), state);
    check_definitions(g, state, options.preferences);
    for (int round = 0; round < 5; ++round) {
      std::vector<vid_t> is, id, ds, dd;
      std::vector<int32_t> iw;
      random_batch(rng, g, rc, is, id, iw, ds, dd);
      change_log_t<vid_t> log;
      g.apply({is, id, iw, k, ds, dd}, &log);
      mosp::state_t<vid_t> fresh;
      mosp::compute(g, source, options, exec_of(backend_t::sequential), fresh);
      check_definitions(g, fresh, options.preferences);
      mosp::state_t<vid_t> wide;
      mosp::compute(g, source, options, exec_of(backend_t::openmp, 6), wide);
      check_same(wide, fresh);
      for (const variant_t& v : k_variants) {
        mosp::state_t<vid_t> updated = state;
        mosp::options_t o = options;
        o.repair_budget = v.budget;
        const mosp::stats_t stats = mosp::update(g, log, o, exec_of(v.backend, v.threads), updated);
        check_same(updated, fresh);
        CHECK_EQ(static_cast<int>(stats.objectives.size()), k);
        CHECK_EQ(stats.combined_edges, static_cast<int64_t>(fresh.combined_graph.num_edges()));
        CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
        if (v.budget == 0.0) CHECK(stats.path == update_path_t::recompute);
        if (v.budget >= 1e9) CHECK(stats.path == update_path_t::incremental);
        ++paths[stats.path == update_path_t::incremental ? 0 : 1];
        // Each tree's stats are those of sssp's own update of it, though mosp recomputes the
        // trees that fall back together (their rows packed once). Sequential calls only: an
        // OpenMP call's default budget follows the team its objective got.
        if (v.backend != backend_t::sequential) continue;
        for (int i = 0; i < k; ++i) {
          sssp::state_t<vid_t> tree = state.trees[i];
          sssp::options_t so;
          so.objective = i;
          so.repair_budget = v.budget;
          so.parallel_min_edges = 0;
          const sssp::stats_t alone = sssp::update(g, log, so, exec_of(v.backend), tree);
          const sssp::stats_t& part = stats.objectives[i];
          CHECK(part.path == alone.path);
          CHECK_EQ(part.fallback_used, alone.fallback_used);
          CHECK_EQ(part.affected, alone.affected);
          CHECK_EQ(part.invalidated, alone.invalidated);
          CHECK((tree.distances == updated.trees[i].distances));
        }
      }
      state = fresh;
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("update equals a fresh compute on random batches, i32/i32") {
  random_rounds<int32_t, int32_t>(21, 40);
}
DYNG_TEST("update equals a fresh compute on random batches, i32/i64") {
  random_rounds<int32_t, int64_t>(22, 25);
}
DYNG_TEST("update equals a fresh compute on random batches, i64/i64") {
  random_rounds<int64_t, int64_t>(23, 25);
}

// Objective 0's tree is a chain 0 -> 1 -> ... -> n-1 (weights 1; the direct edges 0 -> v weigh
// 1000), objective 1's a star of direct edges (weight 1; the chain weighs 1000). Deleting the
// chain's edge (1, 2) cuts n - 2 vertices off tree 0, past a small budget, and leaves tree 1
// alone: one tree recomputed beside one repaired, and the answer still that of a fresh compute.
DYNG_TEST("update recomputes the trees past their budget and repairs the others") {
  constexpr int32_t n = 200;
  std::vector<int32_t> src, dst, w;
  for (int32_t v = 1; v < n; ++v) {
    src.push_back(v - 1);
    dst.push_back(v);
    w.insert(w.end(), {1, 1000});
    if (v >= 2) {
      src.push_back(0);
      dst.push_back(v);
      w.insert(w.end(), {1000, 1});
    }
  }
  graph_properties_t props;
  props.num_weights = 2;
  const auto before = graph_t<int32_t, int32_t>::from_edges(n, src, dst, w, props);
  mosp::options_t options;
  options.preferences = {1, 2};
  options.repair_budget = 0.05;  // about 20 units of work on these 397 edges
  options.parallel_min_edges = 0;
  mosp::state_t<int32_t> state;
  mosp::compute(before, 0, options, exec_of(backend_t::sequential), state);
  auto g = before;
  const std::vector<int32_t> del_src{1}, del_dst{2};
  change_log_t<int32_t> log;
  g.apply({{}, {}, {}, 2, del_src, del_dst}, &log);
  mosp::state_t<int32_t> fresh;
  mosp::compute(g, 0, options, exec_of(backend_t::sequential), fresh);
  for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
    mosp::state_t<int32_t> updated = state;
    const mosp::stats_t stats = mosp::update(g, log, options, exec_of(backend), updated);
    check_same(updated, fresh);
    CHECK(stats.objectives[0].path == update_path_t::recompute);
    CHECK(stats.objectives[1].path == update_path_t::incremental);
    CHECK(stats.path == update_path_t::recompute);
    CHECK_EQ(stats.objectives[0].affected, int64_t{n - 2});
    for (int i = 0; i < 2; ++i) {
      sssp::state_t<int32_t> tree = state.trees[i];
      sssp::options_t so;
      so.objective = i;
      so.repair_budget = options.repair_budget;
      so.parallel_min_edges = 0;
      const sssp::stats_t alone = sssp::update(g, log, so, exec_of(backend), tree);
      CHECK(stats.objectives[i].path == alone.path);
      CHECK_EQ(stats.objectives[i].affected, alone.affected);
      CHECK_EQ(stats.objectives[i].invalidated, alone.invalidated);
    }
  }
}

DYNG_TEST("path costs follow the first stored copy of a parallel edge") {
  graph_properties_t props;
  props.num_weights = 3;
  props.order = edge_order_t::append;
  props.allow_parallel_edges = true;
  const std::vector<int32_t> src{0, 0, 0, 1, 2, 1, 3}, dst{1, 1, 2, 3, 3, 2, 4};
  const std::vector<int32_t> w{5, 1, 9, 2, 7, 3, 4, 4, 4, 1, 1, 1, 1, 2, 3, 1, 1, 1, 2, 2, 2};
  auto g = graph_t<int32_t, int32_t>::from_edges(5, src, dst, w, props);
  mosp::options_t options;
  options.preferences = {1, 2, 3};
  mosp::state_t<int32_t> s;
  mosp::compute(g, 0, options, {}, s);
  CHECK_EQ(s.preference_scale, 6);
  CHECK((s.combined_distances == std::vector<int64_t>{0, 13, 22, 26, 39}));
  CHECK((s.combined_parents == std::vector<int32_t>{-1, 0, 0, 1, 3}));
  CHECK((s.path_costs == std::vector<int64_t>{0, 0, 0, 5, 1, 9, 4, 4, 4, 6, 2, 10, 8, 4, 12}));
}

/// The costs of the tree `parents` from vertex 0 over the first three weights, by definition
/// (expected_costs() walks each vertex's path up to the source).
std::vector<int64_t> defined_costs(const graph_t<int32_t, int32_t>& g,
                                   const std::vector<int32_t>& parents) {
  mosp::state_t<int32_t> s;
  s.source = 0;
  s.num_objectives = 3;
  s.combined_parents = parents;
  return expected_costs(g, s);
}

DYNG_TEST("path costs level by level in parallel equal the sequential pass") {
  // A random tree wide enough (thousands of vertices per level) for the shared-out levels, on
  // a graph with the tree's edges and as many others, in both row orders with parallel edges.
  std::mt19937_64 rng(31);
  const int32_t n = 60000;
  std::vector<int32_t> parents(n, -1), src, dst, w;
  for (int32_t v = 1; v < n; ++v) {
    parents[v] = static_cast<int32_t>(rng() % static_cast<uint64_t>(std::min(v, 3000 + v / 4)));
  }
  for (int32_t v = 1; v < n; ++v) {
    for (int copy = 0; copy < 2; ++copy) {  // the tree edge twice: the first copy counts
      src.push_back(parents[v]), dst.push_back(v);
      for (int i = 0; i < 3; ++i) w.push_back(1 + static_cast<int32_t>(rng() % 50));
    }
    src.push_back(static_cast<int32_t>(rng() % n)), dst.push_back(v);
    for (int i = 0; i < 3; ++i) w.push_back(1 + static_cast<int32_t>(rng() % 50));
  }
  for (const auto order : {edge_order_t::sorted, edge_order_t::append}) {
    graph_properties_t props;
    props.num_weights = 3;
    props.order = order;
    props.allow_parallel_edges = true;
    auto g = graph_t<int32_t, int32_t>::from_edges(n, src, dst, w, props);
    const mosp::detail::cost_rows_t<int32_t, int32_t> rows{
        g.out_view(), order == edge_order_t::sorted, 3, std::nullopt};
    std::vector<int64_t> one, two;
    mosp::detail::compute_path_costs(rows, parents.data(), int32_t{0}, one, 1);
    mosp::detail::compute_path_costs(rows, parents.data(), int32_t{0}, two, 2);
    CHECK(one == two);
    CHECK(defined_costs(g, parents) == two);
  }
}

DYNG_TEST("path costs in distance order, by one thread or several, equal the tree walk") {
  // A random tree whose distances grow by at least the band (3) per edge, with wide bands (over
  // 4096 vertices, shared out) and narrow ones (one thread), unreachable vertices, and a graph
  // holding each tree edge once plus random others, kept with in-rows (directed) or as its own
  // transpose (undirected): every child's edge is then read from its own in-row.
  std::mt19937_64 rng(37);
  const int32_t n = 60000;
  const int64_t band = 3;
  std::vector<int32_t> parents(n, -1), src, dst, w;
  std::vector<int64_t> distances(n, sssp::k_infinite_distance);
  distances[0] = 0;
  for (int32_t v = 1; v < n; ++v) {
    const auto p = static_cast<int32_t>(rng() % static_cast<uint64_t>(std::min(v, 3000 + v / 4)));
    if (rng() % 50 == 0 || distances[p] == sssp::k_infinite_distance) continue;  // unreached
    parents[v] = p;
    distances[v] = distances[p] + band + static_cast<int64_t>(rng() % 4);
  }
  std::map<std::pair<int32_t, int32_t>, bool> seen;
  auto add = [&](int32_t a, int32_t b) {
    if (a == b || seen[{std::min(a, b), std::max(a, b)}]) return;
    seen[{std::min(a, b), std::max(a, b)}] = true;
    src.push_back(a), dst.push_back(b);
    for (int i = 0; i < 3; ++i) w.push_back(1 + static_cast<int32_t>(rng() % 50));
  };
  for (int32_t v = 1; v < n; ++v) {
    if (parents[v] >= 0) add(parents[v], v);
  }
  for (int32_t v = 1; v < n; ++v) add(static_cast<int32_t>(rng() % n), v);
  for (const bool directed : {true, false}) {
    graph_properties_t props;
    props.num_weights = 3;
    props.directed = directed;
    auto g = graph_t<int32_t, int32_t>::from_edges(n, src, dst, w, props);
    mosp::detail::cost_rows_t<int32_t, int32_t> rows{g.out_view(), true, 3, std::nullopt};
    std::vector<int64_t> walked, one, two;
    mosp::detail::compute_path_costs(rows, parents.data(), int32_t{0}, walked, 2);
    rows.unique_in = g.in_view();
    mosp::detail::compute_path_costs(rows, parents.data(), int32_t{0}, one, 1, distances.data(),
                                     band);
    mosp::detail::compute_path_costs(rows, parents.data(), int32_t{0}, two, 2, distances.data(),
                                     band);
    CHECK(one == walked);
    CHECK(two == walked);
    CHECK(defined_costs(g, parents) == two);
    // The bands this tree makes: some wide enough to share out, and narrow ones.
    const mosp::detail::distance_order_t<int32_t> ranked(parents.data(), distances.data(), n,
                                                         int32_t{0}, band, 2);
    int64_t wide = 0, narrow = 0;
    for (size_t b = 0; b + 1 < ranked.band_start.size(); ++b) {
      const int64_t size = ranked.band_start[b + 1] - ranked.band_start[b];
      (size >= 4096 ? wide : narrow) += 1;
    }
    CHECK(wide > 0);
    CHECK(narrow > 0);
  }
}

DYNG_TEST(
    "the combined graph's CSRs, built by one thread or several and laid out on first edit, are its "
    "definition") {
  // Wide enough for the shared-out passes: trees that agree, differ and leave vertices out.
  std::mt19937_64 rng(41);
  const int64_t n = 50000;
  const int k = 3;
  std::vector<std::vector<int32_t>> parents(k, std::vector<int32_t>(n, -1));
  for (int64_t v = 1; v < n; ++v) {
    const int32_t common = static_cast<int32_t>(rng() % static_cast<uint64_t>(v));
    for (int i = 0; i < k; ++i) {
      const uint64_t pick = rng() % 8;
      parents[i][v] = pick == 0 ? -1 : pick < 5 ? common : static_cast<int32_t>(rng() % 300);
    }
  }
  std::vector<const int32_t*> views;
  for (const auto& p : parents) views.push_back(p.data());
  const std::vector<int64_t> tree_weights{3, 6, 2};
  std::vector<int32_t> src, dst, w;
  std::vector<mosp::detail::combined_in_edge_t<int32_t>> in;
  for (int64_t v = 0; v < n; ++v) {
    mosp::detail::combined_in_edges<int32_t>([&](int i) { return parents[i][v]; }, k, tree_weights,
                                             6, in);
    for (const auto& e : in) {
      src.push_back(e.from), dst.push_back(static_cast<int32_t>(v)), w.push_back(e.weight);
    }
  }
  const auto expected = mosp::combined_graph_t<int32_t>::from_edges(
      static_cast<int32_t>(n), src, dst, w, mosp::detail::combined_graph_properties());
  const auto want = expected.to_csr();
  auto same_rows = [&](const adjacency_view_t<int32_t, int64_t>& a,
                       const adjacency_view_t<int32_t, int64_t>& b) {
    if (a.num_vertices != b.num_vertices) return false;
    for (int32_t v = 0; v < a.num_vertices; ++v) {
      if (a.degree(v) != b.degree(v)) return false;
      for (int64_t j = 0; j < a.degree(v); ++j) {
        if (a.neighbour(a.begin(v) + j) != b.neighbour(b.begin(v) + j) ||
            a.weight(a.begin(v) + j, 0) != b.weight(b.begin(v) + j, 0)) {
          return false;
        }
      }
    }
    return true;
  };
  for (const int threads : {1, 2}) {
    mosp::detail::combined_store_t<int32_t> store(
        mosp::detail::build_combined_csrs(views, n, tree_weights, 6, threads));
    // As a compute searches it: the CSRs themselves.
    CHECK_EQ(store.num_vertices(), n);
    CHECK_EQ(store.num_edges(), static_cast<int64_t>(expected.num_edges()));
    CHECK(same_rows(store.out_view(), expected.out_view()));
    CHECK(same_rows(store.in_view(), expected.in_view()));
    // As an update edits it: laid out once, with the spare slots from_edges() gives.
    auto& g = store.graph(threads);
    CHECK_EQ(&store.graph(threads), &g);
    g.check_integrity();
    const auto got = g.to_csr();
    CHECK(got.row_ptr == want.row_ptr);
    CHECK(got.col == want.col);
    CHECK(got.weights == want.weights);
    CHECK_EQ(g.slot_capacity(), expected.slot_capacity());
    CHECK(same_rows(store.out_view(), expected.out_view()));
    CHECK(same_rows(store.in_view(), expected.in_view()));
  }
}

DYNG_TEST("bad options are refused") {
  const std::vector<int32_t> src{0, 1}, dst{1, 2}, w{1, 1, 1, 1};
  graph_properties_t props;
  props.num_weights = 2;
  auto g = graph_t<int32_t, int32_t>::from_edges(3, src, dst, w, props);
  mosp::state_t<int32_t> s;
  mosp::options_t o;
  o.num_objectives = 3;
  CHECK_THROWS_AS(mosp::compute(g, 0, o, {}, s), invalid_argument_error);
  o = {};
  o.preferences = {1};
  CHECK_THROWS_AS(mosp::compute(g, 0, o, {}, s), invalid_argument_error);
  o.preferences = {1021, 1031};  // lcm past 2^20
  CHECK_THROWS_AS(mosp::compute(g, 0, o, {}, s), invalid_argument_error);
  o = {};
  o.delta = -1;
  CHECK_THROWS_AS(mosp::compute(g, 0, o, {}, s), invalid_argument_error);
  CHECK_THROWS_AS(mosp::compute(g, 3, {}, {}, s), invalid_argument_error);
  props.num_weights = 0;
  auto unweighted = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props);
  CHECK_THROWS_AS(mosp::compute(unweighted, 0, {}, {}, s), not_supported_error);
}

}  // namespace

DYNG_TEST_MAIN()
