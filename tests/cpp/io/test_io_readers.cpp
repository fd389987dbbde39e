// The edge-list and Matrix Market readers: semantics of section 7, the first fault's line and
// column, and results that do not depend on the block size or the thread count.
#include <climits>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/io/edge_readers.hpp"
#include "dyng/io/real_token.hpp"
#include "io/io_test_util.hpp"

using dyng::file_format_error;
using namespace dyng::io;

namespace {

edge_list_options_t options(int k) {
  edge_list_options_t o;
  o.num_weights = k;
  return o;
}

/// The (line, column) of the file_format_error that reading `path` throws; (-1, -1) if none.
template <class read_fn>
std::pair<int64_t, int64_t> fault_of(read_fn&& read) {
  try {
    read();
  } catch (const file_format_error& e) {
    return {e.line(), e.column()};
  }
  return {-1, -1};
}

}  // namespace

DYNG_TEST("edge_list_compacts_merges_last_and_sorts") {
  const auto p = dyng_test::write_file("a.txt", "# c\n5 3 7\n1 2 4\n5 3 9\n3,5\t1\n% x\n1 1 3\n");
  const edge_table_t t = read_edge_list(p, options(1));
  CHECK_EQ(t.num_vertices, 4);
  CHECK(dyng_test::srcs(t) == (std::vector<int64_t>{0, 2, 3}));
  CHECK(dyng_test::dsts(t) == (std::vector<int64_t>{1, 3, 2}));
  CHECK(dyng_test::values(t.weights) == (std::vector<int32_t>{4, 1, 9}));
  CHECK(t.external_ids == (std::vector<int64_t>{1, 2, 3, 5}));
}

DYNG_TEST("edge_list_keep_orders_duplicates_by_timestamp") {
  const auto p = dyng_test::write_file("ts.txt", "0 1 5 10\n0 1 7 3\n2 3 1 -5\n2 3 2 -9\n");
  edge_list_options_t o = options(1);
  o.merge_duplicates = false;
  const edge_table_t keep = read_edge_list(p, o);
  CHECK(dyng_test::values(keep.weights) == (std::vector<int32_t>{7, 5, 2, 1}));
  CHECK(dyng_test::values(keep.timestamps) == (std::vector<int64_t>{3, 10, -9, -5}));
  const edge_table_t merged = read_edge_list(p, options(1));
  CHECK(dyng_test::values(merged.weights) ==
        (std::vector<int32_t>{7, 2}));  // the last line read wins
}

DYNG_TEST("edge_list_as_is_symmetrize_keeps_one_self_loop") {
  const auto p = dyng_test::write_file("s.txt", "2 1\n1 1\n");
  edge_list_options_t o = options(0);
  o.compact = false;
  o.index_base = 1;
  o.symmetrize = true;
  o.drop_self_loops = false;
  const edge_table_t t = read_edge_list(p, o);
  CHECK_EQ(t.num_vertices, 2);
  CHECK(dyng_test::srcs(t) == (std::vector<int64_t>{0, 0, 1}));
  CHECK(dyng_test::dsts(t) == (std::vector<int64_t>{0, 1, 0}));
}

DYNG_TEST("sparse_ids_take_the_sorting_path") {
  const auto p = dyng_test::write_file("sparse.txt", "1000000000000 7\n-5 1000000000000\n");
  const edge_table_t t = read_edge_list(p, options(0));
  CHECK(t.external_ids == (std::vector<int64_t>{-5, 7, 1000000000000}));
  CHECK(dyng_test::srcs(t) == (std::vector<int64_t>{0, 2}));
  CHECK(dyng_test::dsts(t) == (std::vector<int64_t>{2, 1}));
}

DYNG_TEST("sparse_as_is_ids_take_the_radix_paths") {
  // n = max id + 1 is far above the edge count: no row buckets. The first file needs two
  // radix passes (ids wider than 32 bits), the second one combined key.
  for (const std::string big : {"1000000000000", "5000000"}) {
    const auto p = dyng_test::write_file("r.txt", big + " 3\n2 " + big + "\n" + big + " 3\n2 1\n");
    edge_list_options_t o = options(0);
    o.compact = false;
    o.merge_duplicates = false;
    const edge_table_t t = read_edge_list(p, o);
    const int64_t b = std::stoll(big);
    CHECK_EQ(t.num_vertices, b + 1);
    CHECK(dyng_test::srcs(t) == (std::vector<int64_t>{2, 2, b, b}));
    CHECK(dyng_test::dsts(t) == (std::vector<int64_t>{1, b, 3, 3}));
    o.merge_duplicates = true;
    CHECK_EQ(read_edge_list(p, o).size(), 3);
  }
}

