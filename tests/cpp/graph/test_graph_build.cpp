// Construction: from_edges / from_csr for both orders, directed and undirected, duplicates,
// self-loops, K = 0/1/3, in-edges, to_csr / edges, input validation, and the internal
// from_transposed_csrs against from_edges.
#include <cstdint>
#include <span>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "graph/graph_test_util.hpp"

using namespace graph_test;
using dyng::edge_order_t;

DYNG_TEST("directed sorted: rows sorted, in-edges transposed, counts") {
  auto g = make(4, {{2, 1, {5}}, {0, 3, {1}}, {0, 1, {2}}, {3, 0, {7}}}, props());
  CHECK_EQ(g.num_vertices(), 4);
  CHECK_EQ(g.num_edges(), 4);
  CHECK_EQ(g.num_weights(), 1);
  CHECK_EQ(g.version(), 0u);
  CHECK(g.has_transposed());
  CHECK((row(g.out_view(), 0) == row_t{{1, {2}}, {3, {1}}}));
  CHECK((row(g.out_view(), 2) == row_t{{1, {5}}}));
  CHECK((row(g.in_view(), 1) == row_t{{0, {2}}, {2, {5}}}));
  CHECK((row(g.in_view(), 0) == row_t{{3, {7}}}));
  CHECK(row(g.in_view(), 2).empty());
  g.check_integrity();
  auto csr = g.to_csr();
  CHECK((csr.row_ptr == std::vector<int32_t>{0, 2, 2, 3, 4}));
  CHECK((csr.col == std::vector<int32_t>{1, 3, 1, 0}));
  CHECK((csr.weights == std::vector<int32_t>{2, 1, 5, 7}));
  std::vector<int32_t> s, d, w;
  g.edges(s, d, w);
  CHECK((s == std::vector<int32_t>{0, 0, 2, 3}));
  CHECK((d == std::vector<int32_t>{1, 3, 1, 0}));
  CHECK((w == std::vector<int32_t>{2, 1, 5, 7}));
}

DYNG_TEST("append order keeps input order in out- and in-rows") {
  auto g = make(4, {{0, 3, {1}}, {1, 2, {9}}, {0, 1, {2}}, {3, 2, {4}}, {0, 2, {3}}},
                props(true, 1, edge_order_t::append));
  CHECK((row(g.out_view(), 0) == row_t{{3, {1}}, {1, {2}}, {2, {3}}}));
  CHECK((row(g.in_view(), 2) == row_t{{1, {9}}, {3, {4}}, {0, {3}}}));
  g.check_integrity();
}

DYNG_TEST("duplicates merge: first position, last weight") {
  auto g = make(3, {{0, 2, {1}}, {0, 1, {5}}, {0, 2, {6}}, {0, 1, {7}}},
                props(true, 1, edge_order_t::append));
  CHECK_EQ(g.num_edges(), 2);
  CHECK((row(g.out_view(), 0) == row_t{{2, {6}}, {1, {7}}}));
  CHECK((row(g.in_view(), 1) == row_t{{0, {7}}}));
  g.check_integrity();
}

DYNG_TEST("parallel edges allowed: all copies kept in input order") {
  auto g =
      make(3, {{0, 1, {5}}, {0, 2, {1}}, {0, 1, {7}}}, props(true, 1, edge_order_t::sorted, true));
  CHECK_EQ(g.num_edges(), 3);
  CHECK((row(g.out_view(), 0) == row_t{{1, {5}}, {1, {7}}, {2, {1}}}));
  CHECK((row(g.in_view(), 1) == row_t{{0, {5}}, {0, {7}}}));
  g.check_integrity();
}

DYNG_TEST("undirected: both directions, self-loop once, reversed duplicate merges") {
  auto g = make(3, {{0, 1, {4}}, {2, 2, {3}}, {1, 0, {8}}, {1, 2, {1}}}, props(false));
  CHECK_EQ(g.num_edges(), 5);  // (0,1) x2, (1,2) x2, (2,2) once
  CHECK((row(g.out_view(), 0) == row_t{{1, {8}}}));
  CHECK((row(g.out_view(), 1) == row_t{{0, {8}}, {2, {1}}}));
  CHECK((row(g.out_view(), 2) == row_t{{1, {1}}, {2, {3}}}));
  CHECK((row(g.in_view(), 1) == row(g.out_view(), 1)));
  g.check_integrity();
}

DYNG_TEST("self-loops are kept at construction") {
  auto g = make(2, {{1, 1, {2}}, {0, 1, {1}}}, props());
  CHECK_EQ(g.num_edges(), 2);
  CHECK((row(g.out_view(), 1) == row_t{{1, {2}}}));
  CHECK((row(g.in_view(), 1) == row_t{{0, {1}}, {1, {2}}}));
}

