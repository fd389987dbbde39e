// The legacy batch generators: a few batches that dyng 0.2.0 produced for the same arguments
// (the bit-exact streams; tests/python/test_generators_legacy.py compares many more), and on
// random graphs the invariants: counts, deletions are stored edges, insertions are non-edges
// without self-loops, sorted lists, safe deletions keep everything reachable, and the same seed
// gives the same batch. Bad options are refused.
#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/generators/legacy.hpp"
#include "dyng/graph/graph.hpp"

namespace {

using namespace dyng;
namespace gen = dyng::generators;
using graph32_t = graph_t<int32_t, int32_t>;
using edge_set_t = std::set<std::pair<int32_t, int32_t>>;

graph_properties_t props_of(int k, bool directed) {
  graph_properties_t props;
  props.directed = directed;
  props.num_weights = k;
  return props;
}

/// The 4-cycle 0->1->2->3->0 with weights 3, 4, 5, 6 (one objective).
graph32_t ring() {
  const std::vector<int32_t> src{0, 1, 2, 3}, dst{1, 2, 3, 0}, w{3, 4, 5, 6};
  return graph32_t::from_edges(4, src, dst, w, props_of(1, true));
}

graph32_t random_graph(std::mt19937_64& rng, int32_t n, int m, int k, bool directed) {
  std::vector<int32_t> src, dst, w;
  for (int e = 0; e < m; ++e) {
    src.push_back(static_cast<int32_t>(rng() % n));
    dst.push_back(static_cast<int32_t>(rng() % n));
    for (int j = 0; j < k; ++j) w.push_back(static_cast<int32_t>(1 + rng() % 40));
  }
  return graph32_t::from_edges(n, src, dst, w, props_of(k, directed));
}

edge_set_t edges_of(const graph32_t& g) {
  std::vector<int32_t> s, d, w;
  g.edges(s, d, w);
  edge_set_t out;
  for (size_t i = 0; i < s.size(); ++i) out.insert({s[i], d[i]});
  return out;
}

/// Vertices reachable from `source` over `edges`.
std::vector<char> reachable(int32_t n, const edge_set_t& edges, int32_t source) {
  std::vector<char> seen(static_cast<size_t>(n), 0);
  std::vector<int32_t> queue{source};
  seen[source] = 1;
  for (size_t i = 0; i < queue.size(); ++i) {
    const int32_t u = queue[i];
    for (auto it = edges.lower_bound({u, 0}); it != edges.end() && it->first == u; ++it) {
      if (!seen[it->second]) {
        seen[it->second] = 1;
        queue.push_back(it->second);
      }
    }
  }
  return seen;
}

std::pair<int32_t, int32_t> pair_at(const std::vector<int32_t>& s, const std::vector<int32_t>& d,
                                    size_t i) {
  return {s[i], d[i]};
}

template <class F>
bool throws_invalid(F&& f) {
  try {
    f();
  } catch (const invalid_argument_error&) {
    return true;
  }
  return false;
}

DYNG_TEST("mosp_changes reproduces 0.2.0's batches on the ring") {
  gen::mosp_change_options_t o;
  o.num_changes = 2;
  auto b = gen::mosp_changes(ring(), o);
  CHECK(b.insert_src == std::vector<int32_t>{1} && b.insert_dst == std::vector<int32_t>{3});
  CHECK(b.insert_weights == std::vector<int32_t>{94});
  CHECK(b.delete_src == std::vector<int32_t>{2} && b.delete_dst == std::vector<int32_t>{3});
  CHECK(b.summary == "inserts=1 reweights=0 deletes=1");

  o.num_changes = 3;
  o.mode = gen::change_mode_t::increase;
  o.seed = 7;
  b = gen::mosp_changes(ring(), o);
  CHECK((b.insert_src == std::vector<int32_t>{2, 0, 1}));
  CHECK((b.insert_dst == std::vector<int32_t>{3, 1, 2}));
  CHECK((b.insert_weights == std::vector<int32_t>{28, 81, 36}));
  CHECK(b.reweights == 3 && b.inserts == 0 && b.delete_src.empty());

  // The safety filter: every deletion of a ring edge cuts a vertex off, except one that the
  // batch's own insertion puts back.
  o.num_changes = 4;
  o.mode = gen::change_mode_t::targeted;
  o.seed = 9;
  o.safe_deletions = true;
  o.insertion_percentage = 25.0;
  b = gen::mosp_changes(ring(), o);
  CHECK(b.insert_src == std::vector<int32_t>{0} && b.insert_dst == std::vector<int32_t>{1});
  CHECK(b.insert_weights == std::vector<int32_t>{2});
  CHECK(b.delete_src == std::vector<int32_t>{0} && b.delete_dst == std::vector<int32_t>{1});
  CHECK(b.summary == "inserts=1 reweights=0 deletes=1 (safe: kept 1 of 3 after 2 rounds)");
}

DYNG_TEST("cycle_enum_batch reproduces 0.2.0's batch on the ring") {
  gen::cycle_enum_batch_options_t o;
  o.num_deletions = 1;
  o.num_insertions = 1;
  const auto b = gen::cycle_enum_batch(ring(), o);
  CHECK(b.insert_src == std::vector<int32_t>{0} && b.insert_dst == std::vector<int32_t>{2});
  CHECK(b.delete_src == std::vector<int32_t>{1} && b.delete_dst == std::vector<int32_t>{2});
}

DYNG_TEST("mosp_changes: counts, stored deletions, safe deletions and determinism") {
  std::mt19937_64 rng(11);
  const gen::change_mode_t modes[] = {gen::change_mode_t::uniform, gen::change_mode_t::targeted,
                                      gen::change_mode_t::reweight, gen::change_mode_t::increase};
  for (int round = 0; round < 60; ++round) {
    const int k = 1 + round % 3;
    const auto g = random_graph(rng, 6 + round % 9, 30, k, round % 4 != 0);
    const edge_set_t edges = edges_of(g);
    gen::mosp_change_options_t o;
    o.num_changes = 1 + round % 9;
    o.mode = modes[round % 4];
    o.seed = static_cast<uint32_t>(rng());
    o.safe_deletions = round % 2 == 0;
    o.local_hops = round % 5 == 0 ? 2 : 0;
    gen::mosp_change_batch_t<int32_t> b;
    try {
      b = gen::mosp_changes(g, o);
    } catch (const invalid_argument_error&) {
      continue;  // no candidate edge or a one-vertex region: refused, as the tool does
    }
    const auto again = gen::mosp_changes(g, o);
    CHECK(again.insert_src == b.insert_src && again.insert_weights == b.insert_weights &&
          again.delete_src == b.delete_src && again.summary == b.summary);
    CHECK(static_cast<int64_t>(b.insert_src.size()) == b.inserts + b.reweights);
    CHECK(b.insert_weights.size() == b.insert_src.size() * static_cast<size_t>(k));
    CHECK(b.deletes <= b.requested_deletes);
    if (o.mode == gen::change_mode_t::uniform) {
      CHECK(b.inserts + b.requested_deletes == o.num_changes);
    }
    for (size_t i = 0; i < b.insert_src.size(); ++i) CHECK(b.insert_src[i] != b.insert_dst[i]);
    for (size_t i = static_cast<size_t>(b.inserts); i < b.insert_src.size(); ++i) {
      CHECK(edges.count({b.insert_src[i], b.insert_dst[i]}) == 1);  // re-weights hit stored edges
    }
    for (size_t i = 0; i < b.delete_src.size(); ++i) {
      CHECK(edges.count({b.delete_src[i], b.delete_dst[i]}) == 1);
    }
    for (int32_t w : b.insert_weights) CHECK(w >= 1);
    if (o.safe_deletions) {
      edge_set_t after = edges;  // no parallel edges here, so a deletion removes the edge
      for (size_t i = 0; i < b.delete_src.size(); ++i) {
        after.erase({b.delete_src[i], b.delete_dst[i]});
      }
      for (size_t i = 0; i < b.insert_src.size(); ++i) {
        after.insert({b.insert_src[i], b.insert_dst[i]});
      }
      const auto before_seen = reachable(g.num_vertices(), edges, 0);
      const auto after_seen = reachable(g.num_vertices(), after, 0);
      for (size_t v = 0; v < before_seen.size(); ++v) CHECK(!before_seen[v] || after_seen[v]);
    }
  }
}

DYNG_TEST("cycle_enum_batch: counts, stored deletions, non-edge insertions, sorted") {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 60; ++round) {
    const auto g = random_graph(rng, 8 + round % 7, 25, round % 2, round % 3 != 0);
    const edge_set_t edges = edges_of(g);
    gen::cycle_enum_batch_options_t o;
    o.num_deletions = round % 6;
    o.num_insertions = round % 5;
    o.seed = rng();
    if (round % 4 == 0) o.locality_window = 6;
    gen::edge_changes_t<int32_t> b;
    try {
      b = gen::cycle_enum_batch(g, o);
    } catch (const invalid_argument_error&) {
      continue;  // too few candidates in the window
    }
    CHECK(static_cast<int64_t>(b.delete_src.size()) == o.num_deletions);
    CHECK(static_cast<int64_t>(b.insert_src.size()) == o.num_insertions);
    for (size_t i = 0; i < b.delete_src.size(); ++i) {
      CHECK(edges.count({b.delete_src[i], b.delete_dst[i]}) == 1);
      if (i > 0) {
        CHECK(pair_at(b.delete_src, b.delete_dst, i - 1) < pair_at(b.delete_src, b.delete_dst, i));
      }
    }
    for (size_t i = 0; i < b.insert_src.size(); ++i) {
      CHECK(edges.count({b.insert_src[i], b.insert_dst[i]}) == 0);
      CHECK(b.insert_src[i] != b.insert_dst[i]);
      if (i > 0) {
        CHECK(pair_at(b.insert_src, b.insert_dst, i - 1) < pair_at(b.insert_src, b.insert_dst, i));
      }
    }
    const auto again = gen::cycle_enum_batch(g, o);
    CHECK(again.insert_src == b.insert_src && again.insert_dst == b.insert_dst &&
          again.delete_src == b.delete_src && again.delete_dst == b.delete_dst);
  }
}

