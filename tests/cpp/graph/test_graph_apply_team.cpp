// apply() on an OpenMP team (resolve, sorts, row writes and their slot records in parallel) must
// leave exactly what the sequential apply() leaves: the same slots row by row, the same tail and
// relayout count, the same summary, change log and row edits, and the same rejection (with the
// graph untouched) for a bad batch. Random graphs and batches over every semantics switch, with
// teams of 2, 3 and 5 forced (apply_tuning_t::parallel_min_changes = 0), including batches whose
// moved rows overflow the tail (the sequential fallback) and batches large enough to rebuild.
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "check.hpp"
#include "dyng/graph/detail/apply_tuning.hpp"
#include "dyng/graph/graph.hpp"
#include "graph/graph_test_util.hpp"

namespace {

using namespace dyng;
using graph_test::random_batch;
using graph_test::random_edges;
using graph_test::random_props;
using graph_test::same_graph;

/// Forces every OpenMP apply onto its full team while it lives.
struct forced_team_t {
  int64_t saved = detail::apply_tuning().parallel_min_changes;
  forced_team_t() { detail::apply_tuning().parallel_min_changes = 0; }
  ~forced_team_t() { detail::apply_tuning().parallel_min_changes = saved; }
};

template <class vid_t>
bool same_edits(const row_edits_t<vid_t>& a, const row_edits_t<vid_t>& b) {
  if (a.recorded != b.recorded || a.rows != b.rows || a.new_size != b.new_size ||
      a.piece_begin != b.piece_begin || a.literal_cols != b.literal_cols ||
      a.literal_weights != b.literal_weights || a.rewritten != b.rewritten ||
      a.pieces.size() != b.pieces.size()) {
    return false;
  }
  for (size_t i = 0; i < a.pieces.size(); ++i) {
    if (a.pieces[i].length != b.pieces[i].length || a.pieces[i].source != b.pieces[i].source ||
        a.pieces[i].dest != b.pieces[i].dest) {
      return false;
    }
  }
  return true;
}

template <class vid_t>
bool same_log(const change_log_t<vid_t>& a, const change_log_t<vid_t>& b) {
  return graph_test::same_changes(a, b) && same_edits(a.out_edits, b.out_edits) &&
         same_edits(a.in_edits, b.in_edits);
}

template <class vid_t, class eid_t>
void teams_match_sequential(uint64_t seed, int trials) {
  const forced_team_t forced;
  std::mt19937_64 rng(seed);
  int team_runs = 0, rejected = 0, relaid = 0, in_place = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const graph_properties_t p = random_props(rng);
    const int k = p.num_weights;
    // Few vertices and hub columns, so rows collect many operations (recomposed, moved to the
    // tail) next to rows edited in place.
    const vid_t n = static_cast<vid_t>(50 + rng() % 400);
    const int64_t m = static_cast<int64_t>(n) * static_cast<int64_t>(1 + rng() % 12);
    const auto edges = random_edges(rng, p, n, m);
    auto base = graph_t<vid_t, eid_t>::from_edges(n, edges.src, edges.dst, edges.w, p);
    for (int step = 0; step < 3; ++step) {
      // Sizes from a handful to past the rebuild point (half the stored edges).
      const int64_t size = step == 2 ? static_cast<int64_t>(base.num_edges()) + 50
                                     : 1 + static_cast<int64_t>(rng() % 3000);
      const vid_t limit = p.semantics.allow_vertex_growth && rng() % 2
                              ? static_cast<vid_t>(base.num_vertices() + 5)
                              : base.num_vertices();
      const auto drawn = random_batch(rng, edges, k, size, limit, base.num_vertices());
      const edge_batch_t<vid_t> batch = drawn.batch();
      auto expected = base;
      change_log_t<vid_t> expected_log;
      expected_log.record_row_edits = true;
      std::string expected_error;
      apply_summary_t expected_summary;
      try {
        expected_summary = expected.apply(batch, &expected_log);
        ++(expected.relayout_count() != base.relayout_count() ? relaid : in_place);
      } catch (const invalid_argument_error& e) {
        expected_error = e.what();
        ++rejected;
      }
      for (const int threads : {2, 3, 5}) {
        auto g = base;
        change_log_t<vid_t> log;
        log.record_row_edits = true;
        std::string error;
        apply_summary_t summary;
        try {
          summary = g.apply(batch, &log, execution_t{backend_t::openmp, threads, 0});
        } catch (const invalid_argument_error& e) {
          error = e.what();
        }
        ++team_runs;
        CHECK_EQ(error, expected_error);
        if (!error.empty()) {
          CHECK(same_graph(g, base));
          continue;
        }
        const bool graph_ok = same_graph(g, expected);
        const bool log_ok = same_log(log, expected_log);
        if (!graph_ok || !log_ok) {
          std::fprintf(stderr, "  trial %d step %d threads %d: graph %d log %d\n", trial, step,
                       threads, graph_ok, log_ok);
        }
        CHECK(graph_ok);
        CHECK(log_ok);
        CHECK(graph_test::same_summary(summary, expected_summary));
        g.check_integrity();
        // Without a log the same graph comes out too.
        auto unlogged = base;
        unlogged.apply(batch, nullptr, execution_t{backend_t::openmp, threads, 0});
        CHECK(same_graph(unlogged, expected));
      }
      if (expected_error.empty()) base = expected;
    }
  }
  CHECK(team_runs > 0);
  CHECK(rejected > 0);
  CHECK(relaid > 0);    // re-laid out: rebuilt, or moved rows past the tail
  CHECK(in_place > 0);  // written without a relayout: the team's own path
}

}  // namespace

