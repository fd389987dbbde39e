// components on the host backends against the reachability oracle (components_oracle.hpp):
// compute, then update after adversarial batches (bridges, a whole path deleted, many components
// merged at once, self-loops, parallel edges, vertex growth, directed and undirected, weak and
// strong) on the sequential kernels and OpenMP teams of 1 to 4 threads, with every budget path;
// `affected` against a count from the definition; deep graphs without stack overflow; bad
// arguments refused without changing the result.
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "components/components_batches.hpp"
#include "components/components_oracle.hpp"
#include "dyng/components/components.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/graph.hpp"

namespace {

using namespace dyng;
namespace cc = dyng::components;

struct variant_t {
  backend_t backend;
  int threads;
  double budget;
};

const variant_t k_variants[] = {{backend_t::sequential, 1, -1.0}, {backend_t::sequential, 1, 0.0},
                                {backend_t::sequential, 1, 1e9},  {backend_t::openmp, 1, -1.0},
                                {backend_t::openmp, 2, 0.0},      {backend_t::openmp, 3, 1e9},
                                {backend_t::openmp, 4, -1.0},     {backend_t::openmp, 4, 0.0}};

cc::options_t options_for(bool strong, double budget) {
  cc::options_t options;
  options.kind = strong ? cc::kind_t::strong : cc::kind_t::weak;
  options.repair_budget = budget;
  options.parallel_min_edges = 0;
  return options;
}

execution_t exec_for(const variant_t& v) {
  execution_t exec;
  exec.backend = v.backend;
  exec.num_threads = v.threads;
  return exec;
}

template <class vid_t, class eid_t>
void check_state(const graph_t<vid_t, eid_t>& g, bool strong, const cc::state_t<vid_t>& state,
                 const std::string& context) {
  const std::vector<int64_t> labels = dyng_test::oracle_labels(g, strong);
  int64_t count = 0;
  const std::vector<int64_t> sizes = dyng_test::oracle_sizes(labels, count);
  CHECK(state.labels == labels);
  CHECK(state.sizes == sizes);
  CHECK_EQ(state.count, count);
  if (state.labels != labels) std::fprintf(stderr, "  in %s\n", context.c_str());
}

/// Every variant of update() from `before`; returns the new state.
template <class vid_t, class eid_t>
cc::state_t<vid_t> check_updates(const graph_t<vid_t, eid_t>& g, const change_log_t<vid_t>& log,
                                 bool strong, const cc::state_t<vid_t>& before, int paths[2]) {
  cc::state_t<vid_t> fresh;
  cc::compute(g, options_for(strong, -1.0), {}, fresh);
  int64_t affected = 0;
  for (size_t v = 0; v < fresh.labels.size(); ++v) {
    const bool old = v < before.labels.size();
    affected += !old || before.labels[v] != fresh.labels[v] || before.sizes[v] != fresh.sizes[v];
  }
  cc::state_t<vid_t> result;
  for (const variant_t& v : k_variants) {
    cc::state_t<vid_t> state = before;
    const cc::stats_t stats = cc::update(g, log, options_for(strong, v.budget), exec_for(v), state);
    check_state(g, strong, state, strong ? "strong update" : "weak update");
    CHECK_EQ(stats.affected, affected);
    CHECK_EQ(stats.fallback_used, stats.path == update_path_t::recompute);
    if (v.budget == 0.0) CHECK(stats.path == update_path_t::recompute);
    if (v.budget >= 1e9) CHECK(stats.path == update_path_t::incremental);
    ++paths[stats.path == update_path_t::incremental ? 0 : 1];
    result = state;
  }
  return result;
}

using dyng_test::batch_t;
using dyng_test::random_batch;

template <class vid_t, class eid_t>
void random_rounds(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < trials; ++trial) {
    auto g = dyng_test::sparse_graph<vid_t, eid_t>(rng);
    const bool strong = g.properties().directed && rng() % 2 == 0;
    cc::state_t<vid_t> state;
    for (const variant_t& v : k_variants) {
      const cc::stats_t stats = cc::compute(g, options_for(strong, -1.0), exec_for(v), state);
      check_state(g, strong, state, "compute");
      CHECK(stats.path == update_path_t::compute);
    }
    for (int round = 0; round < 6; ++round) {
      const auto batch = random_batch(rng, g);
      change_log_t<vid_t> log;
      g.apply(batch.view(), &log);
      state = check_updates(g, log, strong, state, paths);
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

DYNG_TEST("update equals the oracle on random batches, i32/i32") {
  random_rounds<int32_t, int32_t>(21, 60);
}
DYNG_TEST("update equals the oracle on random batches, i32/i64") {
  random_rounds<int32_t, int64_t>(22, 40);
}
DYNG_TEST("update equals the oracle on random batches, i64/i64") {
  random_rounds<int64_t, int64_t>(23, 40);
}

DYNG_TEST("strong: many insertions at once around one large component, in every order") {
  // A cycle through a third of the vertices and sparse random edges; each batch inserts many
  // edges (some parallel to old ones, some closing cycles only together) and deletes a few.
  std::mt19937_64 rng(24);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < 30; ++trial) {
    const int32_t n = 30 + static_cast<int32_t>(rng() % 30);
    std::vector<int32_t> src, dst;
    for (int32_t v = 0; v < n / 3; ++v) src.push_back(v), dst.push_back((v + 1) % (n / 3));
    for (int32_t e = 0; e < n; ++e) {
      src.push_back(static_cast<int32_t>(rng() % n)),
          dst.push_back(static_cast<int32_t>(rng() % n));
    }
    graph_properties_t props;
    props.num_weights = 0;
    props.allow_parallel_edges = rng() % 2 == 0;
    auto g = graph_t<int32_t, int32_t>::from_edges(n, src, dst, {}, props);
    cc::state_t<int32_t> state;
    cc::compute(g, options_for(true, -1.0), {}, state);
    for (int round = 0; round < 3; ++round) {
      batch_t<int32_t> b = random_batch(rng, g);
      for (int i = 10 + static_cast<int>(rng() % 20); i > 0; --i) {
        const auto u = static_cast<int32_t>(rng() % n);
        b.insert(u, rng() % 4 == 0 ? src[rng() % src.size()] : static_cast<int32_t>(rng() % n));
      }
      change_log_t<int32_t> log;
      g.apply(b.view(), &log);
      state = check_updates(g, log, true, state, paths);
    }
  }
  CHECK(paths[0] > 0);
}

DYNG_TEST("strong: many deletions in one component share the hub's searches, and a new hub") {
  // A cycle with random chords is one component; each batch deletes many edges, among them
  // every edge into or out of the hub (its smallest id) in some rounds, so the hub is cut off
  // and the questions move to a new one.
  std::mt19937_64 rng(25);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < 30; ++trial) {
    const int32_t n = 20 + static_cast<int32_t>(rng() % 40);
    std::vector<int32_t> src, dst;
    for (int32_t v = 0; v < n; ++v) src.push_back(v), dst.push_back((v + 1) % n);
    for (int32_t e = 0; e < 2 * n; ++e) {
      src.push_back(static_cast<int32_t>(rng() % n)),
          dst.push_back(static_cast<int32_t>(rng() % n));
    }
    graph_properties_t props;
    props.num_weights = 0;
    auto g = graph_t<int32_t, int32_t>::from_edges(n, src, dst, {}, props);
    cc::state_t<int32_t> state;
    cc::compute(g, options_for(true, -1.0), {}, state);
    for (int round = 0; round < 3; ++round) {
      batch_t<int32_t> b;
      const auto out = g.out_view();
      const auto hub = static_cast<int32_t>(state.labels[rng() % n]);
      const bool cut_hub = rng() % 2 == 0;
      for (int32_t u = 0; u < n; ++u) {
        for (auto slot = out.begin(u); slot < out.end(u); ++slot) {
          const int32_t v = out.neighbour(slot);
          if ((cut_hub && (u == hub || v == hub) && rng() % 2 == 0) || rng() % 5 == 0) {
            b.delete_src.push_back(u), b.delete_dst.push_back(v);
          }
        }
      }
      change_log_t<int32_t> log;
      g.apply(b.view(), &log);
      state = check_updates(g, log, true, state, paths);
    }
  }
  CHECK(paths[0] > 0);
}

graph_t<int32_t, int32_t> path_graph(int32_t n, bool directed, bool cycle) {
  std::vector<int32_t> src, dst;
  for (int32_t v = 0; v + 1 < n; ++v) src.push_back(v), dst.push_back(v + 1);
  if (cycle) src.push_back(n - 1), dst.push_back(0);
  graph_properties_t props;
  props.num_weights = 0;
  props.directed = directed;
  return graph_t<int32_t, int32_t>::from_edges(n, src, dst, {}, props);
}

DYNG_TEST("a cycle of 200000 vertices: Tarjan needs no call stack, a cut splits it canonically") {
  const int32_t n = 200000;
  auto g = path_graph(n, true, true);
  cc::state_t<int32_t> state;
  cc::compute(g, options_for(true, -1.0), {}, state);
  CHECK_EQ(state.count, 1);
  CHECK_EQ(state.sizes[0], n);
  const std::vector<int32_t> ds{n - 1}, dd{0};
  change_log_t<int32_t> log;
  g.apply({{}, {}, {}, 0, ds, dd}, &log);
  const cc::stats_t stats = cc::update(g, log, options_for(true, 1e9), {}, state);
  CHECK_EQ(state.count, n);
  CHECK_EQ(state.labels[n - 1], n - 1);
  CHECK_EQ(stats.split, n - 1);
  CHECK(stats.path == update_path_t::incremental);
}

DYNG_TEST("weak: a bridge cut near one end searches the small side only") {
  const int32_t n = 100000;
  auto g = path_graph(n, false, false);
  cc::state_t<int32_t> state;
  cc::compute(g, options_for(false, -1.0), {}, state);
  const std::vector<int32_t> ds{n - 3}, dd{n - 2};
  change_log_t<int32_t> log;
  g.apply({{}, {}, {}, 0, ds, dd}, &log);
  const cc::stats_t stats = cc::update(g, log, {}, {}, state);
  CHECK(stats.path == update_path_t::incremental);
  CHECK_EQ(stats.split, 1);
  CHECK(stats.search_size < 10);
  CHECK_EQ(state.labels[n - 1], n - 2);
  CHECK_EQ(state.sizes[0], n - 2);
  CHECK_EQ(state.count, 2);
}

DYNG_TEST("strong: an insertion that closes no cycle searches the smaller side only") {
  const int32_t n = 100000;
  auto g = path_graph(n, true, false);
  cc::state_t<int32_t> state;
  cc::compute(g, options_for(true, -1.0), {}, state);
  const std::vector<int32_t> is{1}, id{3};  // 3 reaches almost everything, 1 is reached by 0
  change_log_t<int32_t> log;
  g.apply({is, id, {}, 0, {}, {}}, &log);
  const cc::stats_t stats = cc::update(g, log, options_for(true, -1.0), {}, state);
  CHECK(stats.path == update_path_t::incremental);
  CHECK(stats.search_size < 10);
  CHECK_EQ(stats.merged, 0);
  CHECK_EQ(state.count, n);
}

/// A cycle of 2000 vertices from `cycle` (the largest component), a path of 10 from `in` into
/// it, a path of 10 from `out` out of it, and vertices 3000 to 3009 on their own.
graph_t<int32_t, int32_t> cycle_with_tails(int32_t cycle, int32_t in, int32_t out, bool parallel) {
  std::vector<int32_t> src, dst;
  for (int32_t k = 0; k < 2000; ++k)
    src.push_back(cycle + k), dst.push_back(cycle + (k + 1) % 2000);
  for (int32_t k = 0; k < 10; ++k)
    src.push_back(in + k), dst.push_back(k == 9 ? cycle : in + k + 1);
  src.push_back(cycle + 500), dst.push_back(out);
  for (int32_t k = 0; k < 9; ++k) src.push_back(out + k), dst.push_back(out + k + 1);
  graph_properties_t props;
  props.num_weights = 0;
  props.allow_parallel_edges = parallel;
  return graph_t<int32_t, int32_t>::from_edges(3010, src, dst, {}, props);
}

DYNG_TEST("strong: insertions through the largest component merge without walking it") {
  for (const bool parallel : {false, true}) {
    auto g = cycle_with_tails(0, 2000, 2020, parallel);
    cc::state_t<int32_t> state;
    cc::compute(g, options_for(true, -1.0), {}, state);
    // (2025, 2005) closes 2005 -> 0 -> ... -> 500 -> 2025 -> 2005. 3001 -> 3000 and
    // 3002 -> 3001 close a cycle only with 3000 -> 3002, which sorts first and is searched while
    // they are still left out; 3003 <-> 3004 twice; 3006 -> 3005 repeats an old edge when
    // parallel edges are allowed, and 3005 -> 3006, searched first, must not use the old copy.
    std::vector<int32_t> is{2025, 3000, 3001, 3002, 3003, 3004, 3003, 3004, 1000, 3006},
        id{2005, 3002, 3000, 3001, 3004, 3003, 3004, 3003, 3005, 3005};
    if (parallel) {
      change_log_t<int32_t> first;
      const std::vector<int32_t> os{3006}, od{3005};
      g.apply({os, od, {}, 0, {}, {}}, &first);
      cc::update(g, first, options_for(true, -1.0), {}, state);
      is.push_back(3005), id.push_back(3006);
    }
    change_log_t<int32_t> log;
    g.apply({is, id, {}, 0, {}, {}}, &log);
    const cc::stats_t stats = cc::update(g, log, options_for(true, -1.0), {}, state);
    check_state(g, true, state, "insertions through the largest component");
    CHECK(stats.path == update_path_t::incremental);
    CHECK_EQ(state.labels[2025], 0);
    CHECK_EQ(state.labels[3002], 3000);
    CHECK(stats.search_size < 100);  // the cycle of 2000 is not searched
  }
  // The smallest id of the merged component lies outside the largest one, which is relabelled.
  auto g = cycle_with_tails(1000, 0, 20, false);
  cc::state_t<int32_t> state;
  cc::compute(g, options_for(true, -1.0), {}, state);
  const std::vector<int32_t> is{25}, id{5};
  change_log_t<int32_t> log;
  g.apply({is, id, {}, 0, {}, {}}, &log);
  cc::update(g, log, options_for(true, 1e9), {}, state);
  check_state(g, true, state, "largest component relabelled");
  CHECK_EQ(state.labels[1999], 5);
}

DYNG_TEST("weak: deleting a whole path, then merging every piece into one hub") {
  const int32_t n = 50;
  auto g = path_graph(n, true, false);
  cc::state_t<int32_t> state;
  cc::compute(g, options_for(false, -1.0), {}, state);
  std::vector<int32_t> ds, dd, is, id;
  for (int32_t v = 0; v + 1 < n; ++v) ds.push_back(v), dd.push_back(v + 1);
  change_log_t<int32_t> log;
  g.apply({{}, {}, {}, 0, ds, dd}, &log);
  cc::stats_t stats = cc::update(g, log, options_for(false, 1e9), {}, state);
  check_state(g, false, state, "whole path deleted");
  CHECK_EQ(stats.split, n - 1);
  for (int32_t v = 1; v < n + 2; ++v) is.push_back(v), id.push_back(n / 2);  // grows by 2
  log = {};
  g.apply({is, id, {}, 0, {}, {}}, &log);
  stats = cc::update(g, log, options_for(false, 1e9), {}, state);
  check_state(g, false, state, "hub");
  CHECK_EQ(state.count, 2);
  CHECK_EQ(state.labels[n + 1], 1);
}

DYNG_TEST("bad arguments are refused and change nothing") {
  auto undirected = path_graph(3, false, false);
  cc::state_t<int32_t> state;
  CHECK_THROWS_AS(cc::compute(undirected, options_for(true, -1.0), {}, state),
                  invalid_argument_error);
  graph_properties_t props;
  props.num_weights = 0;
  props.store_transposed = false;
  const std::vector<int32_t> src{0, 1}, dst{1, 2};
  auto no_in = graph_t<int32_t, int32_t>::from_edges(3, src, dst, {}, props);
  CHECK_THROWS_AS(cc::compute(no_in, {}, {}, state), invalid_argument_error);
  auto g = path_graph(3, true, false);
  cc::compute(g, {}, {}, state);
  const cc::state_t<int32_t> before = state;
  change_log_t<int32_t> log;
  g.apply({{}, {}, {}, 0, src, dst}, &log);
  change_log_t<int32_t> wrong = log;
  wrong.num_vertices_before = 2;
  CHECK_THROWS_AS(cc::update(g, wrong, {}, {}, state), invalid_argument_error);
  CHECK(state.labels == before.labels);
  CHECK_THROWS_AS(cc::update(g, log, options_for(true, -1.0), {}, state), invalid_argument_error);
  CHECK(state.labels == before.labels && state.kind == cc::kind_t::weak);
  execution_t cuda;
  cuda.backend = backend_t::cuda;
  CHECK_THROWS_AS(cc::update(g, log, {}, cuda, state), not_supported_error);
  CHECK(state.labels == before.labels && state.sizes == before.sizes);
}

}  // namespace

DYNG_TEST_MAIN()
