// SSSP kernels and entry points on hand-made views (model_graph.hpp), against the binary-heap
// oracle: compute on both backends, canonicalize, and update() over random adversarial batches,
// forcing the incremental path, the fallback and the parallel kernel.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/sssp/detail/reference_dijkstra.hpp"
#include "dyng/sssp/detail/host_entry.hpp"
#include "sssp/model_graph.hpp"

namespace {

using namespace dyng;
using namespace dyng::sssp;
using sssp_test::model_graph_t;

struct weight_profile_t {
  int32_t low;
  int32_t high;
};

// Ties everywhere, small, typical, the largest Dial ring, and the radix-heap range.
const weight_profile_t k_profiles[] = {{1, 1},         {1, 3},          {1, 100},
                                       {60000, 65535}, {1, 2147483647}, {1 << 30, 2147483647}};

struct config_t {
  const char* name;
  execution_t exec;
  options_t options;
};

std::vector<config_t> configs(int objective) {
  std::vector<config_t> out;
  options_t base;
  base.objective = objective;
  out.push_back({"sequential", {backend_t::sequential, 1, 0}, base});
  out.push_back({"openmp-small-graph", {backend_t::openmp, 2, 0}, base});
  for (const int64_t delta : {0, 1, 7, 1000000000}) {
    options_t forced = base;
    forced.parallel_min_edges = 0;
    forced.delta = delta;
    out.push_back({"openmp-parallel", {backend_t::openmp, 2, 0}, forced});
  }
  options_t three = base;
  three.parallel_min_edges = 0;
  out.push_back({"openmp-3-threads", {backend_t::openmp, 3, 0}, three});
  return out;
}

template <class vid_t>
bool same_state(const state_t<vid_t>& a, const state_t<vid_t>& b) {
  return a.source == b.source && a.distances == b.distances && a.parents == b.parents;
}

template <class vid_t, class eid_t>
model_graph_t<vid_t, eid_t> random_graph(std::mt19937_64& rng, vid_t n, bool directed, int k,
                                         weight_profile_t profile, double edges_per_vertex) {
  model_graph_t<vid_t, eid_t> g(n, k, directed, rng());
  std::uniform_int_distribution<int32_t> weight(profile.low, profile.high);
  // Vertices at or above `reachable` only point into that part, so some are unreachable from 0.
  const vid_t reachable = std::max<vid_t>(1, n - static_cast<vid_t>(rng() % (n / 4 + 1)));
  const int64_t m = static_cast<int64_t>(edges_per_vertex * n);
  for (int64_t e = 0; e < m; ++e) {
    vid_t u = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    vid_t v = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    if (directed && v >= reachable && u < reachable) std::swap(u, v);
    if (!directed && ((u < reachable) != (v < reachable))) continue;
    std::vector<int32_t> w(static_cast<size_t>(k));
    for (int32_t& x : w) x = weight(rng);
    g.insert(u, v, w, nullptr);
    if (rng() % 8 == 0) g.insert(u, v, w, nullptr);  // a parallel edge with equal weights
  }
  for (int s = 0; s < 2; ++s) {
    const vid_t v = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    g.insert(v, v, std::vector<int32_t>(static_cast<size_t>(k), profile.low), nullptr);
  }
  g.build(rng() % 2 == 0, rng() % 2 == 0);
  return g;
}

template <class vid_t, class eid_t>
void compute_matches_reference(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 120; ++trial) {
    const vid_t n = static_cast<vid_t>(1 + rng() % 60);
    const bool directed = rng() % 2 == 0;
    const int k = 1 + static_cast<int>(rng() % 2);
    const weight_profile_t profile = k_profiles[rng() % std::size(k_profiles)];
    const double density = 0.5 + static_cast<double>(rng() % 40) / 10.0;
    model_graph_t<vid_t, eid_t> g =
        random_graph<vid_t, eid_t>(rng, n, directed, k, profile, density);
    const int objective = static_cast<int>(rng() % static_cast<uint64_t>(k));
    const vid_t source = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    const state_t<vid_t> expected =
        detail::reference_dijkstra_view(g.views().out, source, objective);
    for (const config_t& c : configs(objective)) {
      state_t<vid_t> state;
      const stats_t stats = detail::compute_views(g.views(), source, c.options, c.exec, state);
      if (!same_state(state, expected)) {
        std::fprintf(stderr, "  compute mismatch: %s trial %d n %lld\n", c.name, trial,
                     static_cast<long long>(n));
      }
      CHECK(same_state(state, expected));
      CHECK_EQ(stats.engine_used,
               std::string(c.exec.backend == backend_t::openmp ? "fused" : "operators"));
      CHECK(stats.path == update_path_t::compute);
    }
  }
}

