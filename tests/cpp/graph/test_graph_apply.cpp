// apply() semantics (spec section 3) with exact ApplySummary counters, the change log, and
// atomicity: a rejected batch leaves the graph, its version and its CSR unchanged.
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/detail/batch_resolve.hpp"
#include "graph/graph_test_util.hpp"

using namespace graph_test;
using dyng::apply_summary_t;
using dyng::batch_semantics_t;
using dyng::edge_change_kind_t;
using dyng::edge_order_t;

namespace {

dyng::graph_properties_t with(dyng::graph_properties_t p, const batch_semantics_t& s) {
  p.semantics = s;
  return p;
}

apply_summary_t expect(int64_t ins, int64_t upd, int64_t del, int64_t ign_del, int64_t n_after,
                       int64_t ign_ins = 0, int64_t dropped = 0, int64_t cancelled = 0,
                       int64_t grown = 0) {
  apply_summary_t s;
  s.inserted_edges = ins;
  s.updated_edges = upd;
  s.deleted_edges = del;
  s.ignored_deletions = ign_del;
  s.num_vertices_after = n_after;
  s.ignored_insertions = ign_ins;
  s.dropped_self_loops = dropped;
  s.cancelled_pairs = cancelled;
  s.inserted_vertices = grown;
  return s;
}

g32_t base(const dyng::graph_properties_t& p) {
  return make(4, {{0, 1, {5}}, {1, 2, {6}}, {2, 3, {7}}}, p);
}

/// Expects `b` to throw invalid_argument_error and leave g exactly as it was.
void expect_rejected(g32_t& g, const batch_t<>& b, const char* needle) {
  const auto before = g.to_csr();
  const auto version = g.version();
  const auto n = g.num_vertices();
  bool thrown = false;
  try {
    g.apply(b.view());
  } catch (const dyng::invalid_argument_error& e) {
    thrown = true;
    const std::string msg = e.what();
    CHECK(msg.rfind("Graph.apply(): ", 0) == 0);
    if (msg.find(needle) == std::string::npos) {
      std::fprintf(stderr, "  message '%s' lacks '%s'\n", msg.c_str(), needle);
      CHECK(false);
    }
  }
  CHECK(thrown);
  CHECK(same_csr(g.to_csr(), before));
  CHECK_EQ(g.version(), version);
  CHECK_EQ(g.num_vertices(), n);
  g.check_integrity();
}

}  // namespace

DYNG_TEST("upsert: missing deletion ignored, double deletion 1 + 1") {
  auto g = base(props());
  auto s = g.apply(batch_t<>().del(0, 1).del(0, 1).del(3, 0).view());
  CHECK(same_summary(s, expect(0, 0, 1, 2, 4)));
  CHECK_EQ(g.num_edges(), 2);
  CHECK_EQ(g.version(), 1u);
  CHECK(row(g.out_view(), 0).empty());
  CHECK(row(g.in_view(), 1).empty());
  g.check_integrity();
}

DYNG_TEST("upsert: existing insertion overwrites weights, counts updated") {
  auto g = base(props());
  auto s = g.apply(batch_t<>().ins(1, 2, {60}).view());
  CHECK(same_summary(s, expect(0, 1, 0, 0, 4)));
  CHECK((row(g.out_view(), 1) == row_t{{2, {60}}}));
  CHECK((row(g.in_view(), 2) == row_t{{1, {60}}}));
  g.check_integrity();
}

DYNG_TEST("upsert: two insertions of a new edge -> 1 inserted + 1 updated, last weight") {
  auto g = base(props());
  dyng::change_log_t<int32_t> log;
  auto s = g.apply(batch_t<>().ins(3, 0, {1}).ins(3, 0, {2}).view(), &log);
  CHECK(same_summary(s, expect(1, 1, 0, 0, 4)));
  CHECK((row(g.out_view(), 3) == row_t{{0, {2}}}));
  CHECK((row(g.in_view(), 0) == row_t{{3, {2}}}));
  CHECK_EQ(log.changes.size(), 2u);
  CHECK(log.changes[0].kind == edge_change_kind_t::inserted);
  CHECK(log.changes[1].kind == edge_change_kind_t::reweighted);
  CHECK_EQ(log.changes[1].src, 3);
  CHECK_EQ(log.changes[1].dst, 0);
  g.check_integrity();
}

