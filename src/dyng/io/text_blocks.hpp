// Reading a text file in blocks and parsing each block on several threads.
//
// A file is never held in memory whole: it is read in blocks of about `block_bytes` that end at a
// line break (the partial last line is carried into the next block). Each block is cut into one
// range of whole lines per thread; the ranges are parsed in parallel into per-range outputs, then
// committed in file order, so results do not depend on the thread count. A range reports its
// first fault with a range-relative line; the driver turns it into the file's line once the line
// counts of the ranges before it are known, so the error names the first bad line of the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "dyng/io/text_scan.hpp"

namespace dyng::io {

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
/// slice at every barrier; on the shared 2-core dev machine that made a 2-thread read 2x slower
/// than a 1-thread one.
int team_now(int requested, int64_t work, int64_t min_work);

/// team_now() for a reader's options (exact_team: resolve_threads(threads)).
int team_now(const scan_options_t& options, int64_t work, int64_t min_work);

/// Parses one range of whole lines into the output slot `part`; returns the range's line count
/// and sets `fault` on the first bad line.
using range_parser_t =
    std::function<int64_t(int part, const char* begin, const char* end, fault_t& fault)>;
/// Appends the output of slot `part` to the result (called in file order, on one thread);
/// `line_base` is the number of file lines before the range, so a check that needs what came
/// before (a count announced in a header) can set `fault` with a file line.
using range_commit_t = std::function<void(int part, int64_t line_base, fault_t& fault)>;
/// Reads leading lines serially (a format's header) from the first block; returns the bytes it
/// consumed, counting its lines into `lines` and setting `fault` on a bad header.
using header_parser_t =
    std::function<size_t(const char* begin, const char* end, int64_t& lines, fault_t& fault)>;

/// Opens `path` for reading; throws file_format_error (line 0) when it cannot.
std::FILE* open_for_reading(const std::string& path, const char* function);

/// Reads `path` block by block; the parser's `part` is below resolve_threads(options.threads),
/// so callers size their per-range outputs with that. Returns the file's line count. Throws
/// file_format_error for the first fault.
int64_t scan_text_file(const std::string& path, const char* function, const scan_options_t& options,
                    const header_parser_t& header, const range_parser_t& parse,
                    const range_commit_t& commit);

/// "<path>:<line>:<column>: " (line and column left out when 0), the place in every message.
std::string where(const std::string& path, int64_t line, int64_t column);

/// Throws file_format_error for `fault` (a file-relative line) in `path`, the message prefixed
/// with "<function>(): <path>:<line>:<column>: ".
[[noreturn]] void throw_fault(const char* function, const std::string& path, const fault_t& fault);

}  // namespace dyng::io
