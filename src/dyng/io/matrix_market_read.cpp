// The Matrix Market coordinate reader: the banner and size line are read serially as the
// header of the first block, the entries in parallel ranges; the commit step checks the entry
// count against the size line, so "more entries than announced" names the first extra line.
//
// What 0.2.0 read is read: the banner's words in any case, every field (pattern, integer, real,
// complex) and symmetry (general, symmetric, skew-symmetric, hermitian). Only integer values can
// be weights; the others are checked and skipped. A mirrored entry (every symmetry but general)
// stands for two edges, the mirror right after the entry, its weight negated when the matrix is
// skew-symmetric (a hermitian matrix's integer values are their own conjugates).
#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>

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
    return fail(banner, "expected the banner '%%MatrixMarket matrix coordinate <field> "
                        "<symmetry>', found " + quoted(banner) + k_fix);
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
                              "'hermitian')" + k_fix);
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
    f = {line, c.column_of(extra), "the size line holds more than 'rows cols entries'" + std::string(k_fix)};
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
bool parse_value(line_cursor& c, int64_t line, std::string_view token, field_t field,
                 bool read, int32_t& weight, fault_t& f) {
  int64_t ignored = 0;
  if (read ? parse_int32(token, weight)
           : field == field_t::integer ? parse_int64(token, ignored) : is_real_number(token))
    return true;
  f = {line, c.column_of(token),
       "value " + quoted(token) + " is not " +
           (read ? std::string("an integer in [-2147483648, 2147483647]")
                 : field == field_t::integer ? std::string("an integer (the banner says 'integer')")
                                             : "a real number (the banner says '" +
                                                   std::string(field_name(field)) + "')") +
           k_fix};
  return false;
}

