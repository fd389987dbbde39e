// Line breaks: LF, CR LF and a bare CR end a line alike in every reader, wherever the block
// reader cuts the file, on one thread or several, and line numbers count every kind of break.
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/io/edge_readers.hpp"
#include "dyng/io/text_blocks.hpp"
#include "io/io_test_util.hpp"

using dyng::file_format_error;
using namespace dyng::io;

namespace {

/// The text the parsers see and the line count when `path` is scanned in 64 KiB blocks.
std::pair<std::string, int64_t> scanned(const std::string& path, int threads) {
  scan_options_t o;
  o.threads = threads;
  o.exact_team = true;
  o.block_bytes = 1;  // rounded up to 64 KiB
  std::string seen;
  const int64_t lines = scan_text_file(
      path, "test", o, header_parser_t{}, row_store_t{},
      [](const text_range_t&, fault_t&) -> int64_t { return 0; },
      [&seen](const text_range_t& r, int64_t, int64_t, fault_t&) { seen.append(r.begin, r.end); });
  return {seen, lines};
}

/// `text` with every bare CR made an LF, and its line count: what the scanner must hand on.
std::pair<std::string, int64_t> settled(std::string text) {
  int64_t lines = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
    lines += text[i] == '\n';
  }
  if (!text.empty() && text.back() != '\n') ++lines;
  return {text, lines};
}

std::pair<int64_t, int64_t> fault_of(const std::string& path, const edge_list_options_t& o) {
  try {
    read_edge_list(path, o);
  } catch (const file_format_error& e) {
    return {e.line(), e.column()};
  }
  return {-1, -1};
}

}  // namespace

DYNG_TEST("a_cr_at_a_block_end_is_settled_by_the_next_byte") {
  // The first read of a 64 KiB block ends at byte 65536: a CR there is bare or the start of a
  // CR LF, which only the next read shows.
  const size_t block = size_t{64} << 10;
  for (const std::string next : {"\n", "7", "\r"}) {
    std::string text;
    while (text.size() < block - 8) text += "12 34\n";
    text.resize(block - 1, '5');
    text += "\r" + next + "8 9\r\r\n10 11\r";
    const auto p = dyng_test::write_file("cr_edge.txt", text);
    for (const int threads : {1, 2}) CHECK(scanned(p, threads) == settled(text));
  }
}

DYNG_TEST("runs_of_cr_and_lf_settle_like_the_reference") {
  // Every arrangement of CR, LF and other bytes, across the 16-byte steps of the vector pass
  // and its byte-by-byte tail.
  std::mt19937_64 rng(23);
  for (int i = 0; i < 400; ++i) {
    std::string text(rng() % 90, 'x');
    for (char& c : text) c = "\r\n\rx"[rng() % 4];
    const auto p = dyng_test::write_file("runs.txt", text);
    CHECK(scanned(p, 1) == settled(text));
  }
}

DYNG_TEST("mixed_line_breaks_read_like_lf") {
  std::mt19937_64 rng(17);
  std::string mixed, lf;
  const char* breaks[] = {"\n", "\r\n", "\r"};
  for (int i = 0; i < 60000; ++i) {
    const std::string line = i % 50 == 0 ? std::string("# a comment")
                                         : std::to_string(rng() % 4000) + " " +
                                               std::to_string(rng() % 4000) + " " +
                                               std::to_string(1 + rng() % 90);
    mixed += line + breaks[rng() % 3];
    lf += line + "\n";
  }
  const auto p = dyng_test::write_file("mixed.txt", mixed);
  const auto q = dyng_test::write_file("lf.txt", lf);
  CHECK(scanned(p, 3) == settled(mixed));
  edge_list_options_t o;
  o.num_weights = 1;
  o.scan.threads = 1;
  const edge_table_t want = read_edge_list(q, o);
  CHECK(want.size() > 50000);
  o.scan.threads = 3;
  o.scan.exact_team = true;
  o.scan.block_bytes = 1;
  const edge_table_t got = read_edge_list(p, o);
  CHECK(dyng_test::srcs(got) == dyng_test::srcs(want));
  CHECK(dyng_test::dsts(got) == dyng_test::dsts(want));
  CHECK(dyng_test::values(got.weights) == dyng_test::values(want.weights));
}

DYNG_TEST("a_comment_ended_by_a_bare_cr_keeps_the_next_line") {
  // 0.2.0 read this file as an empty graph: the comment ran to the file's only LF.
  const auto p = dyng_test::write_file("cr_only.txt", "# header\r0 1\r1 2\r");
  edge_list_options_t o;
  const edge_table_t t = read_edge_list(p, o);
  CHECK(dyng_test::srcs(t) == (std::vector<int64_t>{0, 1}));
  CHECK(dyng_test::dsts(t) == (std::vector<int64_t>{1, 2}));
  const auto m = dyng_test::write_file(
      "cr_only.mtx", "%%MatrixMarket matrix coordinate pattern general\r% c\r3 3 2\r1 2\r3 1");
  CHECK_EQ(read_matrix_market(m, matrix_market_options_t{}).size(), 2);
}

DYNG_TEST("line_numbers_count_bare_cr_breaks") {
  std::string text;
  for (int i = 0; i < 40000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\r";
  text += "7 x\r";
  const auto p = dyng_test::write_file("cr_fault.txt", text);
  edge_list_options_t o;
  o.scan.threads = 3;
  o.scan.exact_team = true;
  o.scan.block_bytes = 1;
  CHECK(fault_of(p, o) == std::make_pair(int64_t{40001}, int64_t{3}));
  // A CR inside a line ends it: "0\r1" is two lines of one field each.
  CHECK(fault_of(dyng_test::write_file("cr_split.txt", "0 1\n2\r3\n"), edge_list_options_t{}) ==
        std::make_pair(int64_t{2}, int64_t{2}));
}

DYNG_TEST_MAIN()
