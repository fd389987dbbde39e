// The small formats and the writers: round trips, faults with their positions, and the atomic
// write leaving neither a partial target nor a temporary file behind.
#include <filesystem>
#include <functional>
#include <tuple>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/io/small_readers.hpp"
#include "dyng/io/writers.hpp"
#include "io/io_test_util.hpp"

using dyng::file_format_error;
using namespace dyng::io;

namespace {

int_column_t col(const std::vector<int64_t>& v) {
  return {nullptr, v.data(), static_cast<int64_t>(v.size())};
}
int_column_t col32(const std::vector<int32_t>& v) {
  return {v.data(), nullptr, static_cast<int64_t>(v.size())};
}

size_t files_in_scratch() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e :
       std::filesystem::directory_iterator(dyng_test::scratch_dir()))
    ++n;
  return n;
}

}  // namespace

DYNG_TEST("csr_triplet_round_trip") {
  const std::string prefix = dyng_test::scratch_dir() + "/g_";
  const std::vector<int64_t> row_ptr{0, 2, 3, 3};
  const std::vector<int32_t> col_ind{1, 2, 0};
  const std::vector<int32_t> weights{3, 4, 5, 6, 7, 2147483647};
  write_csr_triplet(prefix, col(row_ptr), col32(col_ind), weights, 2);
  CHECK_EQ(dyng_test::read_file(prefix + "Values.txt"), std::string("3 4\n5 6\n7 2147483647\n"));
  const csr_table_t t = read_csr_triplet(prefix, 0);
  CHECK_EQ(t.num_weights, 2);
  CHECK(t.row_ptr == row_ptr);
  CHECK(t.col_ind == (std::vector<int64_t>{1, 2, 0}));
  CHECK(t.weights == weights);
  CHECK_THROWS_AS(read_csr_triplet(prefix, 3), file_format_error);
}

DYNG_TEST("csr_triplet_faults") {
  const std::string prefix = dyng_test::scratch_dir() + "/bad_";
  dyng_test::write_file("bad_RowPtr.txt", "0\n2\n1\n");
  dyng_test::write_file("bad_ColInd.txt", "0\n");
  dyng_test::write_file("bad_Values.txt", "1\n");
  try {
    read_csr_triplet(prefix, 0);
    CHECK(false);
  } catch (const file_format_error& e) {
    CHECK_EQ(e.line(), 3);
    CHECK(e.path() == prefix + "RowPtr.txt");
  }
}

DYNG_TEST("csr_and_legacy_weights_are_positive") {
  // The MOSP tools' weights are lengths: 0.2.0 refused a weight below 1 in Values.txt and
  // insert.txt at its line and column; these readers took any int32.
  auto fault = [](const std::function<void()>& read) {
    try {
      read();
    } catch (const file_format_error& e) {
      return std::make_tuple(e.path(), e.line(), e.column());
    }
    return std::make_tuple(std::string(), int64_t{-1}, int64_t{-1});
  };
  const std::string prefix = dyng_test::scratch_dir() + "/w_";
  dyng_test::write_file("w_RowPtr.txt", "0\n1\n2\n");
  dyng_test::write_file("w_ColInd.txt", "1\n0\n");
  for (const auto& [values, line, column] :
       {std::make_tuple("3\n0\n", 2, 1), std::make_tuple("-1\n3\n", 1, 1),
        std::make_tuple("3 1\n4 0\n", 2, 3)}) {
    dyng_test::write_file("w_Values.txt", values);
    CHECK(fault([&] { read_csr_triplet(prefix, 0); }) ==
          std::make_tuple(prefix + "Values.txt", int64_t{line}, int64_t{column}));
  }
  const auto ins = dyng_test::write_file("w_insert.txt", "0 1 5\n1 2 0\n");
  const auto del = dyng_test::write_file("w_delete.txt", "");
  for (const bool lenient : {false, true})
    CHECK(fault([&] { read_legacy_batch(ins, del, 1, -1, 9, lenient); }) ==
          std::make_tuple(ins, int64_t{2}, int64_t{5}));
}