/// Per-range count of entries (a mirrored entry off the diagonal is two rows).
struct part_t {
  int64_t entries = 0;
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
                                std::optional<int64_t> as_is_index_base) {
  bool have_size = false;
  edge_table_t table;
  // rows_per_line, the width and the weights are set by the header, before the first block's
  // ranges are parsed.
  row_store_t rows;
  rows.resize = [&table](int64_t n) { table.resize(n); };
  rows.move = [&table](int64_t from, int64_t to, int64_t count) {
    table.move_rows(from, to, count);
  };
  bool read_values = false;
  auto header = [&](const char* begin, const char* end, int64_t& lines, fault_t& f) -> size_t {
    const char* p = begin;
    while (p < end && !have_size) {
      const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p));
      const char* stop = nl != nullptr ? static_cast<const char*>(nl) : end;
      line_cursor c(p, stop);
      ++lines;
      if (lines == 1) {
        if (!parse_banner(c, h, f)) {
          c.name_control_byte(f);
          return 0;
        }
        const bool integer = h.field == field_t::integer;
        read_values = integer && mode != mm_values_t::ignore;
        if ((mode == mm_values_t::required && !integer) ||
            (mode == mm_values_t::if_integer && value_count(h.field) > 0 && !integer)) {
          f = {1, 0,
               "a '" + std::string(field_name(h.field)) + "' matrix has no integer weights; read "
               "it with weights='none' or weights='random'"};
          return 0;
        }
      } else if (const line_kind_t kind = c.kind("%", lines, f); kind == line_kind_t::damaged) {
        return 0;
      } else if (kind == line_kind_t::data) {
        if (!parse_size_line(c, lines, h, f)) {
          c.name_control_byte(f);
          return 0;
        }
        have_size = true;
        // Ids are 0..n-1: 32-bit columns hold them unless n is above 2^32.
        table.wide = !fits_narrow(h.num_vertices - 1);
        table.num_weights = read_values ? 1 : 0;
        rows.rows_per_line = h.mirrored() ? 2 : 1;
      }
      p = stop < end ? stop + 1 : end;
    }
    if (!have_size) f = {lines + 1, 0, "the file ends before the size line 'rows cols entries'" + std::string(k_fix)};
    return static_cast<size_t>(p - begin);
  };

  std::vector<part_t> parts(static_cast<size_t>(resolve_threads(scan.threads)));
  auto parse = [&](const text_range_t& r, fault_t& f) -> int64_t {
    part_t& part = parts[r.part];
    part = part_t{};
    const int values = value_count(h.field);
    const bool negate_mirror = h.symmetry == symmetry_t::skew_symmetric && read_values;
    const int64_t n = h.num_vertices;
    int64_t at = r.first_row;
    auto put = [&](int64_t i, int64_t j, int32_t w) {
      if (table.wide) {
        table.src64[at] = i;
        table.dst64[at] = j;
      } else {
        table.src32[at] = static_cast<uint32_t>(i);
        table.dst32[at] = static_cast<uint32_t>(j);
      }
      if (read_values) table.weights[at] = w;
      ++at;
    };
    const std::string layout = std::string("'row column") +
                               (values == 0 ? "'" : values == 1 ? " value'" : " real imaginary'");
    const bool as_is = as_is_index_base.has_value();
    const int64_t base = as_is ? *as_is_index_base : 0;
    for_each_line(r.begin, r.end, [&](line_cursor& c, int64_t line) {
      const line_kind_t kind = c.kind("%", line, f);
      if (kind != line_kind_t::data) return kind != line_kind_t::damaged;
      int64_t ij[2];
      for (int k = 0; k < 2; ++k) {
        const std::string_view tok = c.next();
        const char* what = k == 0 ? "row index" : "column index";
        if (tok.empty()) {
          f = {line, c.end_column(),
               "expected " + layout + "; the " + what + " is missing" + k_fix};
          return false;
        }
        if (!parse_int64(tok, ij[k]) || ij[k] < 1 || ij[k] > n) {
          f = {line, c.column_of(tok), std::string(what) + " " + quoted(tok) +
                                           " is not an integer in [1, " + std::to_string(n) + "]" + k_fix};
          return false;
        }
        if (as_is && !as_is_id_fits(ij[k], base)) {
          f = {line, c.column_of(tok), as_is_id_problem(ij[k], base)};
          return false;
        }
      }
      int32_t w = 0;
      std::string_view weight_token;
      for (int k = 0; k < values; ++k) {
        const std::string_view tok = c.next();
        if (tok.empty()) {
          f = {line, c.end_column(), "an entry of a '" + std::string(field_name(h.field)) +
                                         "' matrix reads " + layout + k_fix};
          return false;
        }
        if (!parse_value(c, line, tok, h.field, read_values, w, f)) return false;
        if (k == 0) weight_token = tok;
      }
      if (!c.at_end()) {
        const std::string_view extra = c.next();
        f = {line, c.column_of(extra), "unexpected " + quoted(extra) + " after the entry (" +
                                           layout + ")" + k_fix};
        return false;
      }
      const bool mirror = h.mirrored() && ij[0] != ij[1];
      if (mirror && negate_mirror && w == INT32_MIN) {
        f = {line, c.column_of(weight_token),
             "value -2147483648 of a skew-symmetric matrix has no int32 mirror (2147483648)" +
                 std::string(k_fix)};
        return false;
      }
      ++part.entries;
      put(ij[0] - 1, ij[1] - 1, w);
      if (mirror) put(ij[1] - 1, ij[0] - 1, negate_mirror ? -w : w);
      return true;
    }, &f);
    return at - r.first_row;
  };

  int64_t seen = 0;
  auto commit = [&](const text_range_t& r, int64_t, int64_t line_base, fault_t& f) {
    const part_t& part = parts[r.part];
    if (seen + part.entries > h.entries) {
      // Find the first entry past the announced count; the scan stops there.
      int64_t left = h.entries - seen;
      for_each_line(r.begin, r.end, [&](line_cursor& c, int64_t line) {
        fault_t parsed;  // the range's parse checked every line already
        if (c.kind("%", line, parsed) != line_kind_t::data) return true;
        if (left-- > 0) return true;
        f = {line_base + line, 0, "more entries than the " + std::to_string(h.entries) +
                                      " announced in the size line" + std::string(k_fix)};
        return false;
      });
      return;
    }
    seen += part.entries;
  };
  const int64_t lines = scan_text_file(path, function, scan, header, rows, parse, commit);
  if (!have_size) {
    throw_fault(function, path, {lines + 1, 0, "the file ends before the size line 'rows cols entries'" + std::string(k_fix)});
  }
  if (seen < h.entries) {
    throw_fault(function, path, {lines + 1, 0, "the file ends after " + std::to_string(seen) + " of " +
                                                   std::to_string(h.entries) + " entries" + std::string(k_fix)});
  }
  table.num_vertices = h.num_vertices;
  table.matrix_market = true;
  table.symmetric = h.mirrored();
  return table;
}

edge_table_t read_matrix_market(const std::string& path, const matrix_market_options_t& o) {
  const char* function = "read_matrix_market";
  if (o.weights == mm_weights_t::random && (o.num_weights < 1 || o.random_min > o.random_max))
    throw invalid_argument_error(std::string(function) + "(): random weights need num_weights >= 1 "
                                 "and min <= max (got num_weights=" + std::to_string(o.num_weights) +
                                 ", min=" + std::to_string(o.random_min) + ", max=" +
                                 std::to_string(o.random_max) + "); pass valid values");
  mm_header_t h;
  const mm_values_t mode = o.weights == mm_weights_t::from_file   ? mm_values_t::required
                           : o.weights == mm_weights_t::automatic ? mm_values_t::if_integer
                                                                  : mm_values_t::ignore;
  const scan_options_t scan = settle_team(o.scan, path);
  edge_table_t t = scan_matrix_market(path, function, scan, mode, h);
  finish_options_t fo;
  fo.drop_self_loops = o.drop_self_loops;
  fo.sort = fo.merge_duplicates = o.sort_and_dedupe;
  fo.threads = t.size() >= k_min_parallel_edges ? scan.threads : 1;
  finish_edges(t, fo);
  if (o.weights == mm_weights_t::random)
    draw_random_weights(t, o.num_weights, o.random_min, o.random_max, o.random_seed);
  return t;
}

}  // namespace dyng::io
