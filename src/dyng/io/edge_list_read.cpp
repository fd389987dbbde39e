// The edge-list reader: `src dst [w1..wK] [timestamp]` per line, `#`/`%` comment lines, parsed
// in parallel ranges straight into the table's rows (text_blocks.hpp), then cleaned up by
// finish_edges(). Plain lines (plain_lines.hpp) take the fast reader, every other line
// line_cursor, which also words the errors. A file that opens with a %%MatrixMarket banner
// goes to the Matrix Market scanner instead and gets the same clean-up, its 1-based ids read
// as the file's ids.
//
// Ids go into 32-bit columns while they fit. One that does not is parked with its row and the
// table is widened to 64 bits when its range is committed (before any later row moves), so
// the blocks after it are read wide; the parked ids are then written in.
//
// A source range (one rank's shard) writes a line's edge only when its source lies in the range
// (or, symmetrized, either end: finish_edges() keeps the mirrors that start there), so memory
// holds the kept edges only; every line is still read and checked, and the id bounds, whence
// the vertex count, are the whole file's.
#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "dyng/core/errors.hpp"
#include "dyng/io/edge_readers.hpp"
#include "dyng/io/plain_lines.hpp"

namespace dyng::io {
namespace {

constexpr const char* k_function = "read_edge_list";

/// The smallest index_base for which no id of a plain line (at most 18 digits) is past
/// k_max_as_is_offset: below it, every line takes the general reader, which checks each id.
constexpr int64_t k_min_plain_index_base = int64_t{999999999999999999} - INT64_MAX + 1;

std::string layout(int k) {
  std::string s = "source target";
  if (k == 1) s += " w1";
  if (k > 1) s += " w1..w" + std::to_string(k);
  return s + " [timestamp]";
}

/// One line's values, as either reader leaves them.
struct line_values_t {
  int64_t ids[2] = {0, 0};
  std::vector<int32_t> weights;
  int64_t stamp = 0;
};

/// Reads one line of any shape with line_cursor. Returns false (with `f` set) for a bad line;
/// `is_edge` is false for a comment or blank line.
bool parse_general_line(line_cursor& c, int64_t line, const edge_list_options_t& o,
                        line_values_t& v, bool& is_edge, fault_t& f) {
  const int k = o.num_weights;
  const int64_t base = o.compact ? 0 : o.index_base;
  const line_kind_t kind = c.kind("#%", line, f);
  is_edge = kind == line_kind_t::data;
  if (!is_edge) return kind != line_kind_t::damaged;
  for (int j = 0; j < 2; ++j) {
    std::string_view tok;
    if (c.next_int64(v.ids[j], tok)) {
      // fall through to the range check
    } else if (tok.empty()) {
      f = {line, c.end_column(),
           "expected at least " + std::to_string(2 + k) + " fields '" + layout(k) + "', found " +
               std::to_string(j) +
               "; complete the line or pass the right "
               "num_weights"};
      return false;
    } else {
      f = {line, c.column_of(tok),
           std::string("expected an integer ") + (j == 0 ? "source" : "target") +
               " vertex id, found " + quoted(tok) + "; fix the line or comment it out with '#'"};
      return false;
    }
    if (!o.compact && !as_is_id_fits(v.ids[j], base, o.max_as_is_offset)) {
      f = {line, c.column_of(tok), as_is_id_problem(v.ids[j], base, o.max_as_is_offset)};
      return false;
    }
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
      f = {line, c.column_of(tok),
           "weight " + std::to_string(j + 1) + " " + quoted(tok) +
               " is not an integer in [-2147483648, 2147483647]; "
               "fix the weight"};
      return false;
    }
    v.weights[j] = static_cast<int32_t>(w);
  }
  const std::string_view ts = c.next();
  v.stamp = 0;
  if (!ts.empty() && !parse_int64(ts, v.stamp)) {
    f = {line, c.column_of(ts),
         "expected an integer timestamp after '" + layout(k).substr(0, layout(k).size() - 12) +
             "', found " + quoted(ts) + "; fix it or pass the right num_weights"};
    return false;
  }
  if (!c.at_end()) {
    const std::string_view extra = c.next();
    f = {line, c.column_of(extra),
         "expected at most " + std::to_string(3 + k) + " fields '" + layout(k) +
             "', found more; pass the right num_weights"};
    return false;
  }
  return true;
}

/// An id that did not fit a narrow table: its row (from the range's first row) and end.
struct parked_id_t {
  int64_t row;
  bool is_dst;
  int64_t id;
};

/// Per-range state that outlives the parse: the ids parked for widening, and the bounds of the
/// ids of the edges read (self-loops dropped), written or left out by a source range: for
/// compact_ids(), which then needs no pass of its own, and for a filtered read's vertex count.
struct part_t {
  std::vector<parked_id_t> parked;
  int64_t lo = INT64_MAX;
  int64_t hi = INT64_MIN;
};

/// One stream of lines being parsed: its text, where its rows go, and what it found.
template <class id_t>
struct line_stream_t {
  const char* p = nullptr;
  const char* end = nullptr;
  /// Lines that start before this end with a '\n' of the stream (the fast reader's need).
  const char* plain_end = nullptr;
  int64_t line = 0;
  int64_t rows = 0;
  id_t* src = nullptr;
  id_t* dst = nullptr;
  int32_t* weights = nullptr;
  int64_t* stamps = nullptr;
  part_t found;
  fault_t fault;

