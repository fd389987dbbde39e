// The sequential compute's pieces against the passes they replace: the packed rows
// (search_rows.hpp) hold the graph's rows and give scan_weights()'s range; the parents recorded
// by Dial's search equal the canonical in-row pass, with ties, parallel edges of different
// weights, self-loops and unreachable vertices, on 2-, 4- and 8-byte distances, and so does a
// search that moves from 2- to 4-byte distances part-way; the changed count
// that update()'s fallback reads equals a direct count; the one-pass check of all weight columns
// throws what the per-column scans throw; all objectives packed in one copy read as each packed
// alone, to the sequential and the parallel kernel.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/sssp/detail/host_entry.hpp"
#include "dyng/sssp/detail/reference_dijkstra.hpp"
#include "sssp/model_graph.hpp"

namespace {

using namespace dyng;
using namespace dyng::sssp;
using sssp_test::model_graph_t;

/// Weights in [1, high] (small high: ties everywhere); parallel copies with other weights, loops,
/// and a tail of vertices the source cannot reach.
template <class vid_t, class eid_t>
model_graph_t<vid_t, eid_t> tie_graph(std::mt19937_64& rng, vid_t n, int k, int32_t high) {
  model_graph_t<vid_t, eid_t> g(n, k, true, rng());
  const vid_t reachable = std::max<vid_t>(1, n - n / 5);
  auto weights = [&] {
    std::vector<int32_t> w(static_cast<size_t>(k));
    for (int32_t& x : w) x = 1 + static_cast<int32_t>(rng() % static_cast<uint64_t>(high));
    return w;
  };
  for (int64_t e = 0; e < 4 * static_cast<int64_t>(n); ++e) {
    vid_t u = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    vid_t v = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    if (v >= reachable && u < reachable) std::swap(u, v);
    g.insert(u, v, weights(), nullptr);
    if (rng() % 4 == 0) g.insert(u, v, weights(), nullptr);  // a parallel copy, other weights
    if (rng() % 16 == 0) g.insert(u, u, weights(), nullptr);
  }
  g.build(rng() % 2 == 0, rng() % 2 == 0);
  return g;
}

template <class vid_t, class eid_t>
void packed_rows_match_the_graph(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 40; ++trial) {
    const int k = 1 + static_cast<int>(rng() % 3);
    auto g = tie_graph<vid_t, eid_t>(rng, static_cast<vid_t>(1 + rng() % 80), k, 5);
    const auto out = g.views().out;
    for (int objective = 0; objective < k; ++objective) {
      const detail::weight_column_t w = detail::column_of(out, objective);
      detail::packed_rows_t<vid_t, eid_t> rows;
      detail::weight_range_t<vid_t, eid_t> packed, scanned;
      detail::pack_rows(out, w, rows, packed);
      detail::scan_weights(out, w, vid_t{0}, out.num_vertices, scanned);
      CHECK_EQ(packed.min_weight, scanned.min_weight);
      CHECK_EQ(packed.max_weight, scanned.max_weight);
      CHECK_EQ(packed.min_src, scanned.min_src);
      CHECK_EQ(packed.min_slot, scanned.min_slot);
      for (vid_t u = 0; u < out.num_vertices; ++u) {
        CHECK_EQ(static_cast<int64_t>(rows.end(u) - rows.begin(u)),
                 static_cast<int64_t>(out.degree(u)));
        for (eid_t j = 0; j < out.degree(u); ++j) {
          CHECK_EQ(rows.neighbour(rows.begin(u) + j), out.neighbour(out.begin(u) + j));
          CHECK_EQ(rows.weight(rows.begin(u) + j), w(out.begin(u) + j));
        }
      }
    }
  }
}

DYNG_TEST("packed rows hold the graph's rows and its weight range, i32/i32") {
  packed_rows_match_the_graph<int32_t, int32_t>(1);
}
DYNG_TEST("packed rows hold the graph's rows and its weight range, i64/i64") {
  packed_rows_match_the_graph<int64_t, int64_t>(2);
}