DYNG_TEST("block_size_and_threads_do_not_change_the_result") {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += std::to_string((i * 7919) % 3001) + " " + std::to_string((i * 104729) % 2999) + " " +
            std::to_string(i % 97) + "\n";
  const auto p = dyng_test::write_file("big.txt", text);
  edge_list_options_t one = options(1);
  one.scan.threads = 1;
  const edge_table_t a = read_edge_list(p, one);
  edge_list_options_t many = options(1);
  many.scan.threads = 4;
  many.scan.exact_team = true;
  many.scan.block_bytes = 1;  // rounded up to the 64 KiB minimum: several blocks
  const edge_table_t b = read_edge_list(p, many);
  CHECK(dyng_test::srcs(a) == dyng_test::srcs(b));
  CHECK(dyng_test::dsts(a) == dyng_test::dsts(b));
  CHECK(dyng_test::values(a.weights) == dyng_test::values(b.weights));
  CHECK(a.external_ids == b.external_ids);
}

DYNG_TEST("a_line_longer_than_a_block_grows_the_buffer") {
  // 300 KiB of comment on one line, blocks of the 64 KiB minimum: the reader must carry the
  // partial line over several reads and still count lines right.
  const std::string text = "0 1\n#" + std::string(300 << 10, 'x') + "\n2 3\n4 y\n";
  const auto p = dyng_test::write_file("long.txt", text);
  edge_list_options_t o = options(0);
  o.scan.block_bytes = 1;
  CHECK(fault_of([&] { read_edge_list(p, o); }) == std::make_pair(int64_t{4}, int64_t{3}));
  const auto q = dyng_test::write_file("long_ok.txt", text.substr(0, text.size() - 4));
  CHECK_EQ(read_edge_list(q, o).size(), 2);
}