  bool alive() const { return p < end && !fault.failed(); }
};

/// Reads lines of one range into id columns of type id_t (uint32 or int64), a line per step.
template <class id_t>
class line_reader_t {
 public:
  explicit line_reader_t(const edge_list_options_t& o)
      : o_(o),
        k_(o.num_weights),
        base_(o.compact ? 0 : o.index_base),
        sources_(o.sources),
        symmetrize_(o.symmetrize),
        as_is_limit_(as_is_limit(o)),
        plain_(static_cast<size_t>(2 + k_)),
        plain_b_(static_cast<size_t>(2 + k_)) {
    general_.weights.resize(static_cast<size_t>(k_));
  }

  /// A stream over [begin, end) writing rows from row `first` of the table on.
  line_stream_t<id_t> stream(edge_table_t& t, const char* begin, const char* end,
                             int64_t first) const {
    line_stream_t<id_t> s;
    s.p = begin;
    s.end = end;
    s.plain_end = end;
    while (s.plain_end > begin && s.plain_end[-1] != '\n') --s.plain_end;
    if (base_ < k_min_plain_index_base) s.plain_end = begin;
    if constexpr (std::is_same_v<id_t, uint32_t>) {
      s.src = t.src32.data() + first;
      s.dst = t.dst32.data() + first;
    } else {
      s.src = t.src64.data() + first;
      s.dst = t.dst64.data() + first;
    }
    s.weights = t.weights.data() + first * k_;
    s.stamps = t.timed ? t.timestamps.data() + first : nullptr;
    return s;
  }

  /// Reads plain lines of a and b in turn while both have one that needs no more than the fast
  /// reader (no parked id, no error to word). The loop that reads nearly every line, with its
  /// state in locals: a line is a chain of dependent steps (each field ends where the next one
  /// starts), and with the streams in registers the two chains overlap.
  void read_plain_pairs(line_stream_t<id_t>& a, line_stream_t<id_t>& b) {
    const int fields = 2 + k_;
    uint64_t* va = plain_.data();
    uint64_t* vb = plain_b_.data();
    const char* pa = a.p;
    const char* pb = b.p;
    int64_t ra = a.rows, rb = b.rows, lines = 0;
    int64_t lo = std::min(a.found.lo, b.found.lo), hi = std::max(a.found.hi, b.found.hi);
    while (pa < a.plain_end && pb < b.plain_end) {
      const char* na = read_plain_line(pa, fields, va);
      const char* nb = read_plain_line(pb, fields, vb);
      if (na == nullptr || nb == nullptr || !plain_fits(va) || !plain_fits(vb)) break;
      const auto sa = static_cast<int64_t>(va[0]) - base_, da = static_cast<int64_t>(va[1]) - base_;
      const auto sb = static_cast<int64_t>(vb[0]) - base_, db = static_cast<int64_t>(vb[1]) - base_;
      if (!(o_.drop_self_loops && sa == da)) {
        lo = std::min({lo, sa, da});
        hi = std::max({hi, sa, da});
        if (keeps(sa, da)) store(a, ra++, sa, da, va);
      }
      if (!(o_.drop_self_loops && sb == db)) {
        lo = std::min({lo, sb, db});
        hi = std::max({hi, sb, db});
        if (keeps(sb, db)) store(b, rb++, sb, db, vb);
      }
      ++lines;
      pa = na;
      pb = nb;
    }
    a.p = pa;
    b.p = pb;
    a.rows = ra;
    b.rows = rb;
    a.line += lines;
    b.line += lines;
    a.found.lo = b.found.lo = lo;
    a.found.hi = b.found.hi = hi;
  }

