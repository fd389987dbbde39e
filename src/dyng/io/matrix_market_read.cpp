// The Matrix Market coordinate reader: the banner and size line are read serially as the
// header of the first block, the entries in parallel ranges; the commit step checks the entry
// count against the size line, so "more entries than announced" names the first extra line.
//
// What 0.2.0 read is read: the banner's words in any case, every field (pattern, integer, real,
// complex) and symmetry (general, symmetric, skew-symmetric, hermitian). Only integer values can
// be weights; the others are checked and skipped. A mirrored entry (every symmetry but general)
// stands for two edges, the mirror right after the entry, its weight negated when the matrix is
// skew-symmetric (a hermitian matrix's integer values are their own conjugates).
//
// A source range (one rank's shard) writes only the edges whose source lies in it, an entry and
// its mirror each by its own source; every entry is still read, checked and counted, so a broken
// file fails alike whatever the range.
#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dyng/core/errors.hpp"
#include "dyng/io/edge_readers.hpp"
#include "dyng/io/real_token.hpp"

namespace dyng::io {
namespace {

constexpr const char* k_fix = "; fix the file or write it again with write_matrix_market";

using field_t = mm_header_t::field_t;
using symmetry_t = mm_header_t::symmetry_t;

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == (y | 0x20);
         });
}

const char* field_name(field_t field) {
  switch (field) {
    case field_t::pattern: return "pattern";
    case field_t::integer: return "integer";
    case field_t::real: return "real";
    case field_t::complex: return "complex";
  }
  return "";
}

/// The values after 'row column' on an entry line.
int value_count(field_t field) {
  return field == field_t::pattern ? 0 : field == field_t::complex ? 2 : 1;
}

/// Checks the banner line; fills field and symmetry.
bool parse_banner(line_cursor& c, mm_header_t& h, fault_t& f) {
  auto fail = [&](std::string_view token, std::string what) {
    f = {1, token.empty() ? c.end_column() : c.column_of(token), what};
    return false;
  };
  const std::string_view banner = c.next();
  if (!iequals(banner, "%%MatrixMarket"))
    return fail(banner,
                "expected the banner '%%MatrixMarket matrix coordinate <field> "
                "<symmetry>', found " +
                    quoted(banner) + k_fix);
  const std::string_view object = c.next();
  if (!iequals(object, "matrix"))
    return fail(object, "unsupported object " + quoted(object) + " (only 'matrix')" + k_fix);
  const std::string_view format = c.next();
  if (!iequals(format, "coordinate"))
    return fail(format, "unsupported format " + quoted(format) +
                            " (only 'coordinate' matrices describe graphs)" + k_fix);
  const std::string_view field = c.next();
  if (iequals(field, "pattern")) h.field = field_t::pattern;
  else if (iequals(field, "integer")) h.field = field_t::integer;
  else if (iequals(field, "real")) h.field = field_t::real;
  else if (iequals(field, "complex")) h.field = field_t::complex;
  else
    return fail(field, "unsupported field " + quoted(field) +
                           " (expected 'pattern', 'integer', 'real' or 'complex')" + k_fix);
  const std::string_view symmetry = c.next();
  if (iequals(symmetry, "general")) h.symmetry = symmetry_t::general;
  else if (iequals(symmetry, "symmetric")) h.symmetry = symmetry_t::symmetric;
  else if (iequals(symmetry, "skew-symmetric")) h.symmetry = symmetry_t::skew_symmetric;
  else if (iequals(symmetry, "hermitian")) h.symmetry = symmetry_t::hermitian;
  else
    return fail(symmetry, "unsupported symmetry " + quoted(symmetry) +
                              " (expected 'general', 'symmetric', 'skew-symmetric' or "
                              "'hermitian')" +
                              k_fix);
  if (!c.at_end()) {
    const std::string_view extra = c.next();
    return fail(extra, "unexpected " + quoted(extra) + " after the banner" + std::string(k_fix));
  }
  return true;
}

/// Reads `rows cols entries` from line `line`.
bool parse_size_line(line_cursor& c, int64_t line, mm_header_t& h, fault_t& f) {
  int64_t v[3] = {0, 0, 0};
  const char* names[3] = {"row count", "column count", "entry count"};
  std::string_view tokens[3];
  for (int i = 0; i < 3; ++i) {
    tokens[i] = c.next();
    if (tokens[i].empty() || !parse_int64(tokens[i], v[i]) || v[i] < 0) {
      f = {line, tokens[i].empty() ? c.end_column() : c.column_of(tokens[i]),
           std::string("expected the size line 'rows cols entries'; the ") + names[i] + " " +
               (tokens[i].empty() ? "is missing" : quoted(tokens[i]) + " is not a count") + k_fix};
      return false;
    }
  }
  if (!c.at_end()) {
    const std::string_view extra = c.next();
    f = {line, c.column_of(extra),
         "the size line holds more than 'rows cols entries'" + std::string(k_fix)};
    return false;
  }
  if (v[0] != v[1]) {
    f = {line, c.column_of(tokens[1]),
         "the matrix is " + std::to_string(v[0]) + " x " + std::to_string(v[1]) +
             "; a graph needs a square matrix"};
    return false;
  }
  h.num_vertices = v[0];
  h.entries = v[2];
  return true;
}