DYNG_TEST("compute equals the reference, i32/i32") {
  compute_matches_reference<int32_t, int32_t>(1);
}
DYNG_TEST("compute equals the reference, i32/i64") {
  compute_matches_reference<int32_t, int64_t>(2);
}
DYNG_TEST("compute equals the reference, i64/i64") {
  compute_matches_reference<int64_t, int64_t>(3);
}

DYNG_TEST("a larger graph through the parallel kernel, all deltas") {
  std::mt19937_64 rng(11);
  for (const weight_profile_t profile : k_profiles) {
    auto g = random_graph<int32_t, int64_t>(rng, 3000, true, 1, profile, 6.0);
    const auto expected = detail::reference_dijkstra_view(g.views().out, 0, 0);
    for (const config_t& c : configs(0)) {
      state_t<int32_t> state;
      detail::compute_views(g.views(), int32_t{0}, c.options, c.exec, state);
      CHECK(same_state(state, expected));
    }
  }
}

DYNG_TEST("canonicalize_parents rewrites scrambled parents") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    const int32_t n = static_cast<int32_t>(1 + rng() % 50);
    auto g = random_graph<int32_t, int32_t>(rng, n, rng() % 2 == 0, 1, k_profiles[rng() % 3], 3.0);
    const int32_t source = static_cast<int32_t>(rng() % static_cast<uint64_t>(n));
    const auto expected = detail::reference_dijkstra_view(g.views().out, source, 0);
    for (const config_t& c : configs(0)) {
      state_t<int32_t> state = expected;
      for (int32_t& p : state.parents) p = static_cast<int32_t>(rng() % static_cast<uint64_t>(n));
      // Distances at or above INF/2 count as unreachable, as in Result.from_arrays.
      for (int64_t& d : state.distances) {
        if (d == k_infinite_distance) d = k_infinite_distance / 2 + static_cast<int64_t>(rng() % 9);
      }
      detail::canonicalize_views(g.views(), c.options, c.exec, state);
      CHECK(state.parents == expected.parents);
    }
  }
}

