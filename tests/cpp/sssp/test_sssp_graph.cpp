// The public sssp API on real graph_t objects: argument and shape errors, validate_batch, and
// compute/update/canonicalize_parents through Graph::apply's change log, against
// reference_dijkstra on random graphs (both edge orders, parallel edges, undirected, growth).
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/sssp/sssp.hpp"
#include "random_graph_case.hpp"

namespace {

using namespace dyng;
using namespace dyng::sssp;

template <class vid_t, class eid_t>
graph_t<vid_t, eid_t> make_graph(vid_t n, const std::vector<vid_t>& src,
                                 const std::vector<vid_t>& dst, const std::vector<int32_t>& w,
                                 const graph_properties_t& props) {
  return graph_t<vid_t, eid_t>::from_edges(n, std::span<const vid_t>(src),
                                           std::span<const vid_t>(dst), std::span<const int32_t>(w),
                                           props);
}

template <class fn_t, class error_t>
bool throws_containing(fn_t&& fn, const std::string& fragment, const error_t*) {
  try {
    fn();
  } catch (const error_t& e) {
    if (std::string(e.what()).find(fragment) != std::string::npos) return true;
    std::fprintf(stderr, "  message '%s' lacks '%s'\n", e.what(), fragment.c_str());
    return false;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "  wrong exception: %s\n", e.what());
  }
  return false;
}
constexpr const invalid_argument_error* k_invalid = nullptr;
constexpr const not_supported_error* k_unsupported = nullptr;

DYNG_TEST("shape errors: unweighted, no in-edges, bad source, objective and weights") {
  graph_properties_t props;
  props.num_weights = 0;
  const auto unweighted = make_graph<int32_t, int32_t>(3, {0, 1}, {1, 2}, {}, props);
  state_t<int32_t> state;
  CHECK(throws_containing([&] { compute(unweighted, 0, options_t{}, execution_t{}, state); },
                          "unweighted", k_unsupported));
  CHECK(throws_containing([&] { validate_graph(unweighted, 0, options_t{}); }, "unweighted",
                          k_unsupported));

  props.num_weights = 2;
  props.store_transposed = false;
  const auto no_in = make_graph<int32_t, int32_t>(3, {0, 1}, {1, 2}, {1, 1, 1, 1}, props);
  // An argument error, as in 0.2 (issue 11: it was not_supported_error).
  CHECK(throws_containing([&] { compute(no_in, 0, options_t{}, execution_t{}, state); },
                          "store_transposed=True", k_invalid));

  props.store_transposed = true;
  const auto g = make_graph<int32_t, int64_t>(3, {0, 1}, {1, 2}, {3, 1, 0, 1}, props);
  options_t o;
  CHECK(throws_containing([&] { validate_graph(g, 0, o); }, "edge (1, 2) has weight 0", k_invalid));
  o.objective = 1;
  validate_graph(g, 0, o);  // column 1 is fine
  CHECK(throws_containing([&] { validate_graph(g, 3, o); }, "source 3", k_invalid));
  o.objective = 2;
  CHECK(throws_containing([&] { validate_graph(g, 0, o); }, "objective 2", k_invalid));
  o.objective = 1;
  o.delta = -1;
  CHECK(throws_containing([&] { compute(g, 0, o, execution_t{}, state); }, "delta -1", k_invalid));
  CHECK(throws_containing([&] { compute(g, 0, options_t{}, execution_t{}, state); }, "(1, 2)",
                          k_invalid));
  CHECK(throws_containing([&] { reference_dijkstra(g, 0, 0); }, "(1, 2)", k_invalid));
}

DYNG_TEST("validate_batch names the insertion with a weight below 1") {
  const std::vector<int64_t> src = {0, 1, 2}, dst = {1, 2, 0};
  const std::vector<int32_t> w = {5, 1, 7, 2, 9, 0};  // K = 2; insertion 2 has 0 in column 1
  edge_batch_t<int64_t> batch{src, dst, w, 2, {}, {}};
  options_t o;
  validate_batch(batch, o);
  o.objective = 1;
  CHECK(throws_containing([&] { validate_batch(batch, o); }, "insertion 2 (2, 0) has weight 0",
                          k_invalid));
  o.objective = 3;
  CHECK(throws_containing([&] { validate_batch(batch, o); }, "objective 3", k_invalid));
}

template <class vid_t>
bool same(const state_t<vid_t>& a, const state_t<vid_t>& b) {
  return a.source == b.source && a.distances == b.distances && a.parents == b.parents;
}

