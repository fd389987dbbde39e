// The block reader of text_blocks.hpp: one loop of fread, a cut at the last line break, a
// parallel parse of the block's ranges and an in-order commit.
#include "dyng/io/text_blocks.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>

#include "dyng/backend/execution.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/io/fresh_arrays.hpp"

#if defined(_OPENMP)
#include <omp.h>
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

}  // namespace

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

std::string where(const std::string& path, int64_t line, int64_t column) {
  // append() rather than ":" + to_string(): the latter trips a GCC 12 -Wrestrict false positive.
  std::string s = path;
  if (line > 0) s.append(1, ':').append(std::to_string(line));
  if (line > 0 && column > 0) s.append(1, ':').append(std::to_string(column));
  return s.append(": ");
}

void throw_fault(const char* function, const std::string& path, const fault_t& fault) {
  throw file_format_error(path, fault.line, fault.column,
                          std::string(function) + "(): " + where(path, fault.line, fault.column) +
                              fault.message);
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

int64_t scan_text_file(const std::string& path, const char* function, const scan_options_t& options,
                    const header_parser_t& header, const range_parser_t& parse,
                    const range_commit_t& commit) {
  std::unique_ptr<std::FILE, file_closer> file(open_for_reading(path, function));
  const int threads = resolve_threads(options.threads);
  const size_t block = std::max(options.block_bytes, size_t{64} << 10);

  std::vector<char> buffer;
  size_t have = 0;         // bytes in buffer: the carried partial line, then what was read
  int64_t line_base = 0;   // lines of the file before the current block
  bool first = true, eof = false;
  std::vector<fault_t> faults(static_cast<size_t>(threads));
  std::vector<int64_t> lines(static_cast<size_t>(threads));

  while (!eof) {
    if (buffer.size() < have + block) {
      reserve_huge(buffer, have + block);
      buffer.resize(have + block);
    }
    const size_t got = std::fread(buffer.data() + have, 1, block, file.get());
    if (got < block) {
      if (std::ferror(file.get()))
        throw file_format_error(path, 0, 0,
                                std::string(function) + "(): " + where(path, 0, 0) +
                                    "a read failed part way through the file; check the device");
      eof = true;
    }
    have += got;
    const char* begin = buffer.data();
    const char* end = begin + have;
    if (!eof) {
      // Keep the partial last line for the next block; a block without any line break (a line
      // longer than the block) simply grows the buffer on the next round.
      const char* last = begin + have;
      while (last > begin && last[-1] != '\n') --last;
      if (last == begin) continue;
      end = last;
    }
    if (first && header) {
      int64_t header_lines = 0;
      fault_t fault;
      begin += header(begin, end, header_lines, fault);
      if (fault.failed()) throw_fault(function, path, fault);
      line_base += header_lines;
      first = false;
    }
    first = false;

    const size_t bytes = static_cast<size_t>(end - begin);
    const int team = team_now(options, static_cast<int64_t>(bytes), 2 * k_min_range_bytes);
    const int used = static_cast<int>(std::clamp<size_t>(bytes / k_min_range_bytes, 1, team));
    const std::vector<const char*> cuts = cut_ranges(begin, end, used);
    std::exception_ptr thrown;
#pragma omp parallel for num_threads(used) schedule(static, 1) if (used > 1)
    for (int i = 0; i < used; ++i) {
      try {
        faults[i] = fault_t{};
        lines[i] = parse(i, cuts[i], cuts[i + 1], faults[i]);
      } catch (...) {
#pragma omp critical(dyng_io_scan)
        if (!thrown) thrown = std::current_exception();
      }
    }
    if (thrown) std::rethrow_exception(thrown);
    for (int i = 0; i < used; ++i) {
      if (faults[i].failed()) {
        fault_t fault = faults[i];
        fault.line += line_base;
        throw_fault(function, path, fault);
      }
      fault_t fault;
      commit(i, line_base, fault);
      if (fault.failed()) throw_fault(function, path, fault);
      line_base += lines[i];
    }
    const size_t consumed = static_cast<size_t>(end - buffer.data());
    std::memmove(buffer.data(), buffer.data() + consumed, have - consumed);
    have -= consumed;
  }
  return line_base;
}

}  // namespace dyng::io