/// Checks one value token of an entry and, when the values are read, its weight. Every value is
/// checked, read or not: a '#' or a damaged number in a skipped column is still a broken file.
bool parse_value(line_cursor& c, int64_t line, std::string_view token, field_t field, bool read,
                 int32_t& weight, fault_t& f) {
  int64_t ignored = 0;
  if (read                        ? parse_int32(token, weight)
      : field == field_t::integer ? parse_int64(token, ignored)
                                  : is_real_number(token))
    return true;
  f = {line, c.column_of(token),
       "value " + quoted(token) + " is not " +
           (read ? std::string("an integer in [-2147483648, 2147483647]")
            : field == field_t::integer
                ? std::string("an integer (the banner says 'integer')")
                : "a real number (the banner says '" + std::string(field_name(field)) + "')") +
           k_fix};
  return false;
}

/// Per-range count of entries (a mirrored entry off the diagonal is two rows), and the bounds of
/// the 0-based ids of those not dropped as self-loops.
struct part_t {
  int64_t entries = 0;
  int64_t lo = INT64_MAX;
  int64_t hi = INT64_MIN;
};

/// One Matrix Market scan: the header (banner and size line) read serially, then the entries of
/// each range parsed into `table`, then committed in file order against the announced count. The
/// parts of scan_text_file() call its members.
class mm_scan_t {
 public:
  mm_scan_t(mm_values_t mode, mm_header_t& h, std::optional<int64_t> as_is_index_base,
            const mm_keep_t& keep, int threads)
      : mode_(mode),
        h_(h),
        as_is_index_base_(as_is_index_base),
        keep_(keep),
        parts_(static_cast<size_t>(threads)) {
    // rows_per_line, the width and the weights are set by the header, before the first block's
    // ranges are parsed.
    rows.resize = [this](int64_t n) { table.resize(n); };
    rows.move = [this](int64_t from, int64_t to, int64_t count) {
      table.move_rows(from, to, count);
    };
  }
  mm_scan_t(const mm_scan_t&) = delete;
  mm_scan_t& operator=(const mm_scan_t&) = delete;