/// All objectives packed in one word per arc (pack_objectives) against each objective packed on
/// its own: the same rows and weights, the same maxima, on 1 and 2 threads; unusable as soon as
/// one weight does not fit its field; and a search over it gives the state that a search over
/// the objective's own copy gives.
template <class vid_t, class eid_t>
void shared_objectives_match_each_objective(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 40; ++trial) {
    const int k = 2 + static_cast<int>(rng() % 3);
    const int bits = 32 / k;
    // Every 4th graph has weights up to 2^bits (one over the field's largest value, at times).
    const int32_t high = trial % 4 == 3 ? int32_t{1} << bits : 1 + static_cast<int32_t>(rng() % 7);
    auto g = tie_graph<vid_t, eid_t>(rng, static_cast<vid_t>(1 + rng() % 90), k, high);
    const auto views = g.views();
    const auto& out = views.out;
    for (const int threads : {1, 2}) {
      detail::packed_objectives_t<vid_t, eid_t> shared;
      detail::pack_objectives(out, k, threads, shared);
      bool fits = true;
      for (vid_t u = 0; u < out.num_vertices; ++u) {
        for (eid_t j = out.begin(u); j < out.end(u); ++j) {
          for (int i = 0; i < k; ++i) fits = fits && out.weight(j, i) < (int64_t{1} << bits);
        }
      }
      CHECK_EQ(shared.usable, fits);
      if (!shared.usable) continue;
      for (int i = 0; i < k; ++i) {
        const detail::weight_column_t w = detail::column_of(out, i);
        detail::packed_rows_t<vid_t, eid_t> own;
        detail::weight_range_t<vid_t, eid_t> range;
        detail::pack_rows(out, w, own, range);
        CHECK_EQ(shared.max_weight[static_cast<size_t>(i)], range.max_weight);
        const auto rows = detail::rows_of_objective(shared, i);
        for (vid_t u = 0; u < out.num_vertices; ++u) {
          CHECK_EQ(static_cast<int64_t>(rows.begin(u)), static_cast<int64_t>(own.begin(u)));
          CHECK_EQ(static_cast<int64_t>(rows.end(u)), static_cast<int64_t>(own.end(u)));
          for (eid_t j = own.begin(u); j < own.end(u); ++j) {
            CHECK_EQ(rows.neighbour(j), own.neighbour(j));
            CHECK_EQ(rows.weight(j), own.weight(j));
          }
        }
        const vid_t source = static_cast<vid_t>(rng() % static_cast<uint64_t>(out.num_vertices));
        state_t<vid_t> alone, together;
        detail::search_counters_t c1, c2;
        detail::run_sequential(views, source, i, alone, c1, "test", nullptr, {&own, nullptr});
        detail::run_sequential(views, source, i, together, c2, "test", nullptr, {nullptr, &shared});
        CHECK(alone.distances == together.distances);
        CHECK(alone.parents == together.parents);
        // The parallel kernel reads the shared pack too (mosp's tree with a team of its own).
        options_t parallel;
        parallel.objective = i;
        parallel.parallel_min_edges = 0;
        state_t<vid_t> team;
        detail::run_compute(views, source, parallel, execution_t{backend_t::openmp, 2, 0}, team,
                            "test", nullptr, nullptr, {nullptr, &shared});
        CHECK(alone.distances == team.distances);
        CHECK(alone.parents == team.parents);
      }
    }
  }
}

DYNG_TEST("all objectives packed together read as each packed alone, i32/i32") {
  shared_objectives_match_each_objective<int32_t, int32_t>(11);
}
DYNG_TEST("all objectives packed together read as each packed alone, i64/i64") {
  shared_objectives_match_each_objective<int64_t, int64_t>(12);
}