template <class vid_t, class eid_t>
void random_apply_rounds(uint64_t seed) {
  std::mt19937_64 rng(seed);
  int paths[3] = {0, 0, 0};
  for (int trial = 0; trial < 40; ++trial) {
    auto rc = dyng_test::random_graph_case<vid_t>(rng, 40);
    const graph_properties_t& props = rc.props;
    const int k = props.num_weights;
    auto& weight = rc.weight;
    vid_t n = rc.n;
    auto g = make_graph<vid_t, eid_t>(n, rc.src, rc.dst, rc.weights, props);
    options_t options;
    options.objective = static_cast<int>(rng() % static_cast<uint64_t>(k));
    const vid_t source = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    state_t<vid_t> state;
    compute(g, source, options, execution_t{}, state);
    CHECK(same(state, reference_dijkstra(g, source, options.objective)));

    for (int round = 0; round < 6; ++round) {
      std::vector<vid_t> is, id, ds, dd;
      std::vector<int32_t> iw;
      const int inserts = static_cast<int>(rng() % 6), deletes = static_cast<int>(rng() % 8);
      for (int i = 0; i < inserts; ++i) {
        // Occasionally a brand-new vertex id (vertex growth).
        const vid_t limit = static_cast<vid_t>(n + (rng() % 4 == 0 ? 2 : 0));
        is.push_back(static_cast<vid_t>(rng() % static_cast<uint64_t>(limit)));
        id.push_back(static_cast<vid_t>(rng() % static_cast<uint64_t>(limit)));
        for (int c = 0; c < k; ++c) iw.push_back(weight(rng));
      }
      // Deletions favour tree edges, which is where the repair does its work.
      for (int i = 0; i < deletes; ++i) {
        const vid_t v = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
        const vid_t p = state.parents[static_cast<size_t>(v)];
        ds.push_back(p >= 0 && rng() % 4 ? p
                                         : static_cast<vid_t>(rng() % static_cast<uint64_t>(n)));
        dd.push_back(v);
      }
      edge_batch_t<vid_t> batch{is, id, iw, k, ds, dd};
      validate_batch(batch, options);
      change_log_t<vid_t> log;
      g.apply(batch, &log);
      g.check_integrity();
      n = g.num_vertices();
      const state_t<vid_t> expected = reference_dijkstra(g, source, options.objective);

      state_t<vid_t> next;
      for (const double budget : {-1.0, 0.0, 1e9}) {
        for (const bool parallel : {false, true}) {
          options_t o = options;
          o.repair_budget = budget;
          o.parallel_min_edges = parallel ? 0 : -1;
          const execution_t exec{parallel ? backend_t::openmp : backend_t::sequential, 2, 0};
          state_t<vid_t> repaired = state;
          const stats_t stats = update(g, log, o, exec, repaired);
          CHECK(same(repaired, expected));
          ++paths[static_cast<int>(stats.path)];
          if (budget == 0.0) CHECK(stats.path == update_path_t::recompute);
          if (budget == 1e9) CHECK(stats.path == update_path_t::incremental);
          next = repaired;
        }
      }
      state = next;

      // canonicalize_parents recovers the parents from the distances alone.
      state_t<vid_t> scrambled = expected;
      for (vid_t& p : scrambled.parents) p = 0;
      canonicalize_parents(g, options, execution_t{backend_t::openmp, 2, 0}, scrambled);
      CHECK(scrambled.parents == expected.parents);
    }
  }
  CHECK(paths[static_cast<int>(update_path_t::incremental)] > 0);
  CHECK(paths[static_cast<int>(update_path_t::recompute)] > 0);
}

DYNG_TEST("update after Graph::apply equals the reference, i32/i32") {
  random_apply_rounds<int32_t, int32_t>(31);
}
DYNG_TEST("update after Graph::apply equals the reference, i32/i64") {
  random_apply_rounds<int32_t, int64_t>(32);
}
DYNG_TEST("update after Graph::apply equals the reference, i64/i64") {
  random_apply_rounds<int64_t, int64_t>(33);
}

DYNG_TEST("a small graph on the OpenMP backend takes the sequential kernel, same answer") {
  const auto g = make_graph<int32_t, int32_t>(4, {0, 0, 1, 2}, {1, 2, 3, 3}, {2, 1, 1, 2},
                                              graph_properties_t{});
  state_t<int32_t> seq, omp;
  const stats_t a = compute(g, 0, options_t{}, execution_t{}, seq);
  const stats_t b = compute(g, 0, options_t{}, execution_t{backend_t::openmp, 2, 0}, omp);
  CHECK(same(seq, omp));
  CHECK_EQ(seq.distances, (std::vector<int64_t>{0, 2, 1, 3}));
  CHECK_EQ(seq.parents, (std::vector<int32_t>{-1, 0, 0, 1}));  // 1 and 2 tie for vertex 3
  CHECK_EQ(a.engine_used, std::string("operators"));
  CHECK_EQ(b.engine_used, std::string("fused"));
}

}  // namespace

// The sequential kernel keeps 4-byte distances while max weight x n stays below 2^31: paths of
// the heaviest Dial weight just inside and just past that bound, with shortcuts that candidates
// near the limit must not overflow past, equal the reference on either side (a kernel that
// always took 4-byte distances fails it).
DYNG_TEST("distances near 2^31 on both sides of the 4-byte search's bound") {
  const int32_t heavy = 65535;  // k_dial_max_weight: the largest weight Dial's ring takes
  for (const int32_t n : {32767, 40000}) {
    std::vector<int32_t> src, dst, w;
    for (int32_t v = 0; v + 1 < n; ++v) {
      src.push_back(v), dst.push_back(v + 1), w.push_back(heavy);
      if (v % 1000 == 0) src.push_back(v), dst.push_back(n - 1), w.push_back(heavy);
    }
    src.push_back(n - 2), dst.push_back(0), w.push_back(heavy);  // back to the source
    graph_properties_t props;
    auto g = make_graph<int32_t, int32_t>(n, src, dst, w, props);
    state_t<int32_t> state;
    compute(g, 0, {}, {}, state);
    const auto expected = reference_dijkstra(g, 0, 0);
    CHECK(state.distances == expected.distances);
    CHECK(state.parents == expected.parents);
    CHECK_EQ(state.distances[n - 2], int64_t{heavy} * (n - 2));
  }
}

DYNG_TEST_MAIN()
