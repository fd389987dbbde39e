// The block reader of text_blocks.hpp: one loop of a parallel read, a cut at the last line
// break (LF or bare CR), a parallel count of the block's ranges that also makes their bare CRs
// LFs, a parallel parse, and an in-order commit that closes the gaps.
#include "dyng/io/text_blocks.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/zeroed_array.hpp"
#include "dyng/io/plain_lines.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dyng::io {
namespace {

// Below this a range is not worth a thread: the team's start-up costs more than parsing it.
constexpr size_t k_min_range_bytes = size_t{256} << 10;

struct file_closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

/// Where each of `parts` ranges of [begin, end) starts; every cut is just after a '\n'.
std::vector<const char*> cut_ranges(const char* begin, const char* end, int parts) {
  std::vector<const char*> cuts{begin};
  const size_t size = static_cast<size_t>(end - begin);
  for (int i = 1; i < parts; ++i) {
    const char* at = std::max(cuts.back(), begin + size * static_cast<size_t>(i) / parts);
    const void* nl = std::memchr(at, '\n', static_cast<size_t>(end - at));
    cuts.push_back(nl != nullptr ? static_cast<const char*>(nl) + 1 : end);
  }
  cuts.push_back(end);
  return cuts;
}

/// The bytes of the word x equal to `byte` (0..8).
inline int64_t bytes_in(uint64_t x, unsigned char byte) {
  constexpr uint64_t k_low7 = 0x7F7F7F7F7F7F7F7Fu;
  const uint64_t y = x ^ (0x0101010101010101u * byte);  // a matching byte becomes 0
  // The high bit of each byte of t is set unless that byte of y is 0 (no carries between bytes).
  const uint64_t t = ((y & k_low7) + k_low7) | y;
  const uint64_t zero_bytes = (~t >> 7) & 0x0101010101010101u;
  return static_cast<int64_t>((zero_bytes * 0x0101010101010101u) >> 56);
}

/// Reads up to `want` bytes of `fd` from offset `at` into `into` on `team` threads, each its
/// own slice (copying from the page cache was a twentieth of a read, on one thread while the
/// other waited). Returns the bytes read, fewer only at the end of the file; sets `error` to
/// an errno on a failure. A file that cannot seek (a pipe) is read in order on one thread.
size_t read_slices(int fd, int64_t at, char* into, size_t want, int team, bool& seekable,
                   int& error) {
  if (!seekable) team = 1;
  std::vector<size_t> got(static_cast<size_t>(team), 0);
  std::vector<int> errors(static_cast<size_t>(team), 0);
#pragma omp parallel for num_threads(team) schedule(static, 1) if (team > 1)
  for (int i = 0; i < team; ++i) {
    const size_t lo = want * static_cast<size_t>(i) / team;
    const size_t hi = want * static_cast<size_t>(i + 1) / team;
    size_t done = lo;
    while (done < hi) {
      const ssize_t n = seekable
                            ? ::pread(fd, into + done, hi - done, at + static_cast<int64_t>(done))
                            : ::read(fd, into + done, hi - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        errors[i] = errno;
        break;
      }
      if (n == 0) break;
      done += static_cast<size_t>(n);
    }
    got[i] = done - lo;
  }
  if (seekable && errors[0] == ESPIPE) {
    seekable = false;
    return read_slices(fd, at, into, want, 1, seekable, error);
  }
  // The text is what the slices read up to the first short one (the end of the file).
  size_t total = 0;
  for (int i = 0; i < team; ++i) {
    if (errors[i] != 0) error = errors[i];
    total += got[i];
    const size_t slice =
        want * static_cast<size_t>(i + 1) / team - want * static_cast<size_t>(i) / team;
    if (got[i] < slice) break;
  }
  return total;
}

/// Turns every bare CR of a range's [begin, end) into an LF, so that the parsers split lines
/// at LF alone and each CR they meet is the first byte of a CR LF (text_scan.hpp). A range ends
/// at a line break, so a CR in its last byte is bare. Each decision reads the next byte as it
/// was read (the pass writes only bytes it has passed). Returns how many CRs it changed.
int64_t settle_line_breaks(char* begin, char* end) {
  int64_t changed = 0;
  char* p = begin;
#if defined(__SSE2__)
  // 16 bytes a step, with the 16 after them shifted by one: a CR is bare unless an LF follows.
  // A CRLF file has a CR on every line, so a memchr per CR would be a call per line.
  const __m128i cr = _mm_set1_epi8('\r'), lf = _mm_set1_epi8('\n');
  for (; end - p > 16; p += 16) {
    const __m128i here = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
    const int bare =
        _mm_movemask_epi8(_mm_andnot_si128(_mm_cmpeq_epi8(next, lf), _mm_cmpeq_epi8(here, cr)));
    for (int i = 0; bare >> i != 0; ++i)
      if ((bare >> i) & 1) {
        p[i] = '\n';
        ++changed;
      }
  }
#endif
  for (; p < end; ++p)
    if (*p == '\r' && (p + 1 == end || p[1] != '\n')) {
      *p = '\n';
      ++changed;
    }
  return changed;
}

/// Where the text [begin, end) may be cut so that only whole lines come before: just after its
/// last line break, an LF or a CR with a byte other than LF after it (a CR in the last byte
/// waits for the next read). `begin` when it holds no break.
const char* after_last_break(const char* begin, const char* end) {
  const char* last = end;
  // Walking back, the LF of a CR LF comes before its CR, so any CR met is not before an LF.
  while (last > begin && last[-1] != '\n' && (last[-1] != '\r' || last == end)) --last;
  return last;
}

/// Counts the lines of the range `r` (and of the halves its middle splits it into), making its
/// bare CRs LFs: the count's own pass says whether there is any CR, so a file without one
/// (nearly all) pays nothing more, and a CR LF file one pass that changes nothing.
void count_range_lines(text_range_t& r, char* begin, char* end) {
  bool cr = false;
  r.middle = cut_ranges(r.begin, r.end, 2)[1];
  r.lines_before_middle = count_lines(r.begin, r.middle, &cr);
  r.lines = r.lines_before_middle + count_lines(r.middle, r.end, &cr);
  if (!cr || settle_line_breaks(begin, end) == 0) return;
  r.middle = cut_ranges(r.begin, r.end, 2)[1];
  r.lines_before_middle = count_lines(r.begin, r.middle);
  r.lines = r.lines_before_middle + count_lines(r.middle, r.end);
}

/// Everything one block's parallel step needs, so that it is one parallel region.
struct block_step_t {
  std::vector<text_range_t> ranges;
  std::vector<fault_t> faults;
  std::vector<int64_t> rows;
};

}  // namespace