// One random batch of adversarial changes, applied to the model; returns its change log.
template <class vid_t, class eid_t>
change_log_t<vid_t> random_batch(std::mt19937_64& rng, model_graph_t<vid_t, eid_t>& g,
                                 const state_t<vid_t>& state, int objective,
                                 weight_profile_t profile) {
  change_log_t<vid_t> log;
  log.num_vertices_before = g.num_vertices();
  const int k = g.num_weights();
  std::uniform_int_distribution<int32_t> weight(profile.low, profile.high);
  auto random_weights = [&] {
    std::vector<int32_t> w(static_cast<size_t>(k));
    for (int32_t& x : w) x = weight(rng);
    return w;
  };
  const vid_t n_old = g.num_vertices();
  const int ops = 1 + static_cast<int>(rng() % 6);
  for (int op = 0; op < ops; ++op) {
    const auto& edges = g.edges();
    const vid_t n = g.num_vertices();
    const auto pick_vertex = [&] { return static_cast<vid_t>(rng() % static_cast<uint64_t>(n)); };
    // Current tree edges (by the state of the graph before the batch).
    std::vector<size_t> tree;
    for (size_t i = 0; i < edges.size(); ++i) {
      const vid_t v = edges[i].dst;
      if (v < n_old && state.parents[static_cast<size_t>(v)] == edges[i].src) tree.push_back(i);
    }
    switch (rng() % 8) {
      case 0:  // delete a tree edge
        if (!tree.empty()) g.remove(tree[rng() % tree.size()], &log);
        break;
      case 1:  // delete any edge
        if (!edges.empty()) g.remove(rng() % edges.size(), &log);
        break;
      case 2: {  // cut a vertex off: delete all its out-edges
        const vid_t v = pick_vertex();
        for (size_t i = edges.size(); i-- > 0;) {
          if (i < g.edges().size() && g.edges()[i].src == v) g.remove(i, &log);
        }
        break;
      }
      case 3: {  // insert a tight edge from a lower id than the current parent
        const vid_t v = pick_vertex();
        if (v >= n_old) break;
        const vid_t p = state.parents[static_cast<size_t>(v)];
        if (p <= 0) break;
        const vid_t u = static_cast<vid_t>(rng() % static_cast<uint64_t>(p));
        const int64_t du = state.distances[static_cast<size_t>(u)];
        const int64_t dv = state.distances[static_cast<size_t>(v)];
        if (du >= dv || dv - du > 2147483647) break;
        std::vector<int32_t> w = random_weights();
        w[static_cast<size_t>(objective)] = static_cast<int32_t>(dv - du);
        g.insert(u, v, w, &log);
        break;
      }
      case 4: {  // reweight a tree edge up or down
        if (tree.empty()) break;
        const size_t i = tree[rng() % tree.size()];
        std::vector<int32_t> w = edges[i].weights;
        int32_t& x = w[static_cast<size_t>(objective)];
        x = rng() % 2 ? std::max<int32_t>(1, x / 2) : (x > 1 << 30 ? x : x * 2);
        g.reweight(i, w, &log);
        break;
      }
      case 5:  // reweight any edge, possibly to the same value
        if (!edges.empty()) {
          const size_t i = rng() % edges.size();
          g.reweight(i, rng() % 3 ? random_weights() : edges[i].weights, &log);
        }
        break;
      case 6:  // insert a random edge
        g.insert(pick_vertex(), pick_vertex(), random_weights(), &log);
        break;
      case 7: {  // grow the graph and wire the new vertex in
        const vid_t fresh = n;
        g.grow(static_cast<vid_t>(n + 1 + static_cast<vid_t>(rng() % 2)));
        g.insert(pick_vertex(), fresh, random_weights(), &log);
        if (rng() % 2) g.insert(fresh, pick_vertex(), random_weights(), &log);
        break;
      }
    }
  }
  log.num_vertices_after = g.num_vertices();
  g.build(rng() % 2 == 0, rng() % 2 == 0);
  return log;
}

template <class vid_t, class eid_t>
void updates_match_compute(uint64_t seed) {
  std::mt19937_64 rng(seed);
  int incremental = 0, fallback = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const vid_t n = static_cast<vid_t>(1 + rng() % 40);
    const bool directed = rng() % 2 == 0;
    const int k = 1 + static_cast<int>(rng() % 2);
    const weight_profile_t profile = k_profiles[rng() % std::size(k_profiles)];
    auto g = random_graph<vid_t, eid_t>(rng, n, directed, k, profile,
                                        1.0 + static_cast<double>(rng() % 30) / 10.0);
    const int objective = static_cast<int>(rng() % static_cast<uint64_t>(k));
    const vid_t source = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    options_t plain;
    plain.objective = objective;
    state_t<vid_t> state;
    detail::compute_views(g.views(), source, plain, {backend_t::sequential, 1, 0}, state);
    for (int step = 0; step < 8; ++step) {
      const change_log_t<vid_t> log = random_batch(rng, g, state, objective, profile);
      const state_t<vid_t> expected =
          detail::reference_dijkstra_view(g.views().out, source, objective);
      std::vector<config_t> cs = configs(objective);
      // 0.05 to 2: repairs that give up part-way (or before starting) and are undone.
      for (const double budget : {1e9, 0.0, 0.05, 0.5, 2.0}) {
        for (config_t c : {cs[0], cs[2]}) {
          c.options.repair_budget = budget;
          cs.push_back(c);
        }
      }
      state_t<vid_t> next;
      for (const config_t& c : cs) {
        state_t<vid_t> repaired = state;
        const stats_t stats = detail::update_views(g.views(), log, c.options, c.exec, repaired);
        if (!same_state(repaired, expected)) {
          std::fprintf(stderr, "  update mismatch: %s budget %g trial %d step %d\n", c.name,
                       c.options.repair_budget, trial, step);
        }
        CHECK(same_state(repaired, expected));
        if (c.options.repair_budget == 0.0) CHECK(stats.path == update_path_t::recompute);
        if (c.options.repair_budget == 1e9) CHECK(stats.path == update_path_t::incremental);
        CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
        incremental += stats.path == update_path_t::incremental ? 1 : 0;
        fallback += stats.path == update_path_t::recompute ? 1 : 0;
        // affected counts exactly the vertices whose distance or parent changed.
        int64_t changed = 0;
        for (size_t v = 0; v < expected.distances.size(); ++v) {
          const bool existed = v < state.distances.size();
          const int64_t old_d = existed ? state.distances[v] : k_infinite_distance;
          const vid_t old_p = existed ? state.parents[v] : vid_t{-1};
          changed += (old_d != expected.distances[v] || old_p != expected.parents[v]) ? 1 : 0;
        }
        CHECK_EQ(stats.affected, changed);
        next = repaired;
      }
      state = next;
    }
  }
  CHECK(incremental > 0);
  CHECK(fallback > 0);
}