DYNG_TEST("K = 0 and K = 3") {
  auto g0 = make(3, {{0, 1, {}}, {1, 2, {}}}, props(true, 0));
  CHECK_EQ(g0.num_weights(), 0);
  CHECK(g0.out_view().weights == nullptr);
  CHECK(g0.to_csr().weights.empty());
  g0.check_integrity();
  auto g3 = make(3, {{1, 2, {1, 2, 3}}, {0, 1, {4, 5, 6}}, {1, 0, {7, 8, 9}}}, props(true, 3));
  CHECK((row(g3.out_view(), 1) == row_t{{0, {7, 8, 9}}, {2, {1, 2, 3}}}));
  CHECK((row(g3.in_view(), 1) == row_t{{0, {4, 5, 6}}}));
  CHECK((g3.to_csr().weights == std::vector<int32_t>{4, 5, 6, 7, 8, 9, 1, 2, 3}));
  g3.check_integrity();
}

DYNG_TEST("without in-edges in_view throws not_supported_error") {
  auto p = props();
  p.store_transposed = false;
  auto g = make(2, {{0, 1, {1}}}, p);
  CHECK(!g.has_transposed());
  CHECK_THROWS_AS(g.in_view(), dyng::not_supported_error);
  g.check_integrity();
}

DYNG_TEST("from_edges rejects bad input") {
  CHECK_THROWS_AS(make(3, {{0, 3, {1}}}, props()), dyng::invalid_argument_error);
  CHECK_THROWS_AS(make(3, {{-1, 0, {1}}}, props()), dyng::invalid_argument_error);
  CHECK_THROWS_AS(make(3, {{0, 1, {1, 2}}}, props()), dyng::invalid_argument_error);
  CHECK_THROWS_AS(make(-1, {}, props()), dyng::invalid_argument_error);
  CHECK_THROWS_AS(make(3, {}, props(true, 65)), dyng::invalid_argument_error);
  CHECK_THROWS_AS(make(3, {}, props(true, -1)), dyng::invalid_argument_error);
  auto p = props();
  p.headroom = -0.5;
  CHECK_THROWS_AS(make(3, {}, p), dyng::invalid_argument_error);
  std::vector<int32_t> s{0, 1}, d{1};
  std::vector<int32_t> w{1, 1};
  CHECK_THROWS_AS(g32_t::from_edges(3, s, d, w, props()), dyng::invalid_argument_error);
  try {
    make(3, {{0, 1, {1}}, {2, -5, {1}}}, props());
    CHECK(false);
  } catch (const dyng::invalid_argument_error& e) {
    const std::string msg = e.what();
    CHECK(msg.find("Graph.from_edges()") == 0);
    CHECK(msg.find("edge 1") != std::string::npos);
    CHECK(msg.find("-5") != std::string::npos);
  }
}

DYNG_TEST("empty graphs") {
  auto g = make(0, {}, props());
  CHECK_EQ(g.num_vertices(), 0);
  CHECK_EQ(g.num_edges(), 0);
  CHECK_EQ(g.to_csr().row_ptr.size(), 1u);
  g.check_integrity();
  auto h = make(5, {}, props(false));
  CHECK_EQ(h.num_edges(), 0);
  h.check_integrity();
}

DYNG_TEST("from_csr: sorts, merges, builds in-edges; round-trips to_csr") {
  std::vector<int32_t> rp{0, 3, 3, 5};
  std::vector<int32_t> col{2, 1, 2, 0, 0};
  std::vector<int32_t> w{1, 2, 3, 4, 5};
  auto g = g32_t::from_csr(rp, col, w, props());
  CHECK_EQ(g.num_vertices(), 3);
  CHECK_EQ(g.num_edges(), 3);
  CHECK((row(g.out_view(), 0) == row_t{{1, {2}}, {2, {3}}}));  // (0,2) keeps last weight 3
  CHECK((row(g.out_view(), 2) == row_t{{0, {5}}}));
  CHECK((row(g.in_view(), 0) == row_t{{2, {5}}}));
  g.check_integrity();
  auto csr = g.to_csr();
  auto h = g32_t::from_csr(csr.row_ptr, csr.col, csr.weights, props());
  CHECK(same_csr(h.to_csr(), csr));
}

DYNG_TEST("from_csr append order keeps the CSR's row order") {
  std::vector<int32_t> rp{0, 2, 3};
  std::vector<int32_t> col{1, 0, 0};
  std::vector<int32_t> w{7, 8, 9};
  auto g = g32_t::from_csr(rp, col, w, props(true, 1, edge_order_t::append));
  CHECK((row(g.out_view(), 0) == row_t{{1, {7}}, {0, {8}}}));
  CHECK((row(g.in_view(), 0) == row_t{{0, {8}}, {1, {9}}}));
}

DYNG_TEST("from_csr undirected: symmetric accepted, asymmetric rejected") {
  std::vector<int32_t> rp{0, 1, 3, 4};
  std::vector<int32_t> col{1, 0, 2, 1};
  std::vector<int32_t> w{4, 4, 6, 6};
  auto g = g32_t::from_csr(rp, col, w, props(false));
  CHECK_EQ(g.num_edges(), 4);
  g.check_integrity();
  std::vector<int32_t> w_bad{4, 5, 6, 6};
  CHECK_THROWS_AS(g32_t::from_csr(rp, col, w_bad, props(false)), dyng::invalid_argument_error);
  std::vector<int32_t> rp2{0, 1, 1, 1};
  std::vector<int32_t> col2{1};
  std::vector<int32_t> w2{1};
  CHECK_THROWS_AS(g32_t::from_csr(rp2, col2, w2, props(false)), dyng::invalid_argument_error);
}