int64_t count_lines(const char* begin, const char* end, bool* saw_cr) {
  int64_t breaks = 0;
  bool cr = false;
  const char* p = begin;
#if defined(__SSE2__)
  // 16 bytes a step: a compare gives -1 per '\n', subtracted into byte counters that are
  // summed (psadbw) before any can pass 255. Every x86-64 has SSE2, and this pass reads the
  // whole text, so it is worth a wider word. CRs are or-ed into one more register.
  const __m128i newline = _mm_set1_epi8('\n'), carriage = _mm_set1_epi8('\r');
  __m128i crs = _mm_setzero_si128();
  while (end - p >= 16) {
    const int64_t steps = std::min<int64_t>((end - p) / 16, 255);
    __m128i counts = _mm_setzero_si128();
    for (int64_t i = 0; i < steps; ++i, p += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(bytes, newline));
      crs = _mm_or_si128(crs, _mm_cmpeq_epi8(bytes, carriage));
    }
    const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
    breaks += _mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
  }
  cr = _mm_movemask_epi8(crs) != 0;
#endif
  for (; end - p >= 8; p += 8) {
    const uint64_t x = load_word(p);
    breaks += bytes_in(x, '\n');
    cr = cr || bytes_in(x, '\r') != 0;
  }
  for (; p < end; ++p) {
    breaks += *p == '\n';
    cr = cr || *p == '\r';
  }
  if (saw_cr != nullptr) *saw_cr = *saw_cr || cr;
  return breaks + (end > begin && end[-1] != '\n' ? 1 : 0);
}

int resolve_threads(int requested) {
#if defined(_OPENMP)
  return requested > 0 ? requested : std::max(1, omp_get_max_threads());
#else
  (void)requested;
  return 1;
#endif
}

int team_now(int requested, int64_t work, int64_t min_work) {
  execution_t exec;
  exec.backend = openmp_enabled() ? backend_t::openmp : backend_t::sequential;
  exec.num_threads = resolve_threads(requested);
  return host_team_size(exec, work, std::max<int64_t>(min_work, 1));
}