DYNG_TEST("upsert: self-loop kept, deletions run first") {
  auto g = base(props());
  // Deletion first: (0,1) is removed, then re-inserted with the new weight.
  auto s = g.apply(batch_t<>().ins(2, 2, {9}).ins(0, 1, {50}).del(0, 1).view());
  CHECK(same_summary(s, expect(2, 0, 1, 0, 4)));
  CHECK((row(g.out_view(), 2) == row_t{{2, {9}}, {3, {7}}}));
  CHECK((row(g.out_view(), 0) == row_t{{1, {50}}}));
  CHECK_EQ(g.num_edges(), 4);
  g.check_integrity();
}

DYNG_TEST("insertions first when deletions_first is off") {
  auto sem = batch_semantics_t::upsert_last_wins();
  sem.deletions_first = false;
  auto g = base(with(props(), sem));
  auto s = g.apply(batch_t<>().ins(0, 3, {1}).del(0, 3).view());
  CHECK(same_summary(s, expect(1, 0, 1, 0, 4)));
  CHECK((row(g.out_view(), 0) == row_t{{1, {5}}}));
  g.check_integrity();
}

DYNG_TEST("vertex growth: ids >= n add vertices") {
  auto g = base(props());
  dyng::change_log_t<int32_t> log;
  auto s = g.apply(batch_t<>().ins(1, 6, {3}).del(9, 0).view(), &log);
  CHECK(same_summary(s, expect(1, 0, 0, 1, 7, 0, 0, 0, 3)));
  CHECK_EQ(g.num_vertices(), 7);
  CHECK_EQ(log.num_vertices_before, 4);
  CHECK_EQ(log.num_vertices_after, 7);
  CHECK((row(g.in_view(), 6) == row_t{{1, {3}}}));
  CHECK(row(g.out_view(), 5).empty());
  CHECK_EQ(g.to_csr().row_ptr.size(), 8u);
  g.check_integrity();
}

DYNG_TEST("parallel edges: upsert rewrites first copy, deletion removes first, new appended") {
  for (auto order : {edge_order_t::sorted, edge_order_t::append}) {
    auto g = make(3, {{0, 1, {1}}, {0, 2, {9}}, {0, 1, {2}}}, props(true, 1, order, true));
    auto s = g.apply(batch_t<>().ins(0, 1, {10}).view());
    CHECK(same_summary(s, expect(0, 1, 0, 0, 3)));
    auto expected = order == edge_order_t::sorted ? row_t{{1, {10}}, {1, {2}}, {2, {9}}}
                                                  : row_t{{1, {10}}, {2, {9}}, {1, {2}}};
    CHECK((row(g.out_view(), 0) == expected));
    CHECK((row(g.in_view(), 1) == row_t{{0, {10}}, {0, {2}}}));
    s = g.apply(batch_t<>().del(0, 1).view());
    CHECK(same_summary(s, expect(0, 0, 1, 0, 3)));
    CHECK((row(g.in_view(), 1) == row_t{{0, {2}}}));
    s = g.apply(batch_t<>().ins(1, 0, {4}).ins(1, 2, {5}).view());
    CHECK(same_summary(s, expect(2, 0, 0, 0, 3)));
    g.check_integrity();
  }
}

DYNG_TEST("undirected: both directions change, counters count both, self-loop once") {
  auto g = base(props(false));
  CHECK_EQ(g.num_edges(), 6);
  dyng::change_log_t<int32_t> log;
  auto s =
      g.apply(batch_t<>().del(1, 0).ins(3, 0, {8}).ins(1, 1, {2}).ins(2, 1, {66}).view(), &log);
  CHECK(same_summary(s, expect(3, 2, 2, 0, 4)));
  CHECK_EQ(g.num_edges(), 7);
  CHECK((row(g.out_view(), 0) == row_t{{3, {8}}}));
  CHECK((row(g.out_view(), 1) == row_t{{1, {2}}, {2, {66}}}));
  CHECK((row(g.out_view(), 2) == row_t{{1, {66}}, {3, {7}}}));
  CHECK_EQ(log.changes.size(), 7u);  // deletion x2, insertion x2, self-loop x1, reweight x2
  g.check_integrity();
  s = g.apply(batch_t<>().del(0, 2).view());
  CHECK(same_summary(s, expect(0, 0, 0, 2, 4)));
}

