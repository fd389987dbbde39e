// Damaged files: a control byte (NUL from a zero-filled block, or any other) anywhere in a line,
// a comment included, is a file_format_error at its line and column in every reader, never a
// line skipped as blank. 0.2.0 and the first readers of this library skipped a line that
// started with NUL, so a zero-filled block lost the lines it covered without a word.
#include <algorithm>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/io/edge_readers.hpp"
#include "dyng/io/small_readers.hpp"
#include "io/io_test_util.hpp"

using dyng::file_format_error;
using namespace dyng::io;

namespace {

/// (line, column, message) of the file_format_error that `read` throws; (-1, -1, "") if none.
std::tuple<int64_t, int64_t, std::string> fault_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const file_format_error& e) {
    return {e.line(), e.column(), e.what()};
  }
  return {-1, -1, ""};
}

/// Checks that `read` of a file holding `text` names the control byte at (line, column).
void check_damage(const std::string& text, int64_t line, int64_t column,
                  const std::function<void(const std::string&)>& read) {
  const std::string p = dyng_test::write_file("damaged.txt", text);
  const auto [l, c, message] = fault_of([&] { read(p); });
  CHECK_EQ(l, line);
  CHECK_EQ(c, column);
  CHECK(message.find("control byte") != std::string::npos);
  CHECK(message.find("restore it") != std::string::npos);
}

const std::string k_zeros(64, '\0');

}  // namespace

DYNG_TEST("edge_list_refuses_control_bytes") {
  edge_list_options_t o;
  auto read = [&o](const std::string& p) { read_edge_list(p, o); };
  check_damage("0 1\n" + k_zeros + "\n2 3\n", 2, 1, read);
  check_damage(k_zeros, 1, 1, read);
  check_damage("0 1\n2 3" + std::string(1, '\0') + "\n", 2, 4, read);
  check_damage("# header\x01\n0 1\n", 1, 9, read);
  check_damage("0 1\n  %\x7f\n", 2, 4, read);
  check_damage("0 1 2\n1\x1b 2\n", 2, 2, read);
  // Blocks of zeros deep in a file read on several threads.
  std::string text;
  for (int i = 0; i < 30000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  o.scan.threads = 3;
  o.scan.exact_team = true;
  o.scan.block_bytes = 1;
  check_damage(text + k_zeros + text, 30001, 1, read);
  // The separators that are control characters still separate.
  const std::string p = dyng_test::write_file("separators.txt", "0\t1\v\f\r\n1,2\n");
  CHECK_EQ(read_edge_list(p, edge_list_options_t{}).size(), 2);
}

DYNG_TEST("matrix_market_refuses_control_bytes") {
  auto read = [](const std::string& p) { read_matrix_market(p, matrix_market_options_t{}); };
  const std::string banner = "%%MatrixMarket matrix coordinate pattern general";
  check_damage(banner + std::string(1, '\0') + "\n2 2 1\n1 2\n", 1, 49, read);
  check_damage(banner + "\n% c\x02\n2 2 1\n1 2\n", 2, 4, read);
  check_damage(banner + "\n2 2 1\n%" + k_zeros + "\n1 2\n", 3, 2, read);
  check_damage(banner + "\n2 2 1\n" + k_zeros + "1 2\n", 3, 1, read);
  check_damage(banner + "\n2 2\x03 1\n1 2\n", 2, 4, read);
  edge_list_options_t o;
  check_damage(banner + "\n2 2 1\n1\x04 2\n", 3, 2,
               [&o](const std::string& p) { read_edge_list(p, o); });
}

DYNG_TEST("small_formats_refuse_control_bytes") {
  auto batches = [](const std::string& p) { read_batches(p, -1, -1); };
  check_damage("%dgt 1\n# \x05\n+e 0 1 1\n", 2, 3, batches);
  check_damage("%batch 0\n" + k_zeros + "+e 0 1 1\n", 2, 1, batches);
  check_damage("0 0\n" + k_zeros + "\n1 5\n", 2, 1,
               [](const std::string& p) { read_vertex_values(p, "read_distances", 2, 99, 0, 0); });
  const std::string ok = dyng_test::write_file("ok.txt", "0 1 5\n");
  check_damage("0 1 5\n\x06", 2, 1,
               [&ok](const std::string& p) { read_legacy_batch(p, ok, 1, -1, 9, false); });
  check_damage(std::string("0 1\0\n", 5), 1, 4,
               [&ok](const std::string& p) { read_legacy_batch(ok, p, 1, -1, 9, false); });
  const std::string prefix = dyng_test::scratch_dir() + "/d_";
  dyng_test::write_file("d_RowPtr.txt", "0\n1\n1\n");
  dyng_test::write_file("d_ColInd.txt", "1\n");
  dyng_test::write_file("d_Values.txt", "4\n");
  auto read_csr = [&prefix](const std::string&) { read_csr_triplet(prefix, 0); };
  CHECK_EQ(read_csr_triplet(prefix, 0).col_ind.size(), size_t{1});  // undamaged, it reads
  for (const char* part : {"d_RowPtr.txt", "d_ColInd.txt", "d_Values.txt"}) {
    const std::string good = dyng_test::read_file(dyng_test::scratch_dir() + "/" + part);
    dyng_test::write_file(part, good + k_zeros + "\n");
    const auto [l, c, message] = fault_of([&] { read_csr(""); });
    CHECK_EQ(l, static_cast<int64_t>(std::count(good.begin(), good.end(), '\n')) + 1);
    CHECK_EQ(c, 1);
    CHECK(message.find(part) != std::string::npos);
    CHECK(message.find("control byte") != std::string::npos);
    dyng_test::write_file(part, good);
  }
}

DYNG_TEST_MAIN()
