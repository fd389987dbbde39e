// Reading a text file in blocks and parsing each block on several threads, straight into the
// reader's output rows.
//
// A file is never held in memory whole: it is read in blocks of about `block_bytes` that end at a
// line break (the partial last line is carried into the next block). A bare CR is a line break
// too: before a range is parsed its bare CRs become LFs (found by the pass that counts its
// lines), so the parsers know LF alone and a file's line numbers count every kind of break. Each
// block is cut into one range of whole lines per thread. The threads count their range's lines, the
// output is given room for `rows_per_line` rows per line, and each thread parses its range into its
// own slice of that room, so no thread waits for another and no row is copied. A range that wrote
// fewer rows than its room (comments, dropped self-loops) leaves a gap, which the in-order commit
// closes by moving the next ranges' rows down: results do not depend on the thread count.
//
// A range reports its first fault with a range-relative line; the driver turns it into the
// file's line once the line counts of the ranges before it are known, so the error names the
// first bad line of the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include "dyng/io/text_scan.hpp"

namespace dyng::io {

/// Bytes past the end of every range that a parser may read (never use): the block buffer
/// always has them, so a parser can load a word at any byte of a range (plain_lines.hpp).
inline constexpr size_t k_read_slack = 16;

/// How a file is read: threads 0 = the OpenMP default; block_bytes is rounded up to 64 KiB.
struct scan_options_t {
  int threads = 0;
  size_t block_bytes = size_t{32} << 20;
  /// Use exactly `threads` whatever the machine's load (the tests, which must reach the
  /// parallel paths); otherwise team_now() may cut the team.
  bool exact_team = false;
};

/// Threads to use for `requested` (0 or negative: the OpenMP default; 1 without OpenMP): the
/// most a reader ever uses, so its per-range outputs are sized with it.
int resolve_threads(int requested);

/// The team for a parallel step over `work` bytes or edges now: resolve_threads(requested),
/// cut to the CPUs no other runnable thread holds (backend/execution.hpp's host_team_size, the
/// library's one load guard), 1 below `min_work`. A team larger than the free CPUs waits a time
/// slice at every barrier, which makes a read on a busy machine slower than one thread's.
int team_now(int requested, int64_t work, int64_t min_work);

/// team_now() for a reader's options (exact_team: resolve_threads(threads)).
int team_now(const scan_options_t& options, int64_t work, int64_t min_work);

/// `options` with the team settled once for a whole read of `path` (exact_team set): a reader
/// asks team_now() before its first parallel step and keeps the answer. Asked between steps,
/// the load guard sees this process's own workers, just idle and about to sleep, as
/// neighbours (a race between its two counts): even on an idle machine it cut a block or the
/// whole sort to one thread now and then.
scan_options_t settle_team(const scan_options_t& options, const std::string& path);

/// One range of whole lines of a block and its slice of the output rows.
struct text_range_t {
  /// Below resolve_threads(options.threads): an index for per-range state.
  int part = 0;
  const char* begin = nullptr;
  const char* end = nullptr;
  /// The lines of the range (a last line without '\n' counts).
  int64_t lines = 0;
  /// Just after a '\n' near the middle (or `end`), and the lines before it: where a parser
  /// that reads the range as two streams splits it, counted with the rest.
  const char* middle = nullptr;
  int64_t lines_before_middle = 0;
  /// The range's rows start here; it may write rows_per_line * lines of them.
  int64_t first_row = 0;
};

/// The reader's output as the scanner sees it: `rows_per_line` rows at most per line (0 for a
/// reader that keeps its own state), made room for and moved by the reader's callbacks.
struct row_store_t {
  int rows_per_line = 0;
  /// Makes the output exactly `rows` rows long; new rows are unwritten.
  std::function<void(int64_t rows)> resize;
  /// Moves rows [from, from + count) down to `to` (to < from).
  std::function<void(int64_t from, int64_t to, int64_t count)> move;
};

/// Parses one range into its rows; returns how many it wrote (from range.first_row on) and
/// sets `fault` on the first bad line.
using range_parser_t = std::function<int64_t(const text_range_t& range, fault_t& fault)>;
/// Called in file order for each parsed range, once its `rows` are in their final place
/// (`range.first_row` says where); `line_base` is the number of file lines before the range,
/// so a check that needs what came before (a count announced in a header) can set `fault`
/// with a file line.
using range_commit_t =
    std::function<void(const text_range_t& range, int64_t rows, int64_t line_base, fault_t& fault)>;
/// Reads leading lines serially (a format's header) from the first block; returns the bytes it
/// consumed, counting its lines into `lines` and setting `fault` on a bad header.
using header_parser_t =
    std::function<size_t(const char* begin, const char* end, int64_t& lines, fault_t& fault)>;

/// Opens `path` for reading; throws file_format_error (line 0) when it cannot.
std::FILE* open_for_reading(const std::string& path, const char* function);

/// Reads `path` block by block into `rows`. Returns the file's line count. Throws
/// file_format_error for the first fault.
int64_t scan_text_file(const std::string& path, const char* function, const scan_options_t& options,
                       const header_parser_t& header, const row_store_t& rows,
                       const range_parser_t& parse, const range_commit_t& commit);

/// The number of lines of [begin, end): its '\n' bytes, plus one for a last line without one.
/// Sets *saw_cr when the text holds a CR (the pass that counts tells it for free).
int64_t count_lines(const char* begin, const char* end, bool* saw_cr = nullptr);

/// "<path>:<line>:<column>: " (line and column left out when 0), the place in every message.
std::string where(const std::string& path, int64_t line, int64_t column);

/// Throws file_format_error for `fault` (a file-relative line) in `path`, the message prefixed
/// with "<function>(): <path>:<line>:<column>: ".
[[noreturn]] void throw_fault(const char* function, const std::string& path, const fault_t& fault);

}  // namespace dyng::io