DYNG_TEST("set semantics: ignore existing, first weight, drop loops, cancelled pairs") {
  const auto p = with(props(), batch_semantics_t::set());
  auto g = base(p);
  auto s = g.apply(batch_t<>().ins(0, 1, {99}).view());
  CHECK(same_summary(s, expect(0, 0, 0, 0, 4, 1)));
  CHECK((row(g.out_view(), 0) == row_t{{1, {5}}}));

  // Repeats collapse before counting (0.2 counts this batch as one insertion, nothing ignored).
  s = g.apply(batch_t<>().ins(3, 1, {1}).ins(3, 1, {2}).ins(3, 1, {3}).view());
  CHECK(same_summary(s, expect(1, 0, 0, 0, 4, 0)));
  CHECK((row(g.out_view(), 3) == row_t{{1, {1}}}));

  s = g.apply(batch_t<>().ins(2, 2, {1}).view());
  CHECK(same_summary(s, expect(0, 0, 0, 0, 4, 0, 1)));
  CHECK((row(g.out_view(), 2) == row_t{{3, {7}}}));

  s = g.apply(batch_t<>().ins(1, 2, {61}).del(1, 2).view());
  CHECK(same_summary(s, expect(1, 0, 1, 0, 4, 0, 0, 1)));
  CHECK((row(g.out_view(), 1) == row_t{{2, {61}}}));

  s = g.apply(batch_t<>().ins(0, 3, {4}).del(0, 3).view());
  CHECK(same_summary(s, expect(1, 0, 0, 1, 4, 0, 0, 0)));
  CHECK((row(g.out_view(), 0) == row_t{{1, {5}}, {3, {4}}}));
  g.check_integrity();
}

DYNG_TEST("on_self_loop drop counts, error rejects") {
  auto sem = batch_semantics_t::upsert_last_wins();
  sem.on_self_loop = dyng::on_self_loop_t::drop;
  auto g = base(with(props(), sem));
  // A dropped self-loop does not grow the vertex set.
  auto s = g.apply(batch_t<>().ins(1, 1, {1}).ins(8, 8, {1}).view());
  CHECK(same_summary(s, expect(0, 0, 0, 0, 4, 0, 2)));
  sem.on_self_loop = dyng::on_self_loop_t::error;
  auto h = base(with(props(), sem));
  expect_rejected(h, batch_t<>().ins(0, 2, {1}).ins(1, 1, {1}), "insertion 1 is a self-loop");
}

DYNG_TEST("error modes and validation reject the whole batch atomically") {
  auto sem = batch_semantics_t::upsert_last_wins();
  sem.on_missing_delete = dyng::on_missing_delete_t::error;
  auto g = base(with(props(), sem));
  expect_rejected(g, batch_t<>().ins(3, 0, {1}).del(1, 2).del(0, 3),
                  "deletion 1 removes edge (0, 3)");
  expect_rejected(g, batch_t<>().del(1, 2).del(1, 2), "deletion 1");
  CHECK(same_summary(g.apply(batch_t<>().del(1, 2).view()), expect(0, 0, 1, 0, 4)));

  sem = batch_semantics_t::upsert_last_wins();
  sem.on_existing_insert = dyng::on_existing_insert_t::error;
  auto h = base(with(props(), sem));
  expect_rejected(h, batch_t<>().ins(3, 1, {1}).ins(2, 3, {1}), "insertion 1 adds edge (2, 3)");
  expect_rejected(h, batch_t<>().ins(3, 1, {1}).ins(3, 1, {2}), "insertion 1");

  sem = batch_semantics_t::upsert_last_wins();
  sem.allow_vertex_growth = false;
  auto f = base(with(props(), sem));
  expect_rejected(f, batch_t<>().ins(0, 2, {1}).ins(1, 4, {1}), "insertion 1 has destination id 4");
  expect_rejected(f, batch_t<>().del(7, 0), "allow_vertex_growth");

  auto e = base(props());
  expect_rejected(e, batch_t<>().ins(0, 2, {1}).del(-5, 1), "deletion 0 has source id -5");
  expect_rejected(e, batch_t<>().ins(0, 2, {1}).ins(1, -3, {1}), "vertex ids must be >= 0");
  auto wrong_k = batch_t<>().ins(0, 2, {1, 2});
  wrong_k.k = 2;
  expect_rejected(e, wrong_k, "weights per edge");
  expect_rejected(e, batch_t<>().ins(0, 2, {}), "insertion weights");
  auto no_ins = batch_t<>().del(0, 1);
  no_ins.k = 3;  // a batch without insertions is accepted whatever its K
  CHECK(same_summary(e.apply(no_ins.view()), expect(0, 0, 1, 0, 4)));
}

