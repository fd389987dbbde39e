// The edge-list reader: `src dst [w1..wK] [timestamp]` per line, `#`/`%` comment lines, parsed
// in parallel ranges (text_blocks.hpp), then cleaned up by finish_edges(). A file that opens
// with a %%MatrixMarket banner goes to the Matrix Market scanner instead and gets the same
// clean-up, its 1-based ids read as the file's ids.
#include <algorithm>
#include <filesystem>
#include <string>

#include "dyng/core/errors.hpp"
#include "dyng/io/edge_readers.hpp"
#include "dyng/io/fresh_arrays.hpp"

namespace dyng::io {
namespace {

constexpr const char* k_function = "read_edge_list";

std::string layout(int k) {
  std::string s = "source target";
  if (k == 1) s += " w1";
  if (k > 1) s += " w1..w" + std::to_string(k);
  return s + " [timestamp]";
}

/// Parses one range of lines into `out`; false (with `f` set) at the first bad line.
int64_t parse_range(const char* begin, const char* end, const edge_list_options_t& o,
                    bool keep_timestamps, edge_table_t& out, fault_t& f) {
  const int k = o.num_weights;
  const int64_t base = o.compact ? 0 : o.index_base;
  // One edge per line at most: reserving by the line count avoids regrowing the columns.
  const size_t lines = static_cast<size_t>(std::count(begin, end, '\n')) + 1;
  reserve_huge(out.src, lines);
  reserve_huge(out.dst, lines);
  reserve_huge(out.weights, lines * k);
  if (keep_timestamps) reserve_huge(out.timestamps, lines);
  return for_each_line(begin, end, [&](line_cursor& c, int64_t line) {
    const char first = c.first_byte();
    if (first == 0 || first == '#' || first == '%') return true;
    int64_t ids[2];
    for (int j = 0; j < 2; ++j) {
      std::string_view tok;
      if (c.next_int64(ids[j], tok)) {
        // fall through to the range check
      } else if (tok.empty()) {
        f = {line, c.end_column(),
             "expected at least " + std::to_string(2 + k) + " fields '" + layout(k) +
                 "', found " + std::to_string(j) + "; complete the line or pass the right "
                 "num_weights"};
        return false;
      } else {
        f = {line, c.column_of(tok), std::string("expected an integer ") +
                                         (j == 0 ? "source" : "target") + " vertex id, found " +
                                         quoted(tok) + "; fix the line or comment it out with '#'"};
        return false;
      }
      if (!o.compact && ids[j] < base) {
        f = {line, c.column_of(tok), "vertex id " + std::to_string(ids[j]) +
                                         " is below index_base " + std::to_string(base) +
                                         "; pass the file's index_base or ids='compact'"};
        return false;
      }
    }
    // A self-loop is still checked to the end of its line, then left out here rather than in
    // a later pass over all edges.
    const bool keep = !(o.drop_self_loops && ids[0] == ids[1]);
    if (keep) {
      out.src.push_back(ids[0] - base);
      out.dst.push_back(ids[1] - base);
    }
    for (int j = 0; j < k; ++j) {
      std::string_view tok;
      int64_t w = 0;
      const bool read = c.next_int64(w, tok);
      if (!read && tok.empty()) {
        f = {line, c.end_column(),
             "expected at least " + std::to_string(2 + k) + " fields '" + layout(k) + "', found " +
                 std::to_string(2 + j) + "; complete the line or pass the right num_weights"};
        return false;
      }
      if (!read || w < INT32_MIN || w > INT32_MAX) {
        f = {line, c.column_of(tok), "weight " + std::to_string(j + 1) + " " + quoted(tok) +
                                         " is not an integer in [-2147483648, 2147483647]; "
                                         "fix the weight"};
        return false;
      }
      if (keep) out.weights.push_back(static_cast<int32_t>(w));
    }
    const std::string_view ts = c.next();
    int64_t stamp = 0;
    if (!ts.empty() && !parse_int64(ts, stamp)) {
      f = {line, c.column_of(ts), "expected an integer timestamp after '" +
                                      layout(k).substr(0, layout(k).size() - 12) + "', found " +
                                      quoted(ts) + "; fix it or pass the right num_weights"};
      return false;
    }
    if (!c.at_end()) {
      const std::string_view extra = c.next();
      f = {line, c.column_of(extra), "expected at most " + std::to_string(3 + k) + " fields '" +
                                         layout(k) + "', found more; pass the right num_weights"};
      return false;
    }
    if (keep && keep_timestamps) out.timestamps.push_back(stamp);
    return true;
  });
}

edge_table_t read_matrix_market_as_edge_list(const std::string& path, const edge_list_options_t& o) {
  if (o.num_weights != 0) {
    throw file_format_error(
        path, 1, 0,
        std::string(k_function) + "(): " + where(path, 1, 0) + "a Matrix Market file has no "
        "weight columns for read_edge_list (num_weights=" + std::to_string(o.num_weights) +
        "); pass num_weights=0 or use read_matrix_market");
  }
  mm_header_t h;
  edge_table_t t = scan_matrix_market(path, k_function, o.scan, mm_values_t::ignore, h);
  if (o.compact) {
    // The file's own ids are 1-based; external_ids report them as written.
    for (auto& v : t.src) ++v;
    for (auto& v : t.dst) ++v;
  }
  if (!o.merge_duplicates) t.timestamps.assign(t.src.size(), 0);
  return t;
}

}  // namespace

edge_table_t read_edge_list(const std::string& path, const edge_list_options_t& o) {
  if (o.num_weights < 0)
    throw invalid_argument_error(std::string(k_function) + "(): num_weights=" +
                                 std::to_string(o.num_weights) + " is negative; pass 0 or more");
  edge_table_t table;
  if (starts_with_matrix_market_banner(path, k_function)) {
    table = read_matrix_market_as_edge_list(path, o);
  } else {
    const bool keep_timestamps = !o.merge_duplicates;
    const size_t slots = static_cast<size_t>(resolve_threads(o.scan.threads));
    std::vector<edge_table_t> parts(slots);
    std::vector<size_t> consumed(slots, 0);
    size_t read_bytes = 0;
    std::error_code size_error;
    const size_t file_bytes = static_cast<size_t>(std::filesystem::file_size(path, size_error));
    table.num_weights = o.num_weights;
    table.num_vertices = -1;
    scan_text_file(
        path, k_function, o.scan, header_parser_t{},
        [&](int i, const char* b, const char* e, fault_t& f) {
          // Cleared, not freed: the next block reuses the pages (no new page faults).
          edge_table_t& out = parts[i];
          out.src.clear();
          out.dst.clear();
          out.weights.clear();
          out.timestamps.clear();
          consumed[i] = static_cast<size_t>(e - b);
          return parse_range(b, e, o, keep_timestamps, out, f);
        },
        [&](int i, int64_t, fault_t&) {
          edge_table_t& p = parts[i];
          read_bytes += consumed[i];
          if (table.src.capacity() < table.src.size() + p.src.size()) {
            // Size the columns for the whole file from the edges per byte seen so far, so
            // they grow about once instead of doubling through the file.
            const double per_byte = static_cast<double>(table.src.size() + p.src.size()) /
                                    static_cast<double>(std::max<size_t>(read_bytes, 1));
            const size_t want = static_cast<size_t>(per_byte * 1.02 * file_bytes) + p.src.size();
            const int team = team_now(o.scan, static_cast<int64_t>(want), k_min_parallel_edges);
            reserve_huge(table.src, want, team);
            reserve_huge(table.dst, want, team);
            reserve_huge(table.weights, want * o.num_weights, team);
            if (keep_timestamps) reserve_huge(table.timestamps, want, team);
          }
          table.src.insert(table.src.end(), p.src.begin(), p.src.end());
          table.dst.insert(table.dst.end(), p.dst.begin(), p.dst.end());
          table.weights.insert(table.weights.end(), p.weights.begin(), p.weights.end());
          table.timestamps.insert(table.timestamps.end(), p.timestamps.begin(), p.timestamps.end());
        });
  }
  finish_options_t fo;
  // Edge-list lines drop their self-loops while parsing; a Matrix Market file does not.
  fo.drop_self_loops = o.drop_self_loops && table.matrix_market;
  fo.compact = o.compact;
  fo.symmetrize = o.symmetrize;
  fo.sort = true;
  fo.merge_duplicates = o.merge_duplicates;
  fo.threads = team_now(o.scan, table.size(), k_min_parallel_edges);
  finish_edges(table, fo);
  return table;
}

}  // namespace dyng::io
