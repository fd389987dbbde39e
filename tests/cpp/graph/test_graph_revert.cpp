// graph_t::revert() after an apply() that kept an undo record (graph/apply_undo.hpp) must give back
// the graph as it was, on random graphs and batches over every semantics switch: rows edited in
// place, recomposed, moved to the free tail, batches that re-lay a direction out (the tail ran
// out, or the batch rebuilds it), vertex growth, sequentially and on teams. From row copies
// (append order, parallel edges) slot for slot (offsets, capacities, tails, re-layout count,
// version); from the batch's inverse (sorted rows without parallel edges) every row's slots in
// order, counts and version. An apply stopped by the caller's flag changes nothing, and
// grow_vertices() reverts as an apply does.
#include <atomic>
#include <cstdint>
#include <random>
#include <vector>

#include "check.hpp"
#include "dyng/graph/apply_undo.hpp"
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

template <class vid_t, class eid_t>
bool same_tails(const graph_t<vid_t, eid_t>& a, const graph_t<vid_t, eid_t>& b) {
  return a.out_storage().tail == b.out_storage().tail && a.in_storage().tail == b.in_storage().tail;
}

template <class V>
bool same_rows(const V& a, const V& b) {
  if (a.num_vertices != b.num_vertices || a.num_weights != b.num_weights) return false;
  for (auto v = decltype(a.num_vertices){0}; v < a.num_vertices; ++v) {
    if (graph_test::row(a, v) != graph_test::row(b, v)) return false;
  }
  return true;
}

/// The same rows (slots in order), counts and version, wherever the rows sit.
template <class vid_t, class eid_t>
bool same_content(const graph_t<vid_t, eid_t>& a, const graph_t<vid_t, eid_t>& b) {
  bool same = a.num_vertices() == b.num_vertices() && a.num_edges() == b.num_edges() &&
              a.version() == b.version() && same_rows(a.out_view(), b.out_view());
  if (a.properties().directed && a.has_transposed()) {
    same = same && same_rows(a.in_view(), b.in_view());
  }
  return same;
}

template <class vid_t, class eid_t>
void reverts_restore_the_graph(uint64_t seed, int trials) {
  const forced_team_t forced;
  std::mt19937_64 rng(seed);
  int reverted = 0, relaid = 0, grown = 0, by_inverse = 0, by_copies = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const graph_properties_t p = random_props(rng);
    const int k = p.num_weights;
    const vid_t n = static_cast<vid_t>(20 + rng() % 300);
    const int64_t m = static_cast<int64_t>(n) * static_cast<int64_t>(1 + rng() % 10);
    const auto edges = random_edges(rng, p, n, m);
    auto g = graph_t<vid_t, eid_t>::from_edges(n, edges.src, edges.dst, edges.w, p);
    for (int step = 0; step < 6; ++step) {
      // From a handful of changes to more than the stored edges (a rebuild).
      const int64_t size = step == 5 ? static_cast<int64_t>(g.num_edges()) + 20
                                     : 1 + static_cast<int64_t>(rng() % (step < 3 ? 40 : 2000));
      const vid_t limit = p.semantics.allow_vertex_growth && rng() % 2
                              ? static_cast<vid_t>(g.num_vertices() + 4)
                              : g.num_vertices();
      const auto drawn = random_batch(rng, edges, k, size, limit, g.num_vertices());
      const edge_batch_t<vid_t> batch = drawn.batch();
      const int threads = static_cast<int>(rng() % 3) + 1;
      const execution_t exec{threads > 1 ? backend_t::openmp : backend_t::sequential, threads, 0};
      const auto before = g;
      apply_undo_t<vid_t, eid_t> undo;
      auto applied = g;
      try {
        applied.apply(batch, nullptr, exec, &undo);
      } catch (const invalid_argument_error&) {
        CHECK(same_graph(applied, before));
        continue;
      }
      relaid += applied.relayout_count() != before.relayout_count() ? 1 : 0;
      grown += applied.num_vertices() != before.num_vertices() ? 1 : 0;
      auto taken_back = applied;
      const bool inverse = undo.by_inverse;
      taken_back.revert(undo);
      ++reverted;
      ++(inverse ? by_inverse : by_copies);
      CHECK(same_content(taken_back, before));
      if (!inverse) {
        CHECK(same_graph(taken_back, before));
        CHECK(same_tails(taken_back, before));
      }
      taken_back.check_integrity();
      // The record is spent, and the graph takes the same batch again to the same rows.
      CHECK_THROWS_AS(taken_back.revert(undo), invalid_argument_error);
      taken_back.apply(batch, nullptr, exec);
      CHECK(same_content(taken_back, applied));
      if (!inverse) CHECK(same_graph(taken_back, applied));
      g = applied;  // the next step starts from the applied graph
    }
  }
  CHECK(reverted > 0);
  CHECK(relaid > 0);
  CHECK(grown > 0);
  CHECK(by_inverse > 0);
  CHECK(by_copies > 0);
}

DYNG_TEST("revert puts back every slot of an apply, i32/i32") {
  reverts_restore_the_graph<int32_t, int32_t>(11, 60);
}
DYNG_TEST("revert puts back every slot of an apply, i32/i64") {
  reverts_restore_the_graph<int32_t, int64_t>(12, 30);
}
DYNG_TEST("revert puts back every slot of an apply, i64/i64") {
  reverts_restore_the_graph<int64_t, int64_t>(13, 30);
}

DYNG_TEST("revert refuses a record of another version and changes nothing") {
  auto g = graph_test::make(4, {{0, 1, {3}}, {1, 2, {4}}}, graph_test::props());
  graph_test::batch_t<> first, second;
  first.ins(2, 3, {5});
  second.del(0, 1);
  apply_undo_t<int32_t, int32_t> undo;
  g.apply(first.view(), nullptr, {}, &undo);
  g.apply(second.view());
  const auto now = g;
  CHECK_THROWS_AS(g.revert(undo), invalid_argument_error);
  CHECK(same_graph(g, now));
  apply_undo_t<int32_t, int32_t> never;
  CHECK_THROWS_AS(g.revert(never), invalid_argument_error);
}

DYNG_TEST("an apply stopped by its caller's flag throws interrupted_error and changes nothing") {
  auto g = graph_test::make(4, {{0, 1, {3}}, {1, 2, {4}}}, graph_test::props());
  const auto before = g;
  graph_test::batch_t<> b;
  b.ins(2, 3, {5}).del(0, 1);
  std::atomic<bool> stop{true};
  execution_t exec;
  exec.cancel.flag = &stop;
  apply_undo_t<int32_t, int32_t> undo;
  CHECK_THROWS_AS(g.apply(b.view(), nullptr, exec, &undo), interrupted_error);
  CHECK(same_graph(g, before));
  CHECK(!undo.recorded);
  stop = false;
  g.apply(b.view(), nullptr, exec);
  CHECK_EQ(g.version(), before.version() + 1);
}

DYNG_TEST("grow_vertices with an undo record reverts to the old vertex count") {
  auto g = graph_test::make(3, {{0, 1, {3}}, {1, 2, {4}}}, graph_test::props());
  const auto before = g;
  apply_undo_t<int32_t, int32_t> undo;
  g.grow_vertices(2, &undo);
  CHECK(!undo.recorded);  // nothing grew
  g.grow_vertices(7, &undo);
  CHECK(undo.recorded);
  CHECK_EQ(g.num_vertices(), 7);
  g.revert(undo);
  CHECK(same_graph(g, before));
  g.check_integrity();
}

}  // namespace

DYNG_TEST_MAIN()