DYNG_TEST("unweighted graph accepts insertions without weights") {
  auto g = make(3, {{0, 1, {}}}, props(true, 0));
  auto b = batch_t<>().ins(1, 2).ins(0, 1);
  b.k = 0;
  CHECK(same_summary(g.apply(b.view()), expect(1, 1, 0, 0, 3)));
  CHECK_EQ(g.num_edges(), 2);
  g.check_integrity();
}

DYNG_TEST("change log records every slot change and clears old content") {
  auto g = base(props());
  dyng::change_log_t<int32_t> log;
  log.changes.push_back({9, 9, edge_change_kind_t::deleted});
  g.apply(batch_t<>().del(2, 3).del(3, 3).ins(0, 1, {5}).ins(0, 2, {1}).view(), &log);
  CHECK_EQ(log.changes.size(), 3u);
  CHECK(log.changes[0].kind == edge_change_kind_t::deleted);
  CHECK_EQ(log.changes[0].src, 2);
  CHECK(log.changes[1].kind == edge_change_kind_t::reweighted);  // equal weight still logged
  CHECK(log.changes[2].kind == edge_change_kind_t::inserted);
  CHECK_EQ(log.changes[2].dst, 2);
  CHECK_EQ(log.num_vertices_before, 4);
  CHECK_EQ(log.num_vertices_after, 4);
}

DYNG_TEST("empty batch bumps the version and changes nothing else") {
  auto g = base(props());
  const auto before = g.to_csr();
  CHECK(same_summary(g.apply(batch_t<>().view()), expect(0, 0, 0, 0, 4)));
  CHECK_EQ(g.version(), 1u);
  CHECK(same_csr(g.to_csr(), before));
}

DYNG_TEST("append order: deleted slot closes the gap, re-insert goes to the end") {
  auto g = make(5, {{0, 3, {1}}, {0, 1, {2}}, {0, 4, {3}}, {0, 2, {4}}},
                props(true, 1, edge_order_t::append));
  g.apply(batch_t<>().del(0, 1).ins(0, 3, {10}).view());
  CHECK((row(g.out_view(), 0) == row_t{{3, {10}}, {4, {3}}, {2, {4}}}));
  g.apply(batch_t<>().del(0, 3).ins(0, 3, {11}).ins(0, 1, {12}).view());
  CHECK((row(g.out_view(), 0) == row_t{{4, {3}}, {2, {4}}, {3, {11}}, {1, {12}}}));
  g.check_integrity();
}