  /// header_parser_t: reads lines from `begin` until the size line; returns the bytes read.
  size_t header(const char* begin, const char* end, int64_t& lines, fault_t& f) {
    const char* p = begin;
    while (p < end && !have_size) {
      const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p));
      const char* stop = nl != nullptr ? static_cast<const char*>(nl) : end;
      line_cursor c(p, stop);
      ++lines;
      if (!header_line(c, lines, f)) return 0;
      p = stop < end ? stop + 1 : end;
    }
    if (!have_size)
      f = {lines + 1, 0,
           "the file ends before the size line 'rows cols entries'" + std::string(k_fix)};
    return static_cast<size_t>(p - begin);
  }

  /// range_parser_t: parses the entries of one range into the table; returns the rows written.
  int64_t parse(const text_range_t& r, fault_t& f) {
    part_t& part = parts_[r.part];
    part = part_t{};
    const entry_format_t format = entry_format();
    int64_t at = r.first_row;
    for_each_line(
        r.begin, r.end,
        [&](line_cursor& c, int64_t line) {
          const line_kind_t kind = c.kind("%", line, f);
          if (kind != line_kind_t::data) return kind != line_kind_t::damaged;
          if (!parse_entry(c, line, format, part, at, f)) return false;
          ++part.entries;
          return true;
        },
        &f);
    return at - r.first_row;
  }

  /// range_commit_t: counts the range's entries against the size line, naming the first extra.
  void commit(const text_range_t& r, int64_t line_base, fault_t& f) {
    const part_t& part = parts_[r.part];
    if (seen + part.entries > h_.entries) {
      // Find the first entry past the announced count; the scan stops there.
      int64_t left = h_.entries - seen;
      for_each_line(r.begin, r.end, [&](line_cursor& c, int64_t line) {
        fault_t parsed;  // the range's parse checked every line already
        if (c.kind("%", line, parsed) != line_kind_t::data) return true;
        if (left-- > 0) return true;
        f = {line_base + line, 0,
             "more entries than the " + std::to_string(h_.entries) + " announced in the size line" +
                 std::string(k_fix)};
        return false;
      });
      return;
    }
    seen += part.entries;
    table.id_lo = std::min(table.id_lo, part.lo);
    table.id_hi = std::max(table.id_hi, part.hi);
  }

  edge_table_t table;
  row_store_t rows;
  bool have_size = false;
  int64_t seen = 0;  ///< Entries committed.

 private:
  /// What every entry of the file looks like, fixed by the header.
  struct entry_format_t {
    int values;          ///< Value tokens after the two indices.
    bool negate_mirror;  ///< A skew-symmetric matrix's mirrored weights are negated.
    int64_t n;
    std::string layout;  ///< The entry's layout, for messages.
    bool as_is;
    int64_t base;
  };

  entry_format_t entry_format() const {
    const int values = value_count(h_.field);
    return {values,
            h_.symmetry == symmetry_t::skew_symmetric && read_values_,
            h_.num_vertices,
            std::string("'row column") + (values == 0   ? "'"
                                          : values == 1 ? " value'"
                                                        : " real imaginary'"),
            as_is_index_base_.has_value(),
            as_is_index_base_.value_or(0)};
  }

  /// One header line: the banner (line 1), a comment, or the size line. False on a fault.
  bool header_line(line_cursor& c, int64_t line, fault_t& f) {
    if (line == 1) {
      if (!parse_banner(c, h_, f)) {
        c.name_control_byte(f);
        return false;
      }
      const bool integer = h_.field == field_t::integer;
      read_values_ = integer && mode_ != mm_values_t::ignore;
      if ((mode_ == mm_values_t::required && !integer) ||
          (mode_ == mm_values_t::if_integer && value_count(h_.field) > 0 && !integer)) {
        f = {1, 0,
             "a '" + std::string(field_name(h_.field)) +
                 "' matrix has no integer weights; read "
                 "it with weights='none' or weights='random'"};
        return false;
      }
      return true;
    }
    const line_kind_t kind = c.kind("%", line, f);
    if (kind == line_kind_t::damaged) return false;
    if (kind != line_kind_t::data) return true;
    if (!parse_size_line(c, line, h_, f)) {
      c.name_control_byte(f);
      return false;
    }
    have_size = true;
    // Ids are 0..n-1: 32-bit columns hold them unless n is above 2^32.
    table.wide = !fits_narrow(h_.num_vertices - 1);
    table.num_weights = read_values_ ? 1 : 0;
    rows.rows_per_line = h_.mirrored() ? 2 : 1;
    return true;
  }

  /// The two 1-based indices of an entry into ij (0-based ids later). False on a fault.
  bool parse_indices(line_cursor& c, int64_t line, const entry_format_t& e, int64_t (&ij)[2],
                     fault_t& f) const {
    for (int k = 0; k < 2; ++k) {
      const std::string_view tok = c.next();
      const char* what = k == 0 ? "row index" : "column index";
      if (tok.empty()) {
        f = {line, c.end_column(),
             "expected " + e.layout + "; the " + what + " is missing" + k_fix};
        return false;
      }
      if (!parse_int64(tok, ij[k]) || ij[k] < 1 || ij[k] > e.n) {
        f = {line, c.column_of(tok),
             std::string(what) + " " + quoted(tok) + " is not an integer in [1, " +
                 std::to_string(e.n) + "]" + k_fix};
        return false;
      }
      if (e.as_is && !as_is_id_fits(ij[k], e.base)) {
        f = {line, c.column_of(tok), as_is_id_problem(ij[k], e.base)};
        return false;
      }
    }
    return true;
  }

  /// Writes one edge into table row `at` and moves `at` on.
  void put(int64_t& at, int64_t i, int64_t j, int32_t w) {
    if (table.wide) {
      table.src64[at] = i;
      table.dst64[at] = j;
    } else {
      table.src32[at] = static_cast<uint32_t>(i);
      table.dst32[at] = static_cast<uint32_t>(j);
    }
    if (read_values_) table.weights[at] = w;
    ++at;
  }

  /// One entry line: its indices, values and nothing after them, written as one or (mirrored)
  /// two edges from row `at` on, each when keep_ takes it. False on a fault.
  bool parse_entry(line_cursor& c, int64_t line, const entry_format_t& e, part_t& part, int64_t& at,
                   fault_t& f) {
    int64_t ij[2];
    if (!parse_indices(c, line, e, ij, f)) return false;
    int32_t w = 0;
    std::string_view weight_token;
    for (int k = 0; k < e.values; ++k) {
      const std::string_view tok = c.next();
      if (tok.empty()) {
        f = {line, c.end_column(),
             "an entry of a '" + std::string(field_name(h_.field)) + "' matrix reads " + e.layout +
                 k_fix};
        return false;
      }
      if (!parse_value(c, line, tok, h_.field, read_values_, w, f)) return false;
      if (k == 0) weight_token = tok;
    }
    if (!c.at_end()) {
      const std::string_view extra = c.next();
      f = {line, c.column_of(extra),
           "unexpected " + quoted(extra) + " after the entry (" + e.layout + ")" + k_fix};
      return false;
    }
    const bool mirror = h_.mirrored() && ij[0] != ij[1];
    if (mirror && e.negate_mirror && w == INT32_MIN) {
      f = {line, c.column_of(weight_token),
           "value -2147483648 of a skew-symmetric matrix has no int32 mirror (2147483648)" +
               std::string(k_fix)};
      return false;
    }
    const int64_t i = ij[0] - 1, j = ij[1] - 1;
    if (keep_.drop_self_loops && i == j) return true;
    part.lo = std::min({part.lo, i, j});
    part.hi = std::max({part.hi, i, j});
    const bool either = keep_.either_end && (keep_.sources.holds(i) || keep_.sources.holds(j));
    if (either || keep_.sources.holds(i)) put(at, i, j, w);
    if (mirror && (either || keep_.sources.holds(j))) put(at, j, i, e.negate_mirror ? -w : w);
    return true;
  }

  mm_values_t mode_;
  mm_header_t& h_;
  std::optional<int64_t> as_is_index_base_;
  mm_keep_t keep_;
  std::vector<part_t> parts_;
  bool read_values_ = false;
};

}  // namespace

