// Slot management under many random batches: graph_t against the naive model after every batch
// (rows, in-edges, counters, check_integrity), for all type combinations, both row orders,
// directed/undirected, parallel edges and several semantics; the in-place and rebuild write
// paths against each other; and the promise that a small batch does not re-lay out the CSR.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/graph/detail/apply_tuning.hpp"
#include "graph/graph_model.hpp"
#include "graph/graph_test_util.hpp"

using namespace graph_test;
using dyng::batch_semantics_t;
using dyng::edge_order_t;

namespace {

struct config_t {
  bool directed;
  edge_order_t order;
  bool parallel;
  batch_semantics_t sem;
  double headroom;
  int k;
};

/// Sets the apply() write path for the lifetime of the object.
struct path_guard_t {
  dyng::detail::apply_tuning_t saved = dyng::detail::apply_tuning();
  explicit path_guard_t(bool rebuild) {
    auto& t = dyng::detail::apply_tuning();
    t.rebuild_min_ops = rebuild ? 0 : INT64_MAX;
    t.rebuild_fraction = rebuild ? 0.0 : 1e300;
  }
  ~path_guard_t() { dyng::detail::apply_tuning() = saved; }
};

template <class V>
model_t::slot_t slot_of(const V& view, int64_t e) {
  std::vector<int32_t> w;
  for (int k = 0; k < view.num_weights; ++k) w.push_back(view.weight(e, k));
  return {static_cast<int64_t>(view.neighbour(e)), w};
}

template <class G>
bool matches(const G& g, const model_t& m, std::string& why) {
  if (static_cast<int64_t>(g.num_vertices()) != m.n) {
    why = "num_vertices";
    return false;
  }
  if (static_cast<int64_t>(g.num_edges()) != m.num_edges()) {
    why = "num_edges";
    return false;
  }
  const auto out = g.out_view();
  for (int64_t v = 0; v < m.n; ++v) {
    if (row(out, v) != m.out[v]) {
      why = "out-row " + std::to_string(v);
      return false;
    }
  }
  if (g.has_transposed()) {
    const auto in = g.in_view();
    const auto& rows = m.directed ? m.in : m.out;
    for (int64_t v = 0; v < m.n; ++v) {
      if (row(in, v) != rows[v]) {
        why = "in-row " + std::to_string(v);
        return false;
      }
    }
  }
  return true;
}

/// Runs `batches` random batches on a graph and the model; returns the graph's final CSR and
/// the concatenated summaries so that two runs can be compared.
template <class G>
std::pair<dyng::csr_t<typename G::vertex_type, typename G::edge_type>,
          std::vector<dyng::apply_summary_t>>
run_random(const config_t& c, uint64_t seed, int batches, int64_t& relayouts) {
  using vid_t = typename G::vertex_type;
  std::mt19937_64 rng(seed);
  const int64_t n0 = 24;
  auto p = props(c.directed, c.k, c.order, c.parallel);
  p.semantics = c.sem;
  p.headroom = c.headroom;
  std::vector<lit_edge_t> init;
  std::uniform_int_distribution<int64_t> vid(0, n0 - 1);
  std::uniform_int_distribution<int32_t> wd(1, 1000);
  auto weights = [&] {
    std::vector<int32_t> w;
    for (int k = 0; k < c.k; ++k) w.push_back(wd(rng));
    return w;
  };
  for (int i = 0; i < 60; ++i) init.push_back({vid(rng), vid(rng), weights()});
  G g = make<G>(n0, init, p);
  model_t m;
  m.n = n0;
  m.directed = c.directed;
  m.sorted = c.order == edge_order_t::sorted;
  m.parallel = c.parallel;
  m.out.resize(n0);
  m.in.resize(c.directed ? n0 : 0);
  for (int64_t v = 0; v < n0; ++v) {
    m.out[v] = row(g.out_view(), v);
    if (c.directed) m.in[v] = row(g.in_view(), v);
  }

  std::vector<dyng::apply_summary_t> summaries;
  for (int b = 0; b < batches; ++b) {
    batch_t<vid_t> batch;
    batch.k = c.k;
    std::vector<std::pair<std::pair<int64_t, int64_t>, std::vector<int32_t>>> ins;
    std::vector<std::pair<int64_t, int64_t>> del;
    // Mostly ids of existing vertices; occasionally a new one, so the vertex set grows.
    const int64_t hi = std::min<int64_t>(m.n + 2, 200);
    std::uniform_int_distribution<int64_t> any(0, hi - 1);
    std::uniform_int_distribution<int> size(0, b % 7 == 0 ? 60 : 12);
    const int ni = size(rng), nd = size(rng);
    for (int i = 0; i < ni; ++i) {
      int64_t u = any(rng), v = any(rng);
      if (rng() % 4 == 0 && !ins.empty()) {  // repeat an earlier insertion of this batch
        u = ins[rng() % ins.size()].first.first;
        v = ins[rng() % ins.size()].first.second;
      }
      if (rng() % 8 == 0) v = u;
      auto w = weights();
      batch.ins(u, v, w);
      ins.push_back({{u, v}, w});
    }
    for (int i = 0; i < nd; ++i) {
      int64_t u = any(rng), v = any(rng);
      if (rng() % 2 == 0 && u < m.n && !m.out[u].empty())
        v = m.out[u][rng() % m.out[u].size()].first;
      if (rng() % 5 == 0 && !ins.empty()) {  // delete something this batch inserts
        u = ins[rng() % ins.size()].first.first;
        v = ins[rng() % ins.size()].first.second;
      }
      batch.del(u, v);
      del.push_back({u, v});
    }
    const auto got = g.apply(batch.view());
    const auto want = m.apply(ins, del, c.sem);
    summaries.push_back(got);
    if (!same_summary(got, want)) {
      std::fprintf(stderr,
                   "  batch %d: summary differs (ins %lld/%lld upd %lld/%lld del %lld/%lld)\n", b,
                   (long long)got.inserted_edges, (long long)want.inserted_edges,
                   (long long)got.updated_edges, (long long)want.updated_edges,
                   (long long)got.deleted_edges, (long long)want.deleted_edges);
      CHECK(false);
      break;
    }
    std::string why;
    if (!matches(g, m, why)) {
      std::fprintf(stderr, "  batch %d: graph differs from the model at %s\n", b, why.c_str());
      CHECK(false);
      break;
    }
    g.check_integrity();
  }
  relayouts = g.relayout_count();
  return {g.to_csr(), summaries};
}

std::vector<config_t> configs() {
  std::vector<config_t> out;
  auto insert_first = batch_semantics_t::upsert_last_wins();
  insert_first.deletions_first = false;
  auto ignore_sets = batch_semantics_t::set();
  ignore_sets.deletions_first = false;
  for (bool directed : {true, false}) {
    for (auto order : {edge_order_t::sorted, edge_order_t::append}) {
      for (bool parallel : {false, true}) {
        out.push_back({directed, order, parallel, batch_semantics_t::upsert_last_wins(), 0.125, 1});
        out.push_back({directed, order, parallel, batch_semantics_t::set(), 0.0, 2});
        out.push_back({directed, order, parallel, insert_first, 1.0, 0});
        out.push_back({directed, order, parallel, ignore_sets, 0.125, 3});
      }
    }
  }
  return out;
}

template <class G>
void model_suite() {
  int index = 0;
  int64_t total_relayouts = 0;
  for (const auto& c : configs()) {
    for (bool rebuild : {false, true}) {
      path_guard_t guard(rebuild);
      int64_t relayouts = 0;
      run_random<G>(c, 1000 + index, 150, relayouts);
      total_relayouts += relayouts;
    }
    ++index;
  }
  // The suite is only meaningful if rows really moved and directions were re-laid out.
  CHECK(total_relayouts > 0);
}

}  // namespace