DYNG_TEST("update equals compute over random batches, i32/i32") {
  updates_match_compute<int32_t, int32_t>(21);
}
DYNG_TEST("update equals compute over random batches, i32/i64") {
  updates_match_compute<int32_t, int64_t>(22);
}
DYNG_TEST("update equals compute over random batches, i64/i64") {
  updates_match_compute<int64_t, int64_t>(23);
}

/// A seeded random directed graph of 30 vertices, the tree from vertex 0 computed on it, and an
/// empty change log of the graph's size, for the tests that build a batch by hand.
struct computed_case_t {
  model_graph_t<int32_t, int32_t> g;
  state_t<int32_t> state;
  change_log_t<int32_t> log;
};

computed_case_t computed_case(uint64_t seed) {
  std::mt19937_64 rng(seed);
  computed_case_t c{random_graph<int32_t, int32_t>(rng, 30, true, 1, {1, 10}, 3.0), {}, {}};
  detail::compute_views(c.g.views(), 0, options_t{}, {}, c.state);
  c.log.num_vertices_before = c.log.num_vertices_after = 30;
  return c;
}

DYNG_TEST("an empty batch changes nothing") {
  auto [g, state, log] = computed_case(3);
  const state_t<int32_t> before = state;
  const stats_t stats = detail::update_views(g.views(), log, options_t{}, {}, state);
  CHECK(same_state(state, before));
  CHECK(stats.path == update_path_t::incremental);
  CHECK_EQ(stats.affected, 0);
}

DYNG_TEST("a batch whose changes alone exceed the budget is refused before the state is touched") {
  auto [g, state, log] = computed_case(4);
  const state_t<int32_t> before = state;
  // Deleting every tree edge: a tree test each, and each cuts a subtree.
  for (int32_t v = 1; v < 30; ++v) {
    if (state.parents[v] >= 0)
      log.changes.push_back({state.parents[v], v, edge_change_kind_t::deleted});
  }
  const int64_t deletions = static_cast<int64_t>(log.changes.size());
  CHECK(deletions > 2);
  const auto views = g.views();
  for (const int64_t budget : {int64_t{0}, deletions - 1}) {
    detail::incremental_repair_t<int32_t, int32_t> repair(views.out, views.in, views.sorted, 0,
                                                          state);
    stats_t stats;
    CHECK(!repair.run(log, budget, stats));
    CHECK(same_state(state, before));  // nothing written, so nothing to undo
    CHECK_EQ(repair.invalidated(), 0);
    repair.undo();
    CHECK(same_state(state, before));
  }
  // With the tree tests paid for, the repair starts: it cuts before it runs out.
  detail::incremental_repair_t<int32_t, int32_t> repair(views.out, views.in, views.sorted, 0,
                                                        state);
  stats_t stats;
  CHECK(!repair.run(log, deletions, stats));
  CHECK(repair.invalidated() > 0);
  repair.undo();
  CHECK(same_state(state, before));
}