DYNG_TEST("first_fault_names_line_and_column_across_blocks") {
  std::string text;
  for (int i = 0; i < 30000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  text += "12 x3\n";
  for (int i = 0; i < 30000; ++i) text += "1 2 3 4\n";  // also bad, but later
  const auto p = dyng_test::write_file("bad.txt", text);
  edge_list_options_t o = options(0);
  o.scan.threads = 3;
  o.scan.exact_team = true;
  o.scan.block_bytes = 1;
  CHECK(fault_of([&] { read_edge_list(p, o); }) == std::make_pair(int64_t{30001}, int64_t{4}));
}

DYNG_TEST("edge_list_faults") {
  auto at = [](const std::string& text, int k) {
    const auto p = dyng_test::write_file("f.txt", text);
    return fault_of([&] { read_edge_list(p, options(k)); });
  };
  CHECK(at("0 1\n1\n", 0) == std::make_pair(int64_t{2}, int64_t{2}));
  CHECK(at("0 1 2147483648\n", 1) == std::make_pair(int64_t{1}, int64_t{5}));
  CHECK(at("0 1 1 1 1\n", 1) == std::make_pair(int64_t{1}, int64_t{9}));
  CHECK(at("0 -\n", 0) == std::make_pair(int64_t{1}, int64_t{3}));
  CHECK(at("0 1\r\n2 3 4\r\n5 6 7 8\r\n", 0) == std::make_pair(int64_t{3}, int64_t{7}));
  CHECK_THROWS_AS(read_edge_list(dyng_test::scratch_dir() + "/missing.txt", options(0)),
                  file_format_error);
}

DYNG_TEST("as_is_ids_whose_vertex_count_would_wrap_are_faults") {
  // ids="as_is" makes id - index_base + 1 vertices: 2^63 - 1 made the count wrap negative
  // (and an int32 read of it gave target -1), a negative index_base wrapped the ids.
  auto at = [](const std::string& text, int64_t base) {
    edge_list_options_t o;
    o.compact = false;
    o.index_base = base;
    return fault_of([&] { read_edge_list(dyng_test::write_file("wrap.txt", text), o); });
  };
  const auto none = std::make_pair(int64_t{-1}, int64_t{-1});
  CHECK(at("0 9223372036854775807\n", 0) == std::make_pair(int64_t{1}, int64_t{3}));
  CHECK(at("0 9223372036854775806\n", 0) == none);
  CHECK(at("0 9223372036854775806\n", -1) == std::make_pair(int64_t{1}, int64_t{3}));
  CHECK(at("0 1\n", INT64_MIN) == std::make_pair(int64_t{1}, int64_t{1}));
  // Below k_min_plain_index_base the plain-line reader (18 digits) is left out: its ids could
  // pass the limit unchecked.
  CHECK(at("999999999999999999 1\n", -8300000000000000000) ==
        std::make_pair(int64_t{1}, int64_t{1}));
  CHECK(at("5 6\n", -4000000000000000000) == none);
  edge_list_options_t o;
  o.compact = false;
  o.index_base = -1;
  const edge_table_t t =
      read_edge_list(dyng_test::write_file("top.txt", "-1 9223372036854775805\n"), o);
  CHECK_EQ(t.num_vertices, INT64_MAX);
  CHECK(dyng_test::dsts(t) == std::vector<int64_t>{INT64_MAX - 1});
}

DYNG_TEST("matrix_market_symmetric_and_random_weights") {
  const auto p = dyng_test::write_file(
      "s.mtx",
      "%%MatrixMarket matrix coordinate integer symmetric\n% c\n4 4 4\n2 1 5\n3 1 6\n"
      "4 4 2\n4 2 8\n");
  matrix_market_options_t o;
  const edge_table_t t = read_matrix_market(p, o);
  CHECK(dyng_test::srcs(t) == (std::vector<int64_t>{0, 0, 1, 1, 2, 3}));
  CHECK(dyng_test::dsts(t) == (std::vector<int64_t>{1, 2, 0, 3, 0, 1}));
  CHECK(dyng_test::values(t.weights) == (std::vector<int32_t>{5, 6, 5, 8, 6, 8}));
  o.weights = mm_weights_t::random;  // (1, 100, 12345): 0.2.0 and mospPrep give these
  CHECK(dyng_test::values(read_matrix_market(p, o).weights) ==
        (std::vector<int32_t>{93, 90, 32, 14, 19, 4}));
  o.sort_and_dedupe = false;
  o.drop_self_loops = false;
  const edge_table_t raw = read_matrix_market(p, o);
  CHECK(dyng_test::srcs(raw) == (std::vector<int64_t>{1, 0, 2, 0, 3, 3, 1}));
}

DYNG_TEST("matrix_market_variants_that_0_2_read") {
  matrix_market_options_t o;
  auto read = [&o](const std::string& text) {
    return read_matrix_market(dyng_test::write_file("v.mtx", text), o);
  };
  // Skew-symmetric: the mirror's value is negated (0.2.0's arrays).
  edge_table_t t =
      read("%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 4\n3 2 5\n");
  CHECK(dyng_test::srcs(t) == (std::vector<int64_t>{0, 1, 1, 2}));
  CHECK(dyng_test::dsts(t) == (std::vector<int64_t>{1, 0, 2, 1}));
  CHECK(dyng_test::values(t.weights) == (std::vector<int32_t>{-4, 4, -5, 5}));
  // Hermitian and complex: values checked, skipped; banner words in any case.
  o.weights = mm_weights_t::none;
  t = read("%%matrixmarket MATRIX coordinate Complex HERMITIAN\n3 3 2\n2 1 4 -1.5e3\n3 3 5 nan\n");
  CHECK(dyng_test::srcs(t) == (std::vector<int64_t>{0, 1}));
  CHECK_EQ(t.num_weights, 0);
  o.weights = mm_weights_t::automatic;
  t = read("%%MatrixMarket matrix coordinate integer hermitian\n3 3 1\n2 1 4\n");
  CHECK(dyng_test::values(t.weights) == (std::vector<int32_t>{4, 4}));
  // The edge-list reader reads a Matrix Market file's ids, and checks its values as well.
  edge_list_options_t e;
  CHECK_EQ(read_edge_list(dyng_test::write_file("v.mtx",
                                                "%%MatrixMarket matrix coordinate "
                                                "complex skew-symmetric\n3 3 1\n2 1 4 1\n"),
                          e)
               .size(),
           2);
  CHECK(fault_of([&] {
          read_edge_list(dyng_test::write_file("v.mtx",
                                               "%%MatrixMarket matrix coordinate "
                                               "integer general\n3 3 1\n2 1 #\n"),
                         e);
        }) == std::make_pair(int64_t{3}, int64_t{5}));
}

DYNG_TEST("real_tokens_are_what_from_chars_reads") {
  for (const char* good :
       {"0", "-7", "+7", "1.", ".5", "1.5e-3", "2E+10", "inf", "-Infinity", "NaN", "nan(x_1)",
        "0e99999", "1e-310", "1.7976931348623157e308", "2.4703282292062328e-324", "-0.0"})
    CHECK(is_real_number(good));
  for (const char* bad :
       {"", "-", ".", "e5", "1e", "1e+", "1.2.3", "0x1p3", "1e999", "1e-400",
        "1.7976931348623159e308", "2.4703282292062327e-324", "infx", "nan(-)", "1,5", "#", "5\x01"})
    CHECK(!is_real_number(bad));
}

DYNG_TEST("matrix_market_faults") {
  auto at = [](const std::string& text) {
    const auto p = dyng_test::write_file("f.mtx", text);
    return fault_of([&] { read_matrix_market(p, matrix_market_options_t{}); });
  };
  const std::string banner = "%%MatrixMarket matrix coordinate integer general\n";
  CHECK(at(banner + "2 3 1\n1 2 5\n") == std::make_pair(int64_t{2}, int64_t{3}));
  CHECK(at(banner + "2 2 2\n1 2 5\n") == std::make_pair(int64_t{4}, int64_t{0}));
  CHECK(at(banner + "2 2 1\n1 2 5\n2 1 3\n") == std::make_pair(int64_t{4}, int64_t{0}));
  CHECK(at(banner + "2 2 1\n0 2 5\n") == std::make_pair(int64_t{3}, int64_t{1}));
  CHECK(at("%%MatrixMarket matrix array integer general\n") ==
        std::make_pair(int64_t{1}, int64_t{23}));
  CHECK(at("") == std::make_pair(int64_t{1}, int64_t{0}));
}

DYNG_TEST_MAIN()