DYNG_TEST("apply on a team equals the sequential apply, i32/i32") {
  teams_match_sequential<int32_t, int32_t>(31, 60);
}
DYNG_TEST("apply on a team equals the sequential apply, i64/i64") {
  teams_match_sequential<int64_t, int64_t>(32, 30);
}

// Inside a parallel region that allows no nesting, OpenMP grants the inner team one thread: every
// run of rows and every share of the sorts must still be done (by that thread).
DYNG_TEST("apply asking for a team inside a parallel region gets one thread and the same result") {
  const forced_team_t forced;
  std::mt19937_64 rng(33);
  graph_properties_t p;
  p.num_weights = 1;
  const int32_t n = 300;
  std::vector<int32_t> src, dst, w;
  for (int e = 0; e < 3000; ++e) {
    src.push_back(static_cast<int32_t>(rng() % n));
    dst.push_back(static_cast<int32_t>(rng() % n));
    w.push_back(static_cast<int32_t>(1 + rng() % 9));
  }
  const auto base = graph_t<int32_t, int32_t>::from_edges(n, src, dst, w, p);
  std::vector<int32_t> is, id, iw, ds, dd;
  for (int i = 0; i < 2000; ++i) {
    is.push_back(static_cast<int32_t>(rng() % n));
    id.push_back(static_cast<int32_t>(rng() % 7));  // hub columns: rows that move
    iw.push_back(static_cast<int32_t>(1 + rng() % 9));
    ds.push_back(src[rng() % src.size()]);
    dd.push_back(dst[rng() % dst.size()]);
  }
  const edge_batch_t<int32_t> batch{is, id, iw, 1, ds, dd};
  auto expected = base;
  change_log_t<int32_t> expected_log;
  expected_log.record_row_edits = true;
  expected.apply(batch, &expected_log);
  auto g = base;
  change_log_t<int32_t> log;
  log.record_row_edits = true;
#if defined(_OPENMP)
  const int levels = omp_get_max_active_levels();
  omp_set_max_active_levels(1);
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    g.apply(batch, &log, execution_t{backend_t::openmp, 4, 0});
  }
  omp_set_max_active_levels(levels);
#else
  g.apply(batch, &log, execution_t{backend_t::openmp, 4, 0});
#endif
  CHECK(same_graph(g, expected));
  CHECK(same_log(log, expected_log));
  g.check_integrity();
}

DYNG_TEST_MAIN()