DYNG_TEST("the default budget shrinks with the team the fallback would use") {
  CHECK(detail::default_repair_budget(1) == k_default_repair_budget);
  double previous = k_default_repair_budget;
  for (const int threads : {2, 4, 8, 16, 64}) {
    const double budget = detail::default_repair_budget(threads);
    CHECK(budget < previous);
    CHECK(std::abs(budget * detail::parallel_compute_speedup(threads) - k_default_repair_budget) <
          1e-12);
    previous = budget;
  }
}

template <class fn_t>
bool throws_with(fn_t&& fn, const std::string& fragment) {
  try {
    fn();
  } catch (const invalid_argument_error& e) {
    if (std::string(e.what()).find(fragment) != std::string::npos) return true;
    std::fprintf(stderr, "  message '%s' lacks '%s'\n", e.what(), fragment.c_str());
  }
  return false;
}

DYNG_TEST("argument errors name the offending value") {
  model_graph_t<int32_t, int32_t> g(4, 2, true, 1);
  g.insert(0, 1, {5, 1}, nullptr);
  g.insert(1, 2, {0, 1}, nullptr);
  g.insert(2, 3, {1, -3}, nullptr);
  g.build(false, true);
  state_t<int32_t> state;
  const execution_t seq{};
  options_t o;
  CHECK(throws_with([&] { detail::compute_views(g.views(), 0, o, seq, state); }, "(1, 2)"));
  CHECK(throws_with([&] { detail::compute_views(g.views(), 0, o, seq, state); }, "weight 0"));
  options_t parallel;  // the OpenMP kernel scans inside its region and must report the same edge
  parallel.parallel_min_edges = 0;
  CHECK(throws_with(
      [&] { detail::compute_views(g.views(), 0, parallel, {backend_t::openmp, 2, 0}, state); },
      "edge (1, 2) has weight 0"));
  o.objective = 1;
  CHECK(throws_with([&] { detail::compute_views(g.views(), 0, o, seq, state); }, "weight -3"));
  o.objective = 2;
  CHECK(throws_with([&] { detail::compute_views(g.views(), 0, o, seq, state); }, "objective 2"));
  o.objective = -1;
  CHECK(throws_with([&] { detail::compute_views(g.views(), 0, o, seq, state); }, "objective -1"));
  o = options_t{};
  o.delta = -4;
  CHECK(throws_with([&] { detail::compute_views(g.views(), 0, o, seq, state); }, "delta -4"));
  o = options_t{};
  CHECK(throws_with([&] { detail::compute_views(g.views(), 4, o, seq, state); }, "source 4"));
  CHECK(throws_with([&] { detail::compute_views(g.views(), -1, o, seq, state); }, "source -1"));
}

DYNG_TEST("update rejects a state of the wrong size and an inserted weight below 1") {
  model_graph_t<int32_t, int32_t> g(3, 1, true, 1);
  g.insert(0, 1, {4}, nullptr);
  g.build(false, false);
  state_t<int32_t> state;
  detail::compute_views(g.views(), 0, options_t{}, {}, state);
  change_log_t<int32_t> log;
  log.num_vertices_before = 2;
  log.num_vertices_after = 3;
  state_t<int32_t> copy = state;
  CHECK(throws_with([&] { detail::update_views(g.views(), log, options_t{}, {}, copy); },
                    "result covers 3 vertices"));

  log.num_vertices_before = 3;
  g.insert(1, 2, {0}, &log);
  g.build(false, false);
  copy = state;
  CHECK(
      throws_with([&] { detail::update_views(g.views(), log, options_t{}, {}, copy); }, "(1, 2)"));
  CHECK(same_state(copy, state));              // a rejected update leaves the result as it was
  for (const bool parallel : {false, true}) {  // the same through the fallback's weight scan
    options_t recompute;
    recompute.repair_budget = 0.0;
    recompute.parallel_min_edges = 0;
    const execution_t exec{parallel ? backend_t::openmp : backend_t::sequential, 2, 0};
    copy = state;
    CHECK(throws_with([&] { detail::update_views(g.views(), log, recompute, exec, copy); },
                      "edge (1, 2) has weight 0"));
    CHECK(same_state(copy, state));
  }
}

}  // namespace

DYNG_TEST_MAIN()