DYNG_TEST("csr_triplet_without_edges_needs_num_weights") {
  // 0.2.0 refused it with FileFormatError; the Python layer raised NumPy's ValueError.
  const std::string prefix = dyng_test::scratch_dir() + "/e_";
  dyng_test::write_file("e_RowPtr.txt", "0\n0\n0\n");
  dyng_test::write_file("e_ColInd.txt", "");
  dyng_test::write_file("e_Values.txt", "");
  CHECK_THROWS_AS(read_csr_triplet(prefix, 0), file_format_error);
  const csr_table_t t = read_csr_triplet(prefix, 2);
  CHECK_EQ(t.num_weights, 2);
  CHECK_EQ(t.row_ptr.size(), size_t{3});
  CHECK(t.col_ind.empty() && t.weights.empty());
}

DYNG_TEST("csr_numbers_may_share_a_line") {
  // 0.2.0 read RowPtr and ColInd as whitespace-separated numbers, not one to a line.
  const std::string prefix = dyng_test::scratch_dir() + "/s_";
  dyng_test::write_file("s_RowPtr.txt", "0 1\n\n2\n");
  dyng_test::write_file("s_ColInd.txt", "1 0\n");
  dyng_test::write_file("s_Values.txt", "3\n4\n");
  const csr_table_t t = read_csr_triplet(prefix, 0);
  CHECK(t.row_ptr == (std::vector<int64_t>{0, 1, 2}));
  CHECK(t.col_ind == (std::vector<int64_t>{1, 0}));
  dyng_test::write_file("s_RowPtr.txt", "0 2\n\n1 2\n");
  try {
    read_csr_triplet(prefix, 0);
    CHECK(false);
  } catch (const file_format_error& e) {
    CHECK_EQ(e.line(), 3);  // the decreasing value's own line, past the blank one
    CHECK_EQ(e.column(), 1);
  }
}

DYNG_TEST("legacy_batch_lenient_and_strict") {
  const auto ins = dyng_test::write_file("insert.txt", "0 1 5\n\n2 3 7 9\n");
  const auto del = dyng_test::write_file("delete.txt", "4 5\n");
  try {
    read_legacy_batch(ins, del, 1, -1, 2147483647, false);
    CHECK(false);
  } catch (const file_format_error& e) {
    CHECK_EQ(e.line(), 3);
    CHECK_EQ(e.column(), 7);
  }
  const dgt_batch_t b = read_legacy_batch(ins, del, 1, -1, 2147483647, true);
  CHECK(b.ins_weights == (std::vector<int32_t>{5, 7}));
  CHECK(b.del_dst == (std::vector<int64_t>{5}));
  // Lenient skips extra numbers, nothing else (found by the fuzz suite: a NUL passed).
  for (const std::string& extra : {std::string("x"), std::string("#"), std::string(1, '\0'),
                                   std::string("99999999999999999999")}) {
    const auto bad = dyng_test::write_file("delete.txt", "4 5 " + extra + "\n");
    try {
      read_legacy_batch(ins, bad, 1, -1, 2147483647, true);
      CHECK(false);
    } catch (const file_format_error& e) {
      CHECK_EQ(e.line(), 1);
      CHECK_EQ(e.column(), 5);
    }
  }
}

DYNG_TEST("dgt_round_trip_and_faults") {
  dgt_batch_t a;
  a.ins_src = {0, 1};
  a.ins_dst = {2, 3};
  a.ins_weights = {1, 2, 3, 4};
  a.num_weights = 2;
  a.del_src = {4};
  a.del_dst = {5};
  dgt_batch_t b;
  b.num_weights = 2;
  b.del_src = {1};
  b.del_dst = {2};
  const std::string path = dyng_test::scratch_dir() + "/b.dgt";
  write_batches(path, {a, b});
  CHECK_EQ(dyng_test::read_file(path),
           std::string("%dgt 1\n%batch 0\n-e 4 5\n+e 0 2 1 2\n+e 1 3 3 4\n%batch 1\n-e 1 2\n"));
  const auto back = read_batches(path, -1, -1);
  CHECK_EQ(back.size(), size_t{2});
  CHECK(back[0].ins_weights == a.ins_weights);
  CHECK(back[1].del_src == b.del_src);
  const auto bad = dyng_test::write_file("bad.dgt", "+e 0 1\n%batch 0\n");
  CHECK_THROWS_AS(read_batches(bad, -1, -1), file_format_error);
  CHECK(read_batches(dyng_test::write_file("empty.dgt", ""), -1, -1).empty());
}

