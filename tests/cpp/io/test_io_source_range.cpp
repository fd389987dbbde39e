// The readers' source range (one rank's shard): the edges kept are the full read's whose source
// lies in the range, over several blocks and threads and across the widening to 64-bit ids, the
// vertex count is the whole file's, and a broken line fails every range alike.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/io/edge_readers.hpp"
#include "io/io_test_util.hpp"

using namespace dyng::io;

namespace {

/// Rows (src, dst, weights, timestamp) of a table, to compare two reads.
struct rows_t {
  std::vector<int64_t> src, dst, stamps;
  std::vector<int32_t> weights;
  bool operator==(const rows_t&) const = default;
};

rows_t rows_of(const edge_table_t& t, source_range_t keep = {}) {
  rows_t r;
  for (int64_t e = 0; e < t.size(); ++e) {
    if (!keep.holds(t.src_at(e))) continue;
    r.src.push_back(t.src_at(e));
    r.dst.push_back(t.dst_at(e));
    for (int j = 0; j < t.num_weights; ++j) r.weights.push_back(t.weights[e * t.num_weights + j]);
    if (t.timed) r.stamps.push_back(t.timestamps[e]);
  }
  return r;
}

/// Several 64 KiB blocks on four threads, so ranges of the parse start and end mid-block.
scan_options_t many_blocks() {
  scan_options_t s;
  s.threads = 4;
  s.exact_team = true;
  s.block_bytes = 1;
  return s;
}

std::string fault_message(auto&& read) {
  try {
    read();
  } catch (const dyng::file_format_error& e) {
    return e.what();
  }
  return "";
}

const std::vector<source_range_t> k_ranges = {{0, 0},         {0, 1000},
                                              {1000, 2000},   {2999, INT64_MAX},
                                              {0, INT64_MAX}, {int64_t{1} << 40, INT64_MAX}};

}  // namespace

DYNG_TEST("edge_list_range_equals_the_full_read_restricted") {
  std::string text = "# ids past 2^32 widen the table part way\n";
  for (int64_t i = 0; i < 40000; ++i) {
    const int64_t u = (i * 7919) % 3001, v = (i * 104729) % 2999;
    text += std::to_string(u) + " " + std::to_string(i % 50 == 0 ? u : v) + " " +
            std::to_string(i % 97) + (i % 3 == 0 ? " " + std::to_string(i % 11) : "") + "\n";
    if (i == 25000) text += "5000000000 7 1\n7 6000000000 2\n";
  }
  const auto p = dyng_test::write_file("range.txt", text);
  for (const bool symmetrize : {false, true})
    for (const bool merge : {false, true}) {
      edge_list_options_t o;
      o.num_weights = 1;
      o.compact = false;
      o.symmetrize = symmetrize;
      o.merge_duplicates = merge;
      o.scan = many_blocks();
      const edge_table_t full = read_edge_list(p, o);
      CHECK_EQ(full.num_vertices, 6000000001);
      for (const source_range_t& range : k_ranges) {
        o.sources = range;
        const edge_table_t part = read_edge_list(p, o);
        CHECK_EQ(part.num_vertices, full.num_vertices);
        CHECK(rows_of(part) == rows_of(full, range));
      }
    }
}

DYNG_TEST("matrix_market_range_keeps_each_direction_by_its_source") {
  std::string text = "%%MatrixMarket matrix coordinate integer skew-symmetric\n3000 3000 30000\n";
  for (int64_t i = 0; i < 30000; ++i) {
    const int64_t a = 1 + (i * 7919) % 3000, b = 1 + (i * 104729) % 3000;
    text += std::to_string(std::max(a, b)) + " " + std::to_string(std::min(a, b)) + " " +
            std::to_string(i % 201 - 100) + "\n";
  }
  const auto p = dyng_test::write_file("range.mtx", text);
  for (const bool sorted : {false, true}) {
    matrix_market_options_t o;
    o.sort_and_dedupe = sorted;
    o.scan = many_blocks();
    const edge_table_t full = read_matrix_market(p, o);
    for (const source_range_t& range : k_ranges) {
      o.sources = range;
      const edge_table_t part = read_matrix_market(p, o);
      CHECK_EQ(part.num_vertices, 3000);
      CHECK(rows_of(part) == rows_of(full, range));
    }
  }
}

DYNG_TEST("a_broken_line_fails_every_range_alike") {
  std::string text;
  for (int i = 0; i < 30000; ++i) text += std::to_string(i % 100) + " " + std::to_string(i) + "\n";
  text += "12 x3\n";
  const auto p = dyng_test::write_file("range_bad.txt", text);
  edge_list_options_t o;
  o.compact = false;
  o.scan = many_blocks();
  const std::string expected = fault_message([&] { read_edge_list(p, o); });
  CHECK(expected.find("range_bad.txt:30001:4:") != std::string::npos);
  for (const source_range_t& range : k_ranges) {
    o.sources = range;
    CHECK_EQ(fault_message([&] { read_edge_list(p, o); }), expected);
  }
}

DYNG_TEST("a_range_is_refused_where_a_part_cannot_be_read") {
  const auto p = dyng_test::write_file("range_ok.txt", "0 1\n");
  edge_list_options_t o;
  o.sources = {0, 1};
  CHECK_THROWS_AS(read_edge_list(p, o), dyng::invalid_argument_error);  // compact ids
  o.compact = false;
  o.sources = {2, 1};
  CHECK_THROWS_AS(read_edge_list(p, o), dyng::invalid_argument_error);
  const auto m = dyng_test::write_file(
      "range_ok.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  matrix_market_options_t mo;
  mo.weights = mm_weights_t::random;
  mo.sources = {0, 1};
  CHECK_THROWS_AS(read_matrix_market(m, mo), dyng::invalid_argument_error);
}

DYNG_TEST_MAIN()
