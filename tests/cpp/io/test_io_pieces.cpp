// The edge-list reader's inner pieces on their own: the plain-line reader against line_cursor,
// the line counter, the id bitmap, compaction of narrow and wide tables, and a reader that has
// to widen its ids or close gaps part way through a file.
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"
#include "dyng/io/edge_readers.hpp"
#include "dyng/io/edge_steps.hpp"
#include "dyng/io/id_ranks.hpp"
#include "dyng/io/plain_lines.hpp"
#include "dyng/io/text_blocks.hpp"
#include "io/io_test_util.hpp"

using namespace dyng::io;

namespace {

/// A random line: mostly plain, often with one of the shapes the plain reader must refuse.
std::string random_line(std::mt19937_64& rng, int fields) {
  static const std::string k_odd[] = {" ", "  ", "\t", ",",    "\r",  "-",
                                      "+", "x",  "#",  "\xfa", "\xff"};
  std::string s;
  const int count = rng() % 10 == 0 ? fields + static_cast<int>(rng() % 3) - 1 : fields;
  for (int j = 0; j < count; ++j) {
    if (j > 0) s += rng() % 20 == 0 ? k_odd[rng() % 11] : std::string(1, " \t,"[rng() % 3]);
    if (rng() % 30 == 0) s += k_odd[rng() % 11];
    const int digits =
        rng() % 10 == 0 ? static_cast<int>(rng() % 21) : 1 + static_cast<int>(rng() % 9);
    for (int d = 0; d < digits; ++d) s += static_cast<char>('0' + rng() % 10);
  }
  if (rng() % 30 == 0) s += k_odd[rng() % 11];
  return s + "\n";
}

}  // namespace

DYNG_TEST("plain_lines_agree_with_line_cursor") {
  std::mt19937_64 rng(7);
  int accepted = 0;
  for (int i = 0; i < 200000; ++i) {
    const int fields = 1 + static_cast<int>(rng() % 4);
    const std::string line = random_line(rng, fields);
    std::string buffer = line + std::string(k_read_slack, '7');  // digits past the end
    uint64_t plain[4] = {};
    const char* next = read_plain_line(buffer.data(), fields, plain);
    if (next == nullptr) continue;
    ++accepted;
    CHECK(next == buffer.data() + line.size());
    line_cursor c(buffer.data(), buffer.data() + line.size() - 1);
    for (int j = 0; j < fields; ++j) {
      int64_t v = -1;
      std::string_view tok;
      CHECK(c.next_int64(v, tok));
      CHECK_EQ(static_cast<uint64_t>(v), plain[j]);
    }
    CHECK(c.at_end());
  }
  CHECK(accepted > 60000);  // many random lines are plain: the fast path is what was tested
}

DYNG_TEST("leading_digits_and_their_value") {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    char bytes[8];
    const int count = static_cast<int>(rng() % 9);
    uint64_t value = 0;
    for (int j = 0; j < 8; ++j) {
      if (j < count) {
        bytes[j] = static_cast<char>('0' + rng() % 10);
        value = value * 10 + static_cast<uint64_t>(bytes[j] - '0');
      } else {
        do bytes[j] = static_cast<char>(rng() % 256);
        while (j == count && bytes[j] >= '0' && bytes[j] <= '9');
      }
    }
    const uint64_t x = load_word(bytes);
    CHECK_EQ(leading_digits(x), count);
    if (count > 0) CHECK_EQ(digits_value(x, count), value);
  }
}

DYNG_TEST("count_lines_counts_breaks_and_an_open_last_line_and_sees_a_cr") {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    // Some past 255 16-byte steps, where the vector counters are folded.
    std::string s(rng() % (i % 10 == 0 ? 10000 : 100), 'a');
    for (char& c : s) c = rng() % 4 == 0 ? '\n' : static_cast<char>(rng() % 256);
    const auto breaks = static_cast<int64_t>(std::count(s.begin(), s.end(), '\n'));
    const int64_t open = !s.empty() && s.back() != '\n' ? 1 : 0;
    CHECK_EQ(count_lines(s.data(), s.data() + s.size()), breaks + open);
    bool cr = false;
    count_lines(s.data(), s.data() + s.size(), &cr);
    CHECK_EQ(cr, s.find('\r') != std::string::npos);
  }
}

DYNG_TEST("id_ranks_are_positions_among_the_sorted_ids") {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 50; ++round) {
    const int64_t lo = static_cast<int64_t>(rng() % 1000) - 500;
    const uint64_t span = 1 + rng() % 5000;
    id_ranks_t a(lo, span), b(lo, span);
    std::vector<int64_t> ids;
    for (int i = 0; i < 300; ++i) {
      const int64_t id = lo + static_cast<int64_t>(rng() % span);
      ids.push_back(id);
      (i % 2 == 0 ? a : b).add(id);
    }
    a.add_all(b, 0, a.words());
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    CHECK_EQ(a.count_ranks(), static_cast<int64_t>(ids.size()));
    for (size_t r = 0; r < ids.size(); ++r) CHECK_EQ(a.rank(ids[r]), static_cast<uint32_t>(r));
    std::vector<int64_t> listed(ids.size());
    a.list(listed.data(), 0, a.words());
    CHECK(listed == ids);
  }
}