int team_now(const scan_options_t& options, int64_t work, int64_t min_work) {
  return options.exact_team ? resolve_threads(options.threads)
                            : team_now(options.threads, work, min_work);
}

scan_options_t settle_team(const scan_options_t& options, const std::string& path) {
  std::error_code no_size;
  const auto bytes = std::filesystem::file_size(path, no_size);
  scan_options_t settled = options;
  const int64_t work = no_size ? 0 : static_cast<int64_t>(bytes);
  settled.threads = team_now(options, work, 2 * k_min_range_bytes);
  settled.exact_team = true;
  return settled;
}

std::string where(const std::string& path, int64_t line, int64_t column) {
  // append() rather than ":" + to_string(): the latter trips a GCC 12 -Wrestrict false positive.
  std::string s = path;
  if (line > 0) s.append(1, ':').append(std::to_string(line));
  if (line > 0 && column > 0) s.append(1, ':').append(std::to_string(column));
  return s.append(": ");
}

void throw_fault(const char* function, const std::string& path, const fault_t& fault) {
  throw file_format_error(
      path, fault.line, fault.column,
      std::string(function) + "(): " + where(path, fault.line, fault.column) + fault.message);
}

std::FILE* open_for_reading(const std::string& path, const char* function) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    const int code = errno;
    throw file_format_error(path, 0, 0,
                            std::string(function) + "(): " + where(path, 0, 0) +
                                "cannot open the file for reading (" + std::strerror(code) +
                                "); check the path and its permissions");
  }
  return f;
}

namespace {

/// Reads up to `want` bytes at `offset` into `into`, with a team of readers sized by what is left
/// of the file (`left`). Throws file_format_error when a read fails.
size_t read_block_bytes(int fd, int64_t offset, char* into, size_t want, uint64_t left,
                        const scan_options_t& options, bool& seekable, const std::string& path,
                        const char* function) {
  int error = 0;
  const int readers = team_now(options, static_cast<int64_t>(std::min<uint64_t>(want, left)),
                               2 * k_min_range_bytes);
  const size_t got = read_slices(fd, offset, into, want, readers, seekable, error);
  if (error != 0)
    throw file_format_error(path, 0, 0,
                            std::string(function) + "(): " + where(path, 0, 0) +
                                "a read failed part way through the file (" + std::strerror(error) +
                                "); check the device");
  return got;
}

/// Cuts the block's lines [begin, end) into `used` ranges, counts their lines and gives each its
/// room in the rows (from row_base on, store.rows_per_line rows per line), then parses them side
/// by side into step.rows and step.faults. An exception of a part is rethrown after the team.
void parse_block(block_step_t& step, const char* begin, const char* end, int used, char* text,
                 const row_store_t& store, const range_parser_t& parse, int64_t row_base) {
  const std::vector<const char*> cuts = cut_ranges(begin, end, used);
  step.ranges.assign(static_cast<size_t>(used), text_range_t{});
  step.faults.assign(static_cast<size_t>(used), fault_t{});
  step.rows.assign(static_cast<size_t>(used), 0);
  std::exception_ptr thrown;
  bool no_room = false;  // written in the single step, read after its barrier
  auto guarded = [&thrown](auto&& f) {
    try {
      f();
    } catch (...) {
#pragma omp critical(dyng_io_scan)
      if (!thrown) thrown = std::current_exception();
    }
  };
#pragma omp parallel num_threads(used) if (used > 1)
  {
#pragma omp for schedule(static, 1)
    for (int i = 0; i < used; ++i) {
      text_range_t& r = step.ranges[i];
      r.part = i;
      r.begin = cuts[i];
      r.end = cuts[i + 1];
      // The ranges' bytes, writable for count_range_lines.
      count_range_lines(r, text + (r.begin - text), text + (r.end - text));
    }
#pragma omp single
    guarded([&] {
      // Room for every range, each range's slice after the room of the ranges before it.
      int64_t at = row_base;
      for (text_range_t& r : step.ranges) {
        r.first_row = at;
        at += store.rows_per_line * r.lines;
      }
      no_room = true;
      if (store.rows_per_line > 0) store.resize(at);
      no_room = false;
    });
#pragma omp for schedule(static, 1)
    for (int i = 0; i < used; ++i)
      if (!no_room) guarded([&] { step.rows[i] = parse(step.ranges[i], step.faults[i]); });
  }
  if (thrown) std::rethrow_exception(thrown);
}

/// Takes the parsed ranges in file order: throws the first fault, moves each range's rows down
/// to row_base, commits it, and advances line_base and row_base past it.
void commit_block(block_step_t& step, const row_store_t& store, const range_commit_t& commit,
                  const std::string& path, const char* function, int64_t& line_base,
                  int64_t& row_base) {
  for (size_t i = 0; i < step.ranges.size(); ++i) {
    text_range_t& r = step.ranges[i];
    if (step.faults[i].failed()) {
      fault_t fault = step.faults[i];
      fault.line += line_base;
      throw_fault(function, path, fault);
    }
    if (r.first_row != row_base && step.rows[i] > 0)
      store.move(r.first_row, row_base, step.rows[i]);
    r.first_row = row_base;
    fault_t fault;
    commit(r, step.rows[i], line_base, fault);
    if (fault.failed()) throw_fault(function, path, fault);
    line_base += r.lines;
    row_base += step.rows[i];
  }
  if (store.rows_per_line > 0) store.resize(row_base);
}

}  // namespace