/// Dial's parents against the in-row pass for the same distances, on both row shapes.
template <class vid_t, class eid_t, class dist_t>
void fused_parents_are_canonical(uint64_t seed, dist_t unreached) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 60; ++trial) {
    const int k = 1 + static_cast<int>(rng() % 3);
    const int32_t high = trial % 3 == 0 ? 1 : 1 + static_cast<int32_t>(rng() % 6);
    auto g = tie_graph<vid_t, eid_t>(rng, static_cast<vid_t>(1 + rng() % 120), k, high);
    const auto views = g.views();
    const vid_t n = views.out.num_vertices;
    const int objective = static_cast<int>(rng() % static_cast<uint64_t>(k));
    const vid_t source = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    const auto expected = detail::reference_dijkstra_view(views.out, source, objective);
    const detail::weight_column_t w = detail::column_of(views.out, objective);
    detail::packed_rows_t<vid_t, eid_t> packed;
    detail::weight_range_t<vid_t, eid_t> range;
    detail::pack_rows(views.out, w, packed, range);
    for (int shape = 0; shape < 2; ++shape) {
      std::vector<dist_t> dist(static_cast<size_t>(n), unreached);
      std::vector<vid_t> parents(static_cast<size_t>(n), vid_t{-1});
      detail::search_counters_t counters;
      if (shape == 0) {
        detail::dial_search(packed, source, range.max_weight, dist.data(), parents.data(),
                            counters);
      } else {
        detail::dial_search(detail::column_rows_t<vid_t, eid_t>{views.out, w}, source,
                            range.max_weight, dist.data(), parents.data(), counters);
      }
      std::vector<int64_t> wide(static_cast<size_t>(n));
      for (vid_t v = 0; v < n; ++v) {
        wide[v] = dist[v] == unreached ? k_infinite_distance : static_cast<int64_t>(dist[v]);
      }
      std::vector<vid_t> canonical(static_cast<size_t>(n));
      detail::canonical_parents_sequential(views.in, detail::column_of(views.in, objective),
                                           wide.data(), source, views.sorted, canonical.data());
      CHECK(wide == expected.distances);
      CHECK(parents == canonical);
      CHECK(parents == expected.parents);
    }
  }
}

DYNG_TEST("Dial's recorded parents are the canonical ones, 4-byte distances") {
  fused_parents_are_canonical<int32_t, int32_t, int32_t>(3, detail::k_narrow_unreached);
}
DYNG_TEST("Dial's recorded parents are the canonical ones, 8-byte distances") {
  fused_parents_are_canonical<int64_t, int64_t, int64_t>(4, k_infinite_distance);
}

DYNG_TEST("Dial's recorded parents are the canonical ones, 2-byte distances") {
  fused_parents_are_canonical<int32_t, int32_t, uint16_t>(7, detail::k_short_unreached);
}

/// A chain 0 -> 1 -> ... -> n-1 with heavy weights, random chords (some parallel, some loops),
/// and ties: the distances pass 2^16, so a search that starts with 2-byte distances must move to
/// 4-byte ones part-way.
template <class vid_t, class eid_t>
model_graph_t<vid_t, eid_t> far_graph(std::mt19937_64& rng, vid_t n, int32_t low, int32_t high) {
  model_graph_t<vid_t, eid_t> g(n, 1, true, rng());
  auto weight = [&] {
    const auto span = static_cast<uint64_t>(high - low + 1);
    return std::vector<int32_t>{low + static_cast<int32_t>(rng() % span)};
  };
  for (vid_t v = 1; v < n; ++v) g.insert(v - 1, v, weight(), nullptr);
  for (int64_t e = 0; e < 2 * static_cast<int64_t>(n); ++e) {
    const vid_t u = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    const vid_t hop = static_cast<vid_t>(1 + rng() % 3);
    g.insert(u, std::min<vid_t>(n - 1, u + hop), weight(), nullptr);
    if (rng() % 5 == 0) g.insert(u, u, weight(), nullptr);
  }
  g.build(rng() % 2 == 0, rng() % 2 == 0);
  return g;
}