DYNG_TEST("random batches match the model: i32/i32") {
  model_suite<dyng::graph_t<int32_t, int32_t>>();
}
DYNG_TEST("random batches match the model: i32/i64") {
  model_suite<dyng::graph_t<int32_t, int64_t>>();
}
DYNG_TEST("random batches match the model: i64/i64") {
  model_suite<dyng::graph_t<int64_t, int64_t>>();
}

DYNG_TEST("in-place and rebuild write paths give identical graphs and summaries") {
  int index = 0;
  for (const auto& c : configs()) {
    int64_t r1 = 0, r2 = 0;
    std::pair<dyng::csr_t<int32_t, int32_t>, std::vector<dyng::apply_summary_t>> a, b;
    {
      path_guard_t guard(false);
      a = run_random<g32_t>(c, 77 + index, 80, r1);
    }
    {
      path_guard_t guard(true);
      b = run_random<g32_t>(c, 77 + index, 80, r2);
    }
    CHECK(same_csr(a.first, b.first));
    CHECK_EQ(a.second.size(), b.second.size());
    for (size_t i = 0; i < a.second.size() && i < b.second.size(); ++i) {
      CHECK(same_summary(a.second[i], b.second[i]));
    }
    ++index;
  }
}

namespace {

g32_t random_graph(int64_t n, int64_t m, uint64_t seed, bool directed = true) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int32_t> vid(0, static_cast<int32_t>(n - 1));
  std::vector<int32_t> src(m), dst(m), w(m);
  for (int64_t i = 0; i < m; ++i) {
    src[i] = vid(rng);
    dst[i] = vid(rng);
    w[i] = static_cast<int32_t>(rng() % 100 + 1);
  }
  return g32_t::from_edges(static_cast<int32_t>(n), src, dst, w, props(directed));
}