  /// Reads the stream's next line (alive() must hold): a plain line here, inline, any other
  /// with line_cursor.
  [[gnu::always_inline]] void step(line_stream_t<id_t>& s) {
    ++s.line;
    if (s.p < s.plain_end) {
      const char* next = read_plain_line(s.p, 2 + k_, plain_.data());
      // A plain line is never an error for line_cursor, except for a weight past int32 or an
      // id below index_base: those are left to it, to be worded there.
      bool fine = next != nullptr && plain_[0] <= as_is_limit_ && plain_[1] <= as_is_limit_ &&
                  (base_ <= 0 || (plain_[0] >= static_cast<uint64_t>(base_) &&
                                  plain_[1] >= static_cast<uint64_t>(base_)));
      for (int j = 0; fine && j < k_; ++j) fine = plain_[2 + j] <= INT32_MAX;
      if (fine) {
        const auto a = static_cast<int64_t>(plain_[0]), b = static_cast<int64_t>(plain_[1]);
        if (!(o_.drop_self_loops && a == b) && put(s, a, b)) {
          for (int j = 0; j < k_; ++j)
            s.weights[s.rows * k_ + j] = static_cast<int32_t>(plain_[2 + j]);
          if (s.stamps != nullptr) s.stamps[s.rows] = 0;  // no timestamp field
          ++s.rows;
        }
        s.p = next;
        return;
      }
    }
    step_general(s);
  }

 private:
  /// A plain line's values that the fast path may store: ids at or above index_base (and,
  /// narrow, below 2^32 after it), weights in int32.
  [[gnu::always_inline]] bool plain_fits(const uint64_t* v) const {
    if (base_ > 0 && (v[0] < static_cast<uint64_t>(base_) || v[1] < static_cast<uint64_t>(base_)))
      return false;
    if (v[0] > as_is_limit_ || v[1] > as_is_limit_) return false;
    if constexpr (std::is_same_v<id_t, uint32_t>) {
      if (!fits_narrow(static_cast<int64_t>(v[0]) - base_) ||
          !fits_narrow(static_cast<int64_t>(v[1]) - base_))
        return false;
    }
    for (int j = 0; j < k_; ++j)
      if (v[2 + j] > INT32_MAX) return false;
    return true;
  }

  /// Row `row` of stream s from a plain line: ids s, d (index_base taken off) and the weights.
  [[gnu::always_inline]] void store(line_stream_t<id_t>& s, int64_t row, int64_t src, int64_t dst,
                                    const uint64_t* v) const {
    s.src[row] = static_cast<id_t>(src);
    s.dst[row] = static_cast<id_t>(dst);
    for (int j = 0; j < k_; ++j) s.weights[row * k_ + j] = static_cast<int32_t>(v[2 + j]);
    if (s.stamps != nullptr) s.stamps[row] = 0;  // no timestamp field
  }