DYNG_TEST("from_csr rejects malformed CSRs") {
  std::vector<int32_t> w{1, 1};
  std::vector<int32_t> col{1, 0};
  std::vector<int32_t> empty;
  CHECK_THROWS_AS(g32_t::from_csr(empty, empty, empty, props()), dyng::invalid_argument_error);
  std::vector<int32_t> not_mono{0, 2, 1, 2};
  CHECK_THROWS_AS(g32_t::from_csr(not_mono, col, w, props()), dyng::invalid_argument_error);
  std::vector<int32_t> wrong_end{0, 1, 3};
  CHECK_THROWS_AS(g32_t::from_csr(wrong_end, col, w, props()), dyng::invalid_argument_error);
  std::vector<int32_t> nonzero_start{1, 1, 2};
  CHECK_THROWS_AS(g32_t::from_csr(nonzero_start, col, w, props()), dyng::invalid_argument_error);
  std::vector<int32_t> rp{0, 1, 2};
  std::vector<int32_t> col_out{1, 2};
  CHECK_THROWS_AS(g32_t::from_csr(rp, col_out, w, props()), dyng::invalid_argument_error);
  std::vector<int32_t> w_short{1};
  CHECK_THROWS_AS(g32_t::from_csr(rp, col, w_short, props()), dyng::invalid_argument_error);
}

DYNG_TEST("all three type combinations build the same graph") {
  const std::vector<lit_edge_t> edges{{0, 1, {3}}, {1, 2, {4}}, {2, 0, {5}}, {0, 2, {6}}};
  auto a = make<dyng::graph_t<int32_t, int32_t>>(3, edges, props());
  auto b = make<dyng::graph_t<int32_t, int64_t>>(3, edges, props());
  auto c = make<dyng::graph_t<int64_t, int64_t>>(3, edges, props());
  CHECK((row(a.out_view(), 0) == row(b.out_view(), 0)));
  CHECK((row(a.out_view(), 0) == row(c.out_view(), 0)));
  CHECK((row(a.in_view(), 2) == row(c.in_view(), 2)));
  b.check_integrity();
  c.check_integrity();
}

DYNG_TEST("rows get spare slots: capacity exceeds the edge count") {
  auto g = make(3, {{0, 1, {1}}, {0, 2, {1}}, {1, 2, {1}}}, props());
  CHECK(g.slot_capacity() > static_cast<int64_t>(g.num_edges()));
  CHECK_EQ(g.relayout_count(), 0);
}

DYNG_TEST("from_transposed_csrs lays out what from_edges builds from the same edges") {
  // Rows of every size, isolated vertices, K = 2; the edge list is in CSR order without repeats.
  const std::vector<lit_edge_t> edges{{0, 1, {3, 1}}, {0, 4, {2, 2}}, {0, 6, {1, 9}},
                                      {2, 0, {5, 5}}, {2, 6, {4, 4}}, {4, 4, {7, 1}},
                                      {6, 0, {8, 8}}, {6, 2, {6, 3}}, {6, 4, {2, 2}}};
  auto expected = make(8, edges, props(true, 2));
  const auto out = expected.to_csr();
  dyng::csr_t<int32_t, int32_t> in;
  in.num_weights = 2;
  in.row_ptr.push_back(0);
  for (int32_t v = 0; v < 8; ++v) {
    for (const auto& [u, w] : row(expected.in_view(), v)) {
      in.col.push_back(u);
      in.weights.insert(in.weights.end(), w.begin(), w.end());
    }
    in.row_ptr.push_back(static_cast<int32_t>(in.col.size()));
  }
  auto g = g32_t::from_transposed_csrs(out, in, props(true, 2));
  g.check_integrity();
  CHECK_EQ(g.num_vertices(), 8);
  CHECK_EQ(g.num_edges(), expected.num_edges());
  CHECK_EQ(g.slot_capacity(), expected.slot_capacity());
  CHECK_EQ(g.in_slot_capacity(), expected.in_slot_capacity());
  for (int32_t v = 0; v < 8; ++v) {
    CHECK((row(g.out_view(), v) == row(expected.out_view(), v)));
    CHECK((row(g.in_view(), v) == row(expected.in_view(), v)));
  }
  // An edit afterwards finds the headroom from_edges would have left.
  const std::vector<int32_t> src{1}, dst{3}, w{1, 1};
  g.apply({src, dst, w, 2, {}, {}});
  g.check_integrity();
  CHECK_EQ(g.relayout_count(), 0);
  auto short_in = in;
  short_in.col.pop_back();
  CHECK_THROWS_AS(g32_t::from_transposed_csrs(out, short_in, props(true, 2)), dyng::internal_error);
  CHECK_THROWS_AS(g32_t::from_transposed_csrs(out, in, props(false, 2)), dyng::internal_error);
}

DYNG_TEST_MAIN()
