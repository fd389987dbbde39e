// The small formats are read serially (one range per block): their checks carry state across
// lines (a vertex listed twice, the batch a line belongs to) and the files are small next to
// edge lists. The scanner, tokenizer and error form are the shared ones.
#include "dyng/io/small_readers.hpp"

#include <algorithm>

#include "dyng/core/errors.hpp"
#include "dyng/io/text_blocks.hpp"

namespace dyng::io {
namespace {

/// Calls f(cursor, line, fault) for every line of `path`, on one thread.
template <class line_fn>
void scan_serial(const std::string& path, const char* function, line_fn&& f) {
  scan_options_t one;
  one.threads = 1;
  scan_text_file(
      path, function, one, header_parser_t{}, row_store_t{},
      [&](const text_range_t& r, fault_t& fault) -> int64_t {
        for_each_line(
            r.begin, r.end, [&](line_cursor& c, int64_t line) { return f(c, line, fault); },
            &fault);
        return 0;  // the reader keeps its own state, no rows
      },
      [](const text_range_t&, int64_t, int64_t, fault_t&) {});
}

/// Reads one integer token (INF allowed when inf > 0) into v; sets f on failure.
bool read_int(line_cursor& c, int64_t line, int64_t inf, const std::string& what,
              const std::string& layout, int64_t& v, fault_t& f) {
  const std::string_view tok = c.next();
  if (tok.empty()) {
    f = {line, c.end_column(), "the " + what + " is missing; a line reads '" + layout + "'"};
    return false;
  }
  if (inf > 0 && tok == "INF") {
    v = inf;
    return true;
  }
  if (!parse_int64(tok, v)) {
    f = {line, c.column_of(tok),
         "expected an integer " + what + ", found " + quoted(tok) + "; a line reads '" + layout +
             "'"};
    return false;
  }
  return true;
}

bool check_range(line_cursor& c, int64_t line, std::string_view at, const std::string& what,
                 int64_t v, int64_t lo, int64_t hi, fault_t& f, std::string_view advice = {}) {
  if (v >= lo && v <= hi) return true;
  f = {line, c.column_of(at),
       what + " " + std::to_string(v) + " out of range [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]" + std::string(advice)};
  return false;
}

/// Why a weight of the MOSP tools' files (CSR Values, insert.txt) must be at least 1, as 0.2.0
/// required: their shortest-path codes take weights as positive lengths.
constexpr std::string_view k_positive_weight =
    "; the MOSP tools' weights are positive lengths: fix the weight";

/// Reads an id with its range check; the token is re-found for the column.
bool read_id(line_cursor& c, int64_t line, const std::string& layout, int64_t lo, int64_t hi,
             int64_t& v, fault_t& f) {
  line_cursor probe = c;
  const std::string_view tok = probe.next();
  if (!read_int(c, line, 0, "vertex id", layout, v, f)) return false;
  return check_range(c, line, tok, "vertex id", v, lo, hi, f);
}

/// Checks that the line ends here; `lenient` (mosp_lenient) lets integers follow, as the MOSP
/// tools ignored extra numbers at the end of a line (0.2.0 too), but nothing else.
bool at_line_end(line_cursor& c, int64_t line, const std::string& layout, bool lenient,
                 fault_t& f) {
  for (std::string_view extra = c.next(); !extra.empty(); extra = c.next()) {
    int64_t ignored = 0;
    if (lenient && parse_int64(extra, ignored)) continue;
    f = {line, c.column_of(extra),
         (lenient ? "expected an integer (mosp_lenient skips extra numbers only), found "
                  : "unexpected ") +
             quoted(extra) + "; a line reads '" + layout + "'"};
    return false;
  }
  return true;
}

std::string weights_layout(const char* head, int k) {
  std::string s = head;
  for (int j = 1; j <= k; ++j) s += " w" + std::to_string(j);
  return s;
}

/// The integers of a RowPtr or ColInd file, each in [lo, hi] and, `rising`, none below the one
/// before. The tools write one to a line; 0.2.0 also read several to a line, and so does this.
std::vector<int64_t> read_column(const std::string& path, const std::string& what, int64_t lo,
                                 int64_t hi, bool rising) {
  std::vector<int64_t> out;
  scan_serial(path, "read_csr_triplet", [&](line_cursor& c, int64_t line, fault_t& f) {
    while (!c.at_end()) {
      int64_t v = 0;
      line_cursor probe = c;
      const std::string_view tok = probe.next();
      if (!read_int(c, line, 0, what, "n", v, f) || !check_range(c, line, tok, what, v, lo, hi, f))
        return false;
      if (rising && !out.empty() && v < out.back()) {
        f = {line, c.column_of(tok),
             what + " " + std::to_string(v) + " after " + std::to_string(out.back()) +
                 "; row pointers must not "
                 "decrease: write the triplet again with "
                 "write_csr_triplet"};
        return false;
      }
      out.push_back(v);
    }
    return true;
  });
  return out;
}

[[noreturn]] void whole_file_fault(const char* function, const std::string& path,
                                   std::string what) {
  throw_fault(function, path, {0, 0, std::move(what)});
}

/// What a .dgt file's directives have said so far.
struct dgt_directives_t {
  bool first_line = true;  // no directive or operation yet ('%dgt' may come only then)
  bool seen_batch = false;
  bool seen_operation = false;  // an operation before any '%batch'
  int64_t last_id = -1;
};

/// Reads the rest of a '%' line whose first token is `name`: '%dgt 1' as the first line that
/// is not a comment, or '%batch <id>' with ids rising (`starts_batch` set). Anything else is
/// refused, as 0.2.0 did: read as a comment, a misspelt '%batch' would merge two batches.
bool read_directive(line_cursor& c, int64_t line, std::string_view name, dgt_directives_t& d,
                    bool& starts_batch, fault_t& f) {
  const bool first = d.first_line;
  d.first_line = false;
  if (name == "%dgt") {
    const std::string_view version = c.next();
    if (!first) {
      f = {line, c.column_of(name),
           "'%dgt <version>' may only be the first line that is not "
           "a comment; remove this one"};
      return false;
    }
    if (version.empty()) {
      f = {line, c.end_column(), "the version is missing; the line reads '%dgt 1'"};
      return false;
    }
    if (version != "1") {
      f = {line, c.column_of(version),
           "unsupported .dgt version " + quoted(version) +
               " (this library reads version 1); write the file "
               "again with write_batches"};
      return false;
    }
    return at_line_end(c, line, "%dgt 1", false, f);
  }
  if (name == "%batch") {
    if (d.seen_operation && !d.seen_batch) {
      f = {line, c.column_of(name),
           "operations before the first '%batch' line (a file with "
           "'%batch' lines must start every batch with one); add a "
           "'%batch' line at the top"};
      return false;
    }
    const std::string_view token = c.next();
    int64_t id = 0;
    if (token.empty()) {
      f = {line, c.end_column(), "the batch id is missing; the line reads '%batch <id>'"};
      return false;
    }
    if (!parse_int64(token, id) || id < 0) {
      f = {line, c.column_of(token),
           "batch id " + quoted(token) + " is not an integer in [0, " + std::to_string(INT64_MAX) +
               "]; fix the id"};
      return false;
    }
    if (id <= d.last_id) {
      f = {line, c.column_of(token),
           "batch id " + std::to_string(id) + " after " + std::to_string(d.last_id) +
               "; ids must rise through "
               "the file: renumber the batches"};
      return false;
    }
    d.last_id = id;
    d.seen_batch = true;
    starts_batch = true;
    return at_line_end(c, line, "%batch <id>", false, f);
  }
  f = {line, c.column_of(name),
       "unknown directive " + quoted(name) +
           " (expected '%dgt' or "
           "'%batch'); correct it, or make the line a comment with '#'"};
  return false;
}

}  // namespace

csr_table_t read_csr_triplet(const std::string& prefix, int num_weights) {
  const char* function = "read_csr_triplet";
  csr_table_t t;
  const std::string rows = prefix + "RowPtr.txt", cols = prefix + "ColInd.txt",
                    vals = prefix + "Values.txt";
  t.row_ptr = read_column(rows, "row pointer", 0, INT64_MAX, true);
  if (t.row_ptr.empty() || t.row_ptr.front() != 0)
    whole_file_fault(function, rows,
                     "a row pointer file starts with 0 and holds n + 1 numbers; "
                     "write it again with write_csr_triplet");
  const int64_t n = static_cast<int64_t>(t.row_ptr.size()) - 1;
  t.col_ind = read_column(cols, "column index", 0, std::max<int64_t>(n - 1, 0), false);
  const int64_t m = static_cast<int64_t>(t.col_ind.size());
  if (m != t.row_ptr.back())
    whole_file_fault(function, cols,
                     "holds " + std::to_string(m) +
                         " column indices but the row "
                         "pointers end at " +
                         std::to_string(t.row_ptr.back()) +
                         "; write the triplet again with write_csr_triplet");
  int k = num_weights;
  int64_t lines = 0;
  scan_serial(vals, function, [&](line_cursor& c, int64_t line, fault_t& f) {
    if (c.kind("", line, f) == line_kind_t::blank) return true;
    if (k == 0) {
      // K comes from the first line: count its tokens.
      line_cursor probe = c;
      while (!probe.next().empty()) ++k;
    }
    for (int j = 0; j < k; ++j) {
      int64_t w = 0;
      line_cursor probe = c;
      const std::string_view tok = probe.next();
      if (tok.empty()) {
        f = {line, 0, std::to_string(j) + " weights on the line, expected " + std::to_string(k)};
        return false;
      }
      if (!read_int(c, line, 0, "weight", weights_layout("", k).substr(1), w, f) ||
          !check_range(c, line, tok, "weight", w, 1, INT32_MAX, f, k_positive_weight))
        return false;
      t.weights.push_back(static_cast<int32_t>(w));
    }
    if (!c.at_end()) {
      const std::string_view extra = c.next();
      f = {line, c.column_of(extra), "more than " + std::to_string(k) + " weights on the line"};
      return false;
    }
    ++lines;
    return true;
  });
  if (lines != m)
    whole_file_fault(function, vals,
                     "holds " + std::to_string(lines) + " weight lines for " + std::to_string(m) +
                         " edges; write the triplet again");
  if (k == 0)
    whole_file_fault(function, vals,
                     "the graph has no edges, so the number of weight columns "
                     "cannot be inferred; pass num_weights");
  t.num_weights = k;
  return t;
}

dgt_batch_t read_legacy_batch(const std::string& insert_path, const std::string& delete_path, int k,
                              int64_t num_vertices, int64_t id_max, bool lenient) {
  const char* function = "read_legacy_batch";
  const int64_t hi = num_vertices >= 0 ? num_vertices - 1 : id_max;
  dgt_batch_t b;
  b.num_weights = k;
  const std::string ins_layout = weights_layout("u v", k);
  scan_serial(insert_path, function, [&](line_cursor& c, int64_t line, fault_t& f) {
    if (c.kind("", line, f) == line_kind_t::blank) return true;
    int64_t u = 0, v = 0;
    if (!read_id(c, line, ins_layout, 0, hi, u, f) || !read_id(c, line, ins_layout, 0, hi, v, f))
      return false;
    for (int j = 0; j < k; ++j) {
      int64_t w = 0;
      line_cursor probe = c;
      const std::string_view tok = probe.next();
      if (!read_int(c, line, 0, "weight w" + std::to_string(j + 1), ins_layout, w, f) ||
          !check_range(c, line, tok, "weight", w, 1, INT32_MAX, f, k_positive_weight))
        return false;
      b.ins_weights.push_back(static_cast<int32_t>(w));
    }
    if (!at_line_end(c, line, ins_layout, lenient, f)) return false;
    b.ins_src.push_back(u);
    b.ins_dst.push_back(v);
    return true;
  });
  scan_serial(delete_path, function, [&](line_cursor& c, int64_t line, fault_t& f) {
    if (c.kind("", line, f) == line_kind_t::blank) return true;
    int64_t u = 0, v = 0;
    if (!read_id(c, line, "u v", 0, hi, u, f) || !read_id(c, line, "u v", 0, hi, v, f) ||
        !at_line_end(c, line, "u v", lenient, f))
      return false;
    b.del_src.push_back(u);
    b.del_dst.push_back(v);
    return true;
  });
  return b;
}

std::vector<dgt_batch_t> read_batches(const std::string& path, int num_weights,
                                      int64_t num_vertices) {
  const char* function = "read_batches";
  const int64_t hi = num_vertices >= 0 ? num_vertices - 1 : INT64_MAX;
  std::vector<dgt_batch_t> batches;
  int k = num_weights;
  dgt_directives_t directives;
  scan_serial(path, function, [&](line_cursor& c, int64_t line, fault_t& f) {
    const line_kind_t kind = c.kind("#", line, f);
    if (kind != line_kind_t::data) return kind != line_kind_t::damaged;
    const std::string_view op = c.next();
    if (op.front() == '%') {
      bool starts_batch = false;
      if (!read_directive(c, line, op, directives, starts_batch, f)) return false;
      if (starts_batch) batches.emplace_back();
      return true;
    }
    directives.first_line = false;
    const bool insert = op == "+e";
    if (!insert && op != "-e") {
      f = {line, c.column_of(op),
           "unknown operation " + quoted(op) +
               " (expected '+e', '-e' or a '%' directive); fix the line "
               "or make it a comment with '#'"};
      return false;
    }
    if (batches.empty()) batches.emplace_back();
    if (!directives.seen_batch) directives.seen_operation = true;
    dgt_batch_t& b = batches.back();
    const char* layout = insert ? "+e u v w1 .. wK" : "-e u v";
    int64_t u = 0, v = 0;
    if (!read_id(c, line, layout, 0, hi, u, f) || !read_id(c, line, layout, 0, hi, v, f))
      return false;
    if (!insert) {
      if (!at_line_end(c, line, layout, false, f)) return false;
      b.del_src.push_back(u);
      b.del_dst.push_back(v);
      return true;
    }
    std::vector<int32_t> w;
    for (std::string_view tok = c.next(); !tok.empty(); tok = c.next()) {
      int32_t x = 0;
      if (!parse_int32(tok, x)) {
        f = {line, c.column_of(tok),
             "weight " + quoted(tok) + " is not an integer in [-2147483648, 2147483647]"};
        return false;
      }
      w.push_back(x);
    }
    if (k < 0) k = static_cast<int>(w.size());
    if (static_cast<int>(w.size()) != k) {
      f = {line, 0,
           "an insertion '+e u v w1 .. wK' carries exactly K = " + std::to_string(k) +
               " weights here, found " + std::to_string(w.size())};
      return false;
    }
    b.ins_src.push_back(u);
    b.ins_dst.push_back(v);
    b.ins_weights.insert(b.ins_weights.end(), w.begin(), w.end());
    return true;
  });
  for (auto& b : batches) b.num_weights = std::max(k, 0);
  return batches;
}

std::vector<int64_t> read_vertex_values(const std::string& path, const char* function, int64_t n,
                                        int64_t inf, int64_t minimum, int64_t below) {
  std::vector<int64_t> values(static_cast<size_t>(std::max<int64_t>(n, 0)), 0);
  std::vector<bool> seen(values.size(), false);
  int64_t listed = 0;
  scan_serial(path, function, [&](line_cursor& c, int64_t line, fault_t& f) {
    if (c.kind("", line, f) == line_kind_t::blank) return true;
    int64_t v = 0, x = 0;
    if (!read_id(c, line, "v value", 0, n - 1, v, f)) return false;
    line_cursor probe = c;
    const std::string_view tok = probe.next();
    if (!read_int(c, line, inf, "value", "v value", x, f)) return false;
    if (x < minimum || (below > 0 && x >= below && x != inf)) {
      f = {line, c.column_of(tok),
           "value " + std::to_string(x) + " out of range [" + std::to_string(minimum) + ", " +
               (below > 0 ? std::to_string(below - 1) : std::string("INF")) + "]"};
      return false;
    }
    if (!at_line_end(c, line, "v value", false, f)) return false;
    if (seen[v]) {
      f = {line, 1, "vertex " + std::to_string(v) + " is listed twice"};
      return false;
    }
    seen[v] = true;
    values[v] = x;
    ++listed;
    return true;
  });
  if (listed != n)
    whole_file_fault(function, path,
                     "the file must list each of the " + std::to_string(n) +
                         " vertices exactly once (" + std::to_string(listed) + " listed)");
  return values;
}

}  // namespace dyng::io