  [[gnu::noinline]] void step_general(line_stream_t<id_t>& s) {
    const void* nl = std::memchr(s.p, '\n', static_cast<size_t>(s.end - s.p));
    const char* stop = nl != nullptr ? static_cast<const char*>(nl) : s.end;
    line_cursor c(s.p, stop);
    s.p = stop + 1;
    bool is_edge = false;
    if (!parse_general_line(c, s.line, o_, general_, is_edge, s.fault)) {
      c.name_control_byte(s.fault);
      return;
    }
    // A self-loop is checked to the end of its line, then left out here rather than in a
    // later pass over all edges.
    if (!is_edge || (o_.drop_self_loops && general_.ids[0] == general_.ids[1])) return;
    if (!put(s, general_.ids[0], general_.ids[1])) return;
    for (int j = 0; j < k_; ++j) s.weights[s.rows * k_ + j] = general_.weights[j];
    if (s.stamps != nullptr) s.stamps[s.rows] = general_.stamp;
    ++s.rows;
  }

  /// Whether the edge (src, dst) (index_base taken off) is written: the source range's call.
  [[gnu::always_inline]] bool keeps(int64_t src, int64_t dst) const {
    return sources_.holds(src) || (symmetrize_ && sources_.holds(dst));
  }

  /// Counts an edge (file ids a, b) in the bounds and, when the range keeps it, writes its ids
  /// as row s.rows; returns whether it did.
  [[gnu::always_inline]] bool put(line_stream_t<id_t>& s, int64_t a, int64_t b) {
    a -= base_;
    b -= base_;
    s.found.lo = std::min({s.found.lo, a, b});
    s.found.hi = std::max({s.found.hi, a, b});
    if (!keeps(a, b)) return false;
    if constexpr (std::is_same_v<id_t, uint32_t>) {
      if (!fits_narrow(a)) s.found.parked.push_back({s.rows, false, a});
      if (!fits_narrow(b)) s.found.parked.push_back({s.rows, true, b});
    }
    s.src[s.rows] = static_cast<id_t>(a);
    s.dst[s.rows] = static_cast<id_t>(b);
    return true;
  }

  /// The largest id a plain line may carry for the fast path: ids="as_is" for a caller with
  /// int32 ids caps it, and a larger id goes to line_cursor, which words the fault.
  static uint64_t as_is_limit(const edge_list_options_t& o) {
    if (o.compact || o.max_as_is_offset >= k_max_as_is_offset) return UINT64_MAX;
    int64_t last = 0;
    if (__builtin_add_overflow(o.index_base, static_cast<int64_t>(o.max_as_is_offset), &last))
      return UINT64_MAX;  // past int64: every plain line's ids (18 digits at most) are below it
    return last < 0 ? 0 : static_cast<uint64_t>(last);
  }