DYNG_TEST("bad options are refused") {
  const auto g = ring();
  gen::mosp_change_options_t o;
  o.num_changes = -1;
  CHECK(throws_invalid([&] { (void)gen::mosp_changes(g, o); }));
  o.num_changes = 2;
  o.weight_min = 5;
  o.weight_max = 4;
  CHECK(throws_invalid([&] { (void)gen::mosp_changes(g, o); }));
  o.weight_min = 0;
  CHECK(throws_invalid([&] { (void)gen::mosp_changes(g, o); }));
  o.weight_min = 1;
  o.weight_max = 100;
  o.source = 4;
  CHECK(throws_invalid([&] { (void)gen::mosp_changes(g, o); }));

  gen::cycle_enum_batch_options_t c;
  c.num_deletions = 5;  // the ring has 4 edges
  CHECK(throws_invalid([&] { (void)gen::cycle_enum_batch(g, c); }));
  c.num_deletions = 0;
  c.num_insertions = 9;  // and 8 non-edges
  CHECK(throws_invalid([&] { (void)gen::cycle_enum_batch(g, c); }));
  c.num_insertions = -1;
  CHECK(throws_invalid([&] { (void)gen::cycle_enum_batch(g, c); }));
}

}  // namespace

DYNG_TEST_MAIN()