int64_t scan_text_file(const std::string& path, const char* function, const scan_options_t& options,
                       const header_parser_t& header, const row_store_t& store,
                       const range_parser_t& parse, const range_commit_t& commit) {
  std::unique_ptr<std::FILE, file_closer> file(open_for_reading(path, function));
  // Read through the descriptor (pread), never through the FILE's buffer.
  const int fd = ::fileno(file.get());
  struct stat info{};
  // What is left to read, to size the reading team (a pipe says 0: one reader).
  uint64_t left = ::fstat(fd, &info) == 0 ? static_cast<uint64_t>(info.st_size) : 0;
  int64_t offset = 0;
  bool seekable = true;
  // Text bytes the buffer holds: a block, doubled only for a line longer than that. Each read
  // fills what the carried partial line leaves free, so the buffer is not reallocated (and
  // copied) whenever that line is longer than the last one.
  size_t capacity = std::max(options.block_bytes, size_t{64} << 10);
  // A zeroed_array, not a vector: a vector would write zeros over the whole block before the
  // first read, 32 MiB of fresh pages for a file of a few lines.
  zeroed_array<char> buffer;
  size_t have = 0;        // bytes in buffer: the carried partial line, then what was read
  int64_t line_base = 0;  // lines of the file before the current block
  int64_t row_base = 0;   // rows of the output before the current block
  bool first = true, eof = false;
  block_step_t step;

  while (!eof) {
    if (have == capacity) capacity *= 2;
    if (buffer.size() < capacity + k_read_slack) buffer.resize(capacity + k_read_slack);
    const size_t want = capacity - have;
    const size_t got = read_block_bytes(fd, offset, buffer.data() + have, want, left, options,
                                        seekable, path, function);
    eof = got < want;
    offset += static_cast<int64_t>(got);
    left -= std::min<uint64_t>(left, got);
    have += got;
    const char* begin = buffer.data();
    const char* end = begin + have;
    if (!eof) {
      // Keep the partial last line for the next block; a block without any line break (a line
      // longer than the block) simply grows the buffer on the next round.
      const char* last = after_last_break(begin, begin + have);
      if (last == begin) continue;
      end = last;
    }
    if (first && header) {
      // The header parser reads lines of the first block before its ranges are counted.
      settle_line_breaks(buffer.data(), buffer.data() + (end - begin));
      int64_t header_lines = 0;
      fault_t fault;
      begin += header(begin, end, header_lines, fault);
      if (fault.failed()) throw_fault(function, path, fault);
      line_base += header_lines;
    }
    first = false;

    const size_t bytes = static_cast<size_t>(end - begin);
    const int team = team_now(options, static_cast<int64_t>(bytes), 2 * k_min_range_bytes);
    const int used = static_cast<int>(std::clamp<size_t>(bytes / k_min_range_bytes, 1, team));
    parse_block(step, begin, end, used, buffer.data(), store, parse, row_base);
    commit_block(step, store, commit, path, function, line_base, row_base);
    const size_t consumed = static_cast<size_t>(end - buffer.data());
    std::memmove(buffer.data(), buffer.data() + consumed, have - consumed);
    have -= consumed;
  }
  return line_base;
}

}  // namespace dyng::io