// The error probe replays a prefix of the batch in processing order; the full resolve sorts by
// key. On random batches under every error-mode combination both must refuse with the same
// message, or both accept, whatever prefix the probe sees.
DYNG_TEST("error probe and sorted resolve agree on every rejection") {
  std::mt19937 rng(11);
  int rejected = 0;
  for (int round = 0; round < 3000; ++round) {
    dyng::graph_properties_t p;
    p.directed = rng() % 3 != 0;
    auto& sem = p.semantics;
    sem.as_sets = rng() % 3 == 0;
    sem.deletions_first = rng() % 2 == 0;
    sem.on_missing_delete =
        rng() % 2 ? dyng::on_missing_delete_t::error : dyng::on_missing_delete_t::ignore;
    sem.on_existing_insert =
        rng() % 2 ? dyng::on_existing_insert_t::error : dyng::on_existing_insert_t::upsert;
    sem.on_self_loop = rng() % 2 ? dyng::on_self_loop_t::drop : dyng::on_self_loop_t::keep;
    const int32_t n = 3 + static_cast<int32_t>(rng() % 4);
    std::map<std::pair<int32_t, int32_t>, int64_t> stored;  // edge key -> copies
    for (int e = 0; e < 5; ++e) {
      int32_t u = static_cast<int32_t>(rng() % n), v = static_cast<int32_t>(rng() % n);
      if (!p.directed && v < u) std::swap(u, v);
      stored[{u, v}] = 1 + (rng() % 4 == 0 ? 1 : 0);
    }
    std::vector<int32_t> is, id, iw, ds, dd;
    const int ni = static_cast<int>(rng() % 6), nd = static_cast<int>(rng() % 6);
    for (int i = 0; i < ni; ++i) {
      is.push_back(static_cast<int32_t>(rng() % (n + 1)));  // n: a new vertex
      id.push_back(static_cast<int32_t>(rng() % (n + 1)));
      iw.push_back(1);
    }
    for (int i = 0; i < nd; ++i) {
      ds.push_back(static_cast<int32_t>(rng() % n));
      dd.push_back(static_cast<int32_t>(rng() % n));
    }
    p.num_weights = 1;
    const dyng::edge_batch_t<int32_t> b{is, id, iw, 1, ds, dd};
    auto copies = [&](int32_t u, int32_t v) -> int64_t {
      if (!p.directed && v < u) std::swap(u, v);
      const auto it = stored.find({u, v});
      return it == stored.end() ? 0 : it->second;
    };
    auto outcome = [&](int64_t probe_ops) -> std::string {
      try {
        (void)dyng::detail::resolve_batch(b, p, n, copies, probe_ops);
        return "accepted";
      } catch (const dyng::invalid_argument_error& e) {
        return e.what();
      }
    };
    const std::string sorted = outcome(0);
    rejected += sorted != "accepted" ? 1 : 0;
    for (const int64_t probe_ops : {int64_t{1}, int64_t{3}, int64_t{1} << 20}) {
      const std::string probed = outcome(probe_ops);
      if (probed != sorted) {
        std::fprintf(stderr, "  round %d, probe %lld: '%s' vs sorted '%s'\n", round,
                     static_cast<long long>(probe_ops), probed.c_str(), sorted.c_str());
        CHECK(false);
        return;
      }
    }
  }
  CHECK(rejected > 300);  // the rounds do exercise rejections
}

DYNG_TEST_MAIN()

DYNG_TEST("deletions may name ids past the vertex count in a batch the counting sort orders") {
  // Such deletions are ignored and grow nothing, yet their ids are sort keys: the resolve's
  // counting sort (batches of >= 4096 entries) and radix sort must size for them. It wrote past
  // its bucket array before (found by the device-apply parity test).
  for (const bool directed : {true, false}) {
    for (const int team : {1, 2}) {
      dyng::graph_properties_t p;
      p.directed = directed;
      g32_t g = base(p);
      batch_t<> b;
      int64_t ignored = 0;  // an undirected deletion counts both directions, a self-loop one
      for (int i = 0; i < 6000; ++i) {
        b.del(4 + i % 7, i % 5);
        ignored += directed || 4 + i % 7 == i % 5 ? 1 : 2;
      }
      b.del(0, 1);
      dyng::execution_t exec;
      if (team > 1) exec = dyng::execution_t{dyng::backend_t::openmp, team, 0, nullptr};
      const auto s = g.apply(b.view(), nullptr, exec);
      CHECK_EQ(s.deleted_edges, directed ? 1 : 2);
      CHECK_EQ(s.ignored_deletions, ignored);
      CHECK_EQ(g.num_vertices(), 4);
      g.check_integrity();
    }
  }
}