DYNG_TEST("compaction_of_wide_ids_leaves_a_narrow_table") {
  const int64_t big = int64_t{1} << 40;
  // Ids within a small span (the bitmap) and far apart (the sort).
  for (const int64_t low : {big + 1, int64_t{-3}}) {
    edge_table_t t;
    t.wide = true;
    const std::vector<int64_t> s{big + 5, low, big + 5}, d{big + 2, big + 5, low};
    t.resize(3);
    for (int e = 0; e < 3; ++e) {
      t.src64[e] = s[e];
      t.dst64[e] = d[e];
    }
    compact_ids(t, 2);
    CHECK(!t.wide);
    CHECK_EQ(t.num_vertices, 3);
    CHECK(t.external_ids == (std::vector<int64_t>{low, big + 2, big + 5}));
    CHECK(dyng_test::srcs(t) == (std::vector<int64_t>{2, 0, 2}));
    CHECK(dyng_test::dsts(t) == (std::vector<int64_t>{1, 2, 0}));
  }
}

DYNG_TEST("an_id_past_32_bits_late_in_the_file_widens_the_table") {
  std::string text;
  for (int i = 0; i < 40000; ++i)
    text += std::to_string(i % 977) + " " + std::to_string((i * 31) % 1009) + " " +
            std::to_string(i % 50) + "\n";
  text += "4294967296 3 7\n12 4294967297 8\n";
  for (int i = 0; i < 20000; ++i) text += std::to_string(i % 13) + " 4294967300 1\n";
  const auto p = dyng_test::write_file("wide.txt", text);
  for (const bool compact : {true, false}) {
    edge_list_options_t one;
    one.num_weights = 1;
    one.compact = compact;
    one.scan.threads = 1;
    edge_list_options_t many = one;
    many.scan.threads = 3;
    many.scan.exact_team = true;
    many.scan.block_bytes = 1;  // 64 KiB blocks: the widening happens part way through
    const edge_table_t a = read_edge_list(p, one);
    const edge_table_t b = read_edge_list(p, many);
    CHECK_EQ(a.wide, !compact);
    CHECK(dyng_test::srcs(a) == dyng_test::srcs(b));
    CHECK(dyng_test::dsts(a) == dyng_test::dsts(b));
    CHECK(dyng_test::values(a.weights) == dyng_test::values(b.weights));
    CHECK(a.external_ids == b.external_ids);
    if (compact) {
      CHECK_EQ(a.external_ids.back(), int64_t{4294967300});
    } else {
      CHECK_EQ(a.num_vertices, int64_t{4294967301});
      CHECK_EQ(a.src_at(a.size() - 1), int64_t{4294967296});
    }
  }
}

DYNG_TEST("comments_and_self_loops_leave_gaps_that_the_commit_closes") {
  std::string text;
  std::mt19937_64 rng(9);
  for (int i = 0; i < 60000; ++i) {
    const uint64_t r = rng() % 10;
    if (r == 0) text += "# a comment\n";
    else if (r == 1) text += "5 5 3\n";
    else if (r == 2) text += "\n";
    else
      text += std::to_string(rng() % 5000) + " " + std::to_string(rng() % 5000) + " 2" +
              (r < 6 ? " " + std::to_string(rng() % 100) : std::string()) + "\n";
  }
  const auto p = dyng_test::write_file("gaps.txt", text);
  edge_list_options_t one;
  one.num_weights = 1;
  one.merge_duplicates = false;  // timestamps too
  one.scan.threads = 1;
  edge_list_options_t many = one;
  many.scan.threads = 4;
  many.scan.exact_team = true;
  many.scan.block_bytes = 1;
  const edge_table_t a = read_edge_list(p, one);
  const edge_table_t b = read_edge_list(p, many);
  CHECK(a.size() > 40000);
  CHECK(dyng_test::srcs(a) == dyng_test::srcs(b));
  CHECK(dyng_test::dsts(a) == dyng_test::dsts(b));
  CHECK(dyng_test::values(a.weights) == dyng_test::values(b.weights));
  CHECK(dyng_test::values(a.timestamps) == dyng_test::values(b.timestamps));
}

DYNG_TEST("a_pipe_is_read_in_order_like_a_file") {
  // The small readers take any path; a pipe cannot be read at offsets, so the scanner falls
  // back to reading it in order on one thread.
  std::string text;
  for (int i = 0; i < 50000; ++i)
    text += std::to_string(i % 701) + " " + std::to_string(i % 709) + "\n";
  const std::string fifo = dyng_test::scratch_dir() + "/pipe";
  CHECK_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << text; });
  scan_options_t o;
  o.threads = 2;
  o.exact_team = true;
  o.block_bytes = 1;
  std::string seen;
  int64_t lines = -1;
  try {
    lines = scan_text_file(
        fifo, "test", o, header_parser_t{}, row_store_t{},
        [](const text_range_t&, fault_t&) -> int64_t { return 0; },
        [&seen](const text_range_t& r, int64_t, int64_t, fault_t&) {
          seen.append(r.begin, r.end);
        });
  } catch (...) {
  }
  writer.join();
  CHECK_EQ(lines, int64_t{50000});
  CHECK(seen == text);
}

DYNG_TEST_MAIN()