  const edge_list_options_t& o_;
  const int k_;
  const int64_t base_;
  const source_range_t sources_;
  const bool symmetrize_;
  const uint64_t as_is_limit_;
  std::vector<uint64_t> plain_, plain_b_;  // one per stream: the two lines stay independent
  line_values_t general_;
};

/// Parses one range into the table's id columns of type id_t; returns the rows written from
/// range.first_row on, stopping (with `f` set) at the first bad line. The range is read as two
/// streams, a line of each in turn: a line is a chain of dependent steps (each field's end is
/// where the next one starts), and two independent chains keep the core about twice as busy.
/// The second half's rows go after the first half's room and move down over any gap it left.
template <class id_t>
int64_t parse_range(const text_range_t& range, const edge_list_options_t& o, edge_table_t& t,
                    part_t& part, fault_t& f) {
  line_reader_t<id_t> reader(o);
  const int64_t first_lines = range.lines_before_middle;
  line_stream_t<id_t> a = reader.stream(t, range.begin, range.middle, range.first_row);
  line_stream_t<id_t> b = reader.stream(t, range.middle, range.end, range.first_row + first_lines);
  while (a.alive() && b.alive()) {
    reader.read_plain_pairs(a, b);
    // A line the pair loop left (of any shape), then back to it.
    if (a.alive()) reader.step(a);
    if (b.alive()) reader.step(b);
  }
  while (a.alive()) reader.step(a);
  if (a.fault.failed()) {
    f = a.fault;
    return a.rows;
  }
  while (b.alive()) reader.step(b);
  if (b.fault.failed()) {
    f = b.fault;
    f.line += first_lines;
    return a.rows;
  }
  if (a.rows < first_lines && b.rows > 0) {
    const int64_t from = range.first_row + first_lines, to = range.first_row + a.rows;
    t.move_rows(from, to, b.rows);
  }
  part.parked = std::move(a.found.parked);
  for (parked_id_t p : b.found.parked) {
    p.row += a.rows;
    part.parked.push_back(p);
  }
  part.lo = std::min(a.found.lo, b.found.lo);
  part.hi = std::max(a.found.hi, b.found.hi);
  return a.rows + b.rows;
}

/// bound + delta in [0, INT64_MAX]: a range bound moved to the scan's ids, clamped (ids are
/// never negative, and INT64_MAX stays the open end).
int64_t shifted_bound(int64_t bound, int64_t delta) {
  const __int128 moved = static_cast<__int128>(bound) + delta;
  return static_cast<int64_t>(std::clamp<__int128>(moved, 0, INT64_MAX));
}

edge_table_t read_matrix_market_as_edge_list(const std::string& path,
                                             const edge_list_options_t& o) {
  if (o.num_weights != 0) {
    throw file_format_error(path, 1, 0,
                            std::string(k_function) + "(): " + where(path, 1, 0) +
                                "a Matrix Market file has no "
                                "weight columns for read_edge_list (num_weights=" +
                                std::to_string(o.num_weights) +
                                "); pass num_weights=0 or use read_matrix_market");
  }
  // The scan's ids are file id - 1, the range's id - index_base: the range moves by base - 1.
  const int64_t base = o.compact ? 0 : o.index_base;
  mm_keep_t keep{o.drop_self_loops, {}, o.symmetrize};
  if (!o.sources.all())
    keep.sources = {shifted_bound(o.sources.lo, base - 1),
                    o.sources.hi == INT64_MAX ? INT64_MAX : shifted_bound(o.sources.hi, base - 1)};
  mm_header_t h;
  edge_table_t t = scan_matrix_market(path, k_function, o.scan, mm_values_t::ignore, h,
                                      o.compact ? std::nullopt : std::optional(o.index_base), keep);
  // The edges keep the file's 1-based ids, as 0.2.0 read them: external_ids report them as
  // written, and ids="as_is" numbers vertex id - index_base, with max id + 1 vertices whatever
  // the size line says. The scan stored id - 1; every id passed as_is_id_fits(), so adding
  // 1 - index_base (mod 2^64) gives the exact result. The columns that held ids up to n - 1
  // take the shifted ones, up to n - base, unless those pass 2^32: then the table goes wide.
  const int64_t least = std::min(base, h.num_vertices);
  const uint64_t shift = uint64_t{1} - static_cast<uint64_t>(base);
  if (static_cast<uint64_t>(h.num_vertices) - static_cast<uint64_t>(least) > 0xffffffff) t.widen();
  t.with_ids([shift](auto& src, auto& dst) {
    using id_t = std::remove_reference_t<decltype(src[0])>;
    for (auto& v : src) v = static_cast<id_t>(static_cast<uint64_t>(v) + shift);
    for (auto& v : dst) v = static_cast<id_t>(static_cast<uint64_t>(v) + shift);
  });
  if (!o.compact) t.num_vertices = -1;
  // A range's read holds part of the edges: the count is the largest id of any edge, plus one.
  if (!o.sources.all() && t.id_hi >= t.id_lo)
    t.num_vertices = static_cast<int64_t>(static_cast<uint64_t>(t.id_hi) + shift) + 1;
  else if (!o.sources.all()) t.num_vertices = 0;
  if (!o.merge_duplicates) {
    t.timed = true;
    t.timestamps.resize(static_cast<size_t>(t.size()));
  }
  return t;
}

edge_table_t read_edge_list_text(const std::string& path, const edge_list_options_t& o) {
  edge_table_t t;
  t.num_weights = o.num_weights;
  t.num_vertices = -1;
  t.timed = !o.merge_duplicates;
  t.id_bounds_known = true;
  std::vector<part_t> parts(static_cast<size_t>(resolve_threads(o.scan.threads)));
  row_store_t rows;
  rows.rows_per_line = 1;
  rows.resize = [&t](int64_t n) { t.resize(n); };
  rows.move = [&t](int64_t from, int64_t to, int64_t count) { t.move_rows(from, to, count); };
  // The width is fixed for a whole block: it changes only in the commit, between blocks' parses.
  auto parse = [&](const text_range_t& r, fault_t& f) {
    part_t& part = parts[r.part];
    part = part_t{};
    return t.wide ? parse_range<int64_t>(r, o, t, part, f)
                  : parse_range<uint32_t>(r, o, t, part, f);
  };
  auto commit = [&](const text_range_t& r, int64_t, int64_t, fault_t&) {
    const part_t& part = parts[r.part];
    t.id_lo = std::min(t.id_lo, part.lo);
    t.id_hi = std::max(t.id_hi, part.hi);
    if (part.parked.empty()) return;
    // Rows past this range (later ranges of the block, not yet moved) are widened in place
    // too: widening keeps every row where it is.
    t.widen();
    for (const parked_id_t& p : part.parked)
      (p.is_dst ? t.dst64 : t.src64)[r.first_row + p.row] = p.id;
  };
  scan_text_file(path, k_function, o.scan, header_parser_t{}, rows, parse, commit);
  return t;
}

}  // namespace