batch_t<> random_batch(const g32_t& g, int64_t count, std::mt19937_64& rng) {
  batch_t<> b;
  const auto n = g.num_vertices();
  for (int64_t i = 0; i < count; ++i) {
    const int32_t u = static_cast<int32_t>(rng() % n);
    if (i % 2 == 0) {
      b.ins(u, static_cast<int32_t>(rng() % n), {static_cast<int32_t>(rng() % 100 + 1)});
    } else {
      const auto view = g.out_view();
      const int32_t v =
          view.degree(u) > 0
              ? view.neighbour(view.begin(u) + static_cast<int32_t>(rng() % view.degree(u)))
              : static_cast<int32_t>(rng() % n);
      b.del(u, v);
    }
  }
  return b;
}

}  // namespace

DYNG_TEST("a small batch does not re-lay out the CSR") {
  for (bool directed : {true, false}) {
    auto g = random_graph(20000, 320000, 5, directed);
    std::mt19937_64 rng(9);
    const int64_t capacity = g.slot_capacity();
    for (int round = 0; round < 20; ++round) {
      auto b = random_batch(g, 100, rng);
      g.apply(b.view());
    }
    CHECK_EQ(g.relayout_count(), 0);
    CHECK_EQ(g.slot_capacity(), capacity);
    g.check_integrity();
  }
}

DYNG_TEST("exhausting the tail re-lays out, and the graph stays correct") {
  auto g = random_graph(2000, 8000, 3);
  std::mt19937_64 rng(4);
  for (int round = 0; round < 50; ++round) {
    batch_t<> b;
    for (int i = 0; i < 200; ++i) b.ins(rng() % 2000, rng() % 2000, {1});
    g.apply(b.view());
  }
  CHECK(g.relayout_count() > 0);
  g.check_integrity();
}

DYNG_TEST("reserve makes room so later insertions do not re-lay out") {
  auto g = random_graph(10000, 80000, 6);
  const int64_t m = g.num_edges();
  g.reserve(m + 40000);
  CHECK(g.slot_capacity() >= m + 40000);
  const int64_t after_reserve = g.relayout_count();
  std::mt19937_64 rng(8);
  for (int round = 0; round < 40; ++round) {
    batch_t<> b;
    for (int i = 0; i < 1000; ++i) b.ins(rng() % 10000, rng() % 10000, {1});
    g.apply(b.view());
  }
  CHECK(static_cast<int64_t>(g.num_edges()) > m + 39000);
  CHECK_EQ(g.relayout_count(), after_reserve);
  g.check_integrity();
  g.reserve(0);  // below the edge count: nothing to do
  CHECK_EQ(g.relayout_count(), after_reserve);
}

DYNG_TEST("a batch of most of the graph: rebuild and in-place paths agree") {
  for (bool directed : {true, false}) {
    auto a = random_graph(3000, 30000, 11, directed);
    auto b = a;
    std::mt19937_64 rng(12);
    const auto batch = random_batch(a, 40000, rng);
    dyng::apply_summary_t sa, sb;
    {
      path_guard_t guard(false);
      sa = a.apply(batch.view());
    }
    {
      path_guard_t guard(true);
      sb = b.apply(batch.view());
    }
    CHECK(same_summary(sa, sb));
    CHECK(same_csr(a.to_csr(), b.to_csr()));
    CHECK((row(a.in_view(), 17) == row(b.in_view(), 17)));
    CHECK(b.relayout_count() > 0);
    a.check_integrity();
    b.check_integrity();
  }
}

DYNG_TEST_MAIN()