DYNG_TEST("dgt_directives_are_checked") {
  auto at = [](const std::string& text) {
    const auto p = dyng_test::write_file("d.dgt", text);
    try {
      read_batches(p, -1, -1);
    } catch (const file_format_error& e) {
      return std::make_pair(e.line(), e.column());
    }
    return std::make_pair(int64_t{-1}, int64_t{-1});
  };
  auto place = [](int64_t line, int64_t column) { return std::make_pair(line, column); };
  // Read as comments, a misspelt or malformed '%batch' merged two batches (deletions first).
  CHECK(at("%dgt 1\n%batch 0\n+e 0 1 1\n%btach 1\n-e 0 1\n") == place(4, 1));
  CHECK(at("%batch\n") == place(1, 7));
  CHECK(at("%batch x\n") == place(1, 8));
  CHECK(at("%batch -1\n") == place(1, 8));
  CHECK(at("%batch 5\n%batch 2\n") == place(2, 8));
  CHECK(at("%batch 0\n%batch 0\n") == place(2, 8));
  CHECK(at("%batch 0 x\n") == place(1, 10));
  CHECK(at("% a comment\n") == place(1, 1));
  CHECK(at("  %BATCH 0\n") == place(1, 3));
  CHECK(at("%dgt\n") == place(1, 5));
  CHECK(at("%dgt 1 x\n") == place(1, 8));
  CHECK(at("%batch 0\n%dgt 1\n") == place(2, 1));
  // What 0.2.0 read still reads: comments before '%dgt', ids that rise with gaps.
  const auto ok = dyng_test::write_file(
      "ok.dgt", "# c\n\n%dgt 1\n%batch 3\n+e 0 1 1\n%batch 007\n  %batch\t9\n-e 0 1\n");
  const auto b = read_batches(ok, -1, -1);
  CHECK_EQ(b.size(), size_t{3});
  CHECK(b[0].ins_src == std::vector<int64_t>{0});
  CHECK(b[1].ins_src.empty() && b[1].del_src.empty());
  CHECK(b[2].del_dst == std::vector<int64_t>{1});
}

DYNG_TEST("vertex_values_with_inf") {
  const int64_t inf = (int64_t{1} << 61) - 1;
  const std::vector<int64_t> d{0, 5, inf};
  const std::string path = dyng_test::scratch_dir() + "/d.txt";
  write_vertex_values(path, "write_distances", col(d), inf);
  CHECK_EQ(dyng_test::read_file(path), std::string("0 0\n1 5\n2 INF\n"));
  CHECK(read_vertex_values(path, "read_distances", 3, inf, 0, 0) == d);
  CHECK_THROWS_AS(read_vertex_values(path, "read_distances", 4, inf, 0, 0), file_format_error);
  CHECK_THROWS_AS(read_vertex_values(path, "read_parents", 3, 0, -1, 3), file_format_error);
}

DYNG_TEST("failed_writes_leave_nothing_behind") {
  const size_t before = files_in_scratch();
  const auto target = dyng_test::write_file("keep.txt", "old\n");
  // A file where a folder of the path goes: nothing made, nothing left.
  CHECK_THROWS_AS(write_text(target + "/no/such/dir.txt", "write_text", "x"), file_format_error);
  const std::vector<int64_t> one{0};
  const std::vector<int32_t> w{1};
  CHECK_THROWS_AS(write_matrix_market(target, 1, col(one), col(one), w, 1, 5),
                  dyng::invalid_argument_error);
  CHECK_EQ(dyng_test::read_file(target), std::string("old\n"));
  write_edge_list(target, col(one), col(one), w, 1);
  CHECK_EQ(dyng_test::read_file(target), std::string("0 0 1\n"));
  CHECK_EQ(files_in_scratch(), before + 1);  // keep.txt only: no temporary file left
}

DYNG_TEST_MAIN()