std::string as_is_id_problem(int64_t id, int64_t index_base, uint64_t max_offset) {
  if (id < index_base)
    return "vertex id " + std::to_string(id) + " is below index_base " +
           std::to_string(index_base) + "; pass the file's index_base or ids='compact'";
  if (max_offset < k_max_as_is_offset)
    return "vertex id " + std::to_string(id) +
           " does not fit int32 ids with ids='as_is' and "
           "index_base " +
           std::to_string(index_base) +
           " (the vertex count, id - index_base + "
           "1, must be at most 2147483647); pass vertex_dtype='int64' or ids='compact'";
  return "vertex id " + std::to_string(id) + " is too large for ids='as_is' with index_base " +
         std::to_string(index_base) +
         " (the vertex count, id - index_base + 1, must fit int64)"
         "; pass ids='compact'";
}

edge_table_t read_edge_list(const std::string& path, const edge_list_options_t& options) {
  if (options.num_weights < 0)
    throw invalid_argument_error(std::string(k_function) +
                                 "(): num_weights=" + std::to_string(options.num_weights) +
                                 " is negative; pass 0 or more");
  if (!options.sources.all() && options.compact)
    throw invalid_argument_error(std::string(k_function) +
                                 "(): a source range needs ids='as_is' (a compact id is the rank "
                                 "of a file id among all of the file's ids); pass ids='as_is'");
  check_source_range(options.sources, k_function);
  edge_list_options_t o = options;
  o.scan = settle_team(options.scan, path);
  edge_table_t table = starts_with_matrix_market_banner(path, k_function)
                           ? read_matrix_market_as_edge_list(path, o)
                           : read_edge_list_text(path, o);
  // The parse saw every edge's ids, the table holds the range's: the count comes from the bounds.
  if (!o.sources.all() && !table.matrix_market)
    table.num_vertices = table.id_hi >= table.id_lo ? table.id_hi + 1 : 0;
  finish_options_t fo;
  // Both parsers drop self-loops as they read.
  fo.drop_self_loops = false;
  fo.compact = o.compact;
  fo.symmetrize = o.symmetrize;
  fo.sources = o.sources;
  fo.sort = true;
  fo.merge_duplicates = o.merge_duplicates;
  fo.threads = table.size() >= k_min_parallel_edges ? o.scan.threads : 1;
  finish_edges(table, fo);
  return table;
}

}  // namespace dyng::io