DYNG_TEST("compute_sequential goes on with 4-byte distances where 2-byte ones run out") {
  std::mt19937_64 rng(8);
  int crossed = 0;
  for (int trial = 0; trial < 30; ++trial) {
    // Weights up to the 2-byte search's limit and past it, down to narrow ranges (ties).
    const int32_t high = trial % 3 == 0 ? static_cast<int32_t>(detail::k_short_max_weight)
                                        : 200 + static_cast<int32_t>(rng() % 3000);
    const int32_t low = trial % 2 == 0 ? high - 2 : high / 2;
    auto g = far_graph<int32_t, int64_t>(rng, static_cast<int32_t>(300 + rng() % 300), low, high);
    const auto views = g.views();
    const int32_t source = static_cast<int32_t>(rng() % 8);
    const auto expected = detail::reference_dijkstra_view(views.out, source, 0);
    int64_t largest = 0, max_weight = 0;
    for (const int64_t d : expected.distances) {
      if (d != k_infinite_distance) largest = std::max(largest, d);
    }
    for (int32_t u = 0; u < views.out.num_vertices; ++u) {
      for (int64_t j = views.out.begin(u); j < views.out.end(u); ++j) {
        max_weight = std::max<int64_t>(max_weight, views.out.weight(j, 0));
      }
    }
    crossed += largest > detail::short_distance_limit(max_weight) ? 1 : 0;
    state_t<int32_t> state;
    detail::search_counters_t counters;
    detail::compute_sequential(
        detail::column_rows_t<int32_t, int64_t>{views.out, detail::column_of(views.out, 0)},
        views.in, views.sorted, 0, source, max_weight, state.distances, state.parents, counters);
    CHECK(state.distances == expected.distances);
    CHECK(state.parents == expected.parents);
  }
  CHECK(crossed >= 25);  // most trials move to 4-byte distances part-way
}

DYNG_TEST("compute_sequential counts what changed against the previous state") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    const int k = 1 + static_cast<int>(rng() % 3);
    auto g = tie_graph<int32_t, int64_t>(rng, static_cast<int32_t>(2 + rng() % 80), k, 4);
    const auto views = g.views();
    const int32_t n = views.out.num_vertices;
    const int objective = static_cast<int>(rng() % static_cast<uint64_t>(k));
    // A previous state from another source, so that many vertices differ.
    const auto old = detail::reference_dijkstra_view(views.out, int32_t{0}, objective);
    const int32_t source = static_cast<int32_t>(rng() % static_cast<uint64_t>(n));
    const auto expected = detail::reference_dijkstra_view(views.out, source, objective);
    int64_t differ = 0;
    for (int32_t v = 0; v < n; ++v) {
      differ += (old.distances[v] != expected.distances[v] || old.parents[v] != expected.parents[v])
                    ? 1
                    : 0;
    }
    const bool large = trial % 2 == 0;  // weights past Dial's ring take the radix heap
    const int64_t max_weight = large ? detail::k_dial_max_weight + 1 : 4;
    state_t<int32_t> state;
    state.parents = old.parents;
    detail::search_counters_t counters;
    const int64_t changed = detail::compute_sequential(
        detail::column_rows_t<int32_t, int64_t>{views.out, detail::column_of(views.out, objective)},
        views.in, views.sorted, objective, source, max_weight, state.distances, state.parents,
        counters, old.distances.data());
    CHECK_EQ(changed, differ);
    CHECK(state.distances == expected.distances);
    CHECK(state.parents == expected.parents);
  }
}

DYNG_TEST("one pass over all columns reports what the per-column scans report") {
  std::mt19937_64 rng(6);
  for (int trial = 0; trial < 60; ++trial) {
    const int k = 1 + static_cast<int>(rng() % 4);
    model_graph_t<int32_t, int64_t> g(static_cast<int32_t>(1 + rng() % 30), k, true, rng());
    const int32_t n = g.num_vertices();
    for (int e = 0; e < 3 * n; ++e) {
      std::vector<int32_t> w(static_cast<size_t>(k));
      for (int32_t& x : w) x = rng() % 12 == 0 ? -static_cast<int32_t>(rng() % 3) : 1;
      g.insert(static_cast<int32_t>(rng() % static_cast<uint64_t>(n)),
               static_cast<int32_t>(rng() % static_cast<uint64_t>(n)), w, nullptr);
    }
    g.build(rng() % 2 == 0, rng() % 2 == 0);
    const auto out = g.views().out;
    auto message = [](auto&& check) -> std::string {
      try {
        check();
      } catch (const invalid_argument_error& e) {
        return e.what();
      }
      return "";
    };
    const std::string each = message([&] {
      for (int i = 0; i < k; ++i) detail::checked_weight_range(out, i, "f()");
    });
    CHECK_EQ(message([&] { detail::check_weight_columns(out, k, "f()"); }), each);
  }
}

}  // namespace

DYNG_TEST_MAIN()