bool starts_with_matrix_market_banner(const std::string& path, const char* function) {
  // This exact spelling only, as 0.2.0's read_edge_list: there a lower-case banner is a comment.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(open_for_reading(path, function), &std::fclose);
  char head[14] = {};
  const size_t got = std::fread(head, 1, sizeof head, f.get());
  return got == sizeof head && std::memcmp(head, "%%MatrixMarket", sizeof head) == 0;
}

edge_table_t scan_matrix_market(const std::string& path, const char* function,
                                const scan_options_t& scan, mm_values_t mode, mm_header_t& h,
                                std::optional<int64_t> as_is_index_base, const mm_keep_t& keep) {
  mm_scan_t s(mode, h, as_is_index_base, keep, resolve_threads(scan.threads));
  const int64_t lines = scan_text_file(
      path, function, scan,
      [&s](const char* begin, const char* end, int64_t& header_lines, fault_t& f) {
        return s.header(begin, end, header_lines, f);
      },
      s.rows, [&s](const text_range_t& r, fault_t& f) { return s.parse(r, f); },
      [&s](const text_range_t& r, int64_t, int64_t line_base, fault_t& f) {
        s.commit(r, line_base, f);
      });
  if (!s.have_size) {
    throw_fault(function, path,
                {lines + 1, 0,
                 "the file ends before the size line 'rows cols entries'" + std::string(k_fix)});
  }
  if (s.seen < h.entries) {
    throw_fault(function, path,
                {lines + 1, 0,
                 "the file ends after " + std::to_string(s.seen) + " of " +
                     std::to_string(h.entries) + " entries" + std::string(k_fix)});
  }
  s.table.num_vertices = h.num_vertices;
  s.table.matrix_market = true;
  s.table.symmetric = h.mirrored();
  return std::move(s.table);
}

edge_table_t read_matrix_market(const std::string& path, const matrix_market_options_t& o) {
  const char* function = "read_matrix_market";
  if (o.weights == mm_weights_t::random && (o.num_weights < 1 || o.random_min > o.random_max))
    throw invalid_argument_error(std::string(function) +
                                 "(): random weights need num_weights >= 1 "
                                 "and min <= max (got num_weights=" +
                                 std::to_string(o.num_weights) +
                                 ", min=" + std::to_string(o.random_min) +
                                 ", max=" + std::to_string(o.random_max) + "); pass valid values");
  check_source_range(o.sources, function);
  if (o.weights == mm_weights_t::random && !o.sources.all())
    throw invalid_argument_error(std::string(function) +
                                 "(): random weights are drawn edge by edge over the whole "
                                 "file's edges, which a read of one source range does not see; "
                                 "read weights='from_file' or 'none', or the whole file");
  mm_header_t h;
  const mm_values_t mode = o.weights == mm_weights_t::from_file   ? mm_values_t::required
                           : o.weights == mm_weights_t::automatic ? mm_values_t::if_integer
                                                                  : mm_values_t::ignore;
  const scan_options_t scan = settle_team(o.scan, path);
  edge_table_t t = scan_matrix_market(path, function, scan, mode, h, std::nullopt,
                                      {o.drop_self_loops, o.sources});
  finish_options_t fo;
  fo.drop_self_loops = false;  // the scan dropped them
  fo.sort = fo.merge_duplicates = o.sort_and_dedupe;
  fo.threads = t.size() >= k_min_parallel_edges ? scan.threads : 1;
  finish_edges(t, fo);
  if (o.weights == mm_weights_t::random)
    draw_random_weights(t, o.num_weights, o.random_min, o.random_max, o.random_seed);
  return t;
}

}  // namespace dyng::io
