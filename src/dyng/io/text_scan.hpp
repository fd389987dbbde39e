// The one tokenizer of dyng's text formats: every reader walks its lines with line_cursor and
// turns tokens into numbers with parse_int64, so separators, comments and the columns reported
// in errors mean the same thing in every format. The edge-list reader first tries the commonest
// line shape with plain_lines.hpp, which reads only lines this tokenizer reads the same way
// (tested against it) and leaves every other line, and every error, to line_cursor.
//
// Line breaks are LF, CR LF and a bare CR (old Mac files). The block reader (text_blocks.cpp)
// turns every bare CR into an LF before a parser sees the text, so lines end at LF alone and a
// CR on a line is the first byte of a CR LF: a separator, like the space, tab, comma, vertical
// tab and form feed (so CRLF files and "a, b" CSV read like plain whitespace-separated files).
// Columns are 1-based byte offsets into the line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace dyng::io {

/// The separator bytes as a table: one load per byte instead of six compares, in the loop
/// every reader spends its time in.
struct separator_table_t {
  bool is[256] = {};
  constexpr separator_table_t() {
    for (unsigned char c : {' ', '\t', ',', '\r', '\v', '\f'}) is[c] = true;
  }
};
inline constexpr separator_table_t k_separators{};

/// True for the bytes that separate tokens on a line.
inline bool is_separator(char c) { return k_separators.is[static_cast<unsigned char>(c)]; }

/// The first parse fault of a range of lines: `line` is relative to the range (1-based), 0 when
/// nothing went wrong.
struct fault_t {
  int64_t line = 0;
  int64_t column = 0;
  std::string message;
  bool failed() const { return line != 0; }
};

/// Tokens of one line, left to right.
class line_cursor {
 public:
  line_cursor(const char* begin, const char* end) : begin_(begin), at_(begin), end_(end) {}

  /// The next token, or an empty view at the end of the line.
  std::string_view next() {
    while (at_ < end_ && is_separator(*at_)) ++at_;
    const char* start = at_;
    while (at_ < end_ && !is_separator(*at_)) ++at_;
    return {start, static_cast<size_t>(at_ - start)};
  }

  /// Reads the next token as a decimal int64 in the same pass that finds its end (the readers'
  /// hot path). Returns false for a missing token (empty `token`) or one that is not an int64
  /// (`token` holds it, for the message).
  bool next_int64(int64_t& value, std::string_view& token) {
    while (at_ < end_ && is_separator(*at_)) ++at_;
    const char* start = at_;
    bool negative = false;
    if (at_ < end_ && (*at_ == '-' || *at_ == '+')) negative = *at_++ == '-';
    const char* digits = at_;
    uint64_t v = 0;
    while (at_ < end_) {
      const unsigned d = static_cast<unsigned char>(*at_) - unsigned{'0'};
      if (d > 9) break;
      v = v * 10 + d;  // wraps only past 19 digits, which are refused below
      ++at_;
    }
    const int64_t count = at_ - digits;
    const bool clean_end = at_ == end_ || is_separator(*at_);
    if (!clean_end)
      while (at_ < end_ && !is_separator(*at_)) ++at_;
    token = {start, static_cast<size_t>(at_ - start)};
    const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    if (!clean_end || count == 0 || count > 19 || v > limit) return false;
    value = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
    return true;
  }

  /// True when nothing but separators is left.
  bool at_end() {
    while (at_ < end_ && is_separator(*at_)) ++at_;
    return at_ == end_;
  }

  /// The 1-based column of a token returned by next().
  int64_t column_of(std::string_view token) const { return token.data() - begin_ + 1; }
  /// The column just past the line's last byte (where a missing token would start).
  int64_t end_column() const { return (end_ - begin_) + 1; }
  /// The first non-separator byte, or 0 for a blank line (does not move the cursor).
  char first_byte() const {
    for (const char* p = at_; p < end_; ++p)
      if (!is_separator(*p)) return *p;
    return 0;
  }

 private:
  const char* begin_;
  const char* at_;
  const char* end_;
};

/// Parses a whole token as a decimal int64 (optional sign); false when it is not one or does not
/// fit.
inline bool parse_int64(std::string_view token, int64_t& out) {
  const char* p = token.data();
  const char* e = p + token.size();
  bool negative = false;
  if (p < e && (*p == '-' || *p == '+')) negative = *p++ == '-';
  if (p == e || e - p > 19) {
    // More than 19 digits never fits; leading zeros beyond that are not worth accepting.
    return false;
  }
  uint64_t value = 0;
  for (; p < e; ++p) {
    const unsigned digit = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (digit > 9) return false;
    value = value * 10 + digit;  // 19 digits cannot overflow uint64.
  }
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (value > limit) return false;
  out = negative ? static_cast<int64_t>(0 - value) : static_cast<int64_t>(value);
  return true;
}

/// parse_int64 restricted to int32.
inline bool parse_int32(std::string_view token, int32_t& out) {
  int64_t v = 0;
  if (!parse_int64(token, v) || v < std::numeric_limits<int32_t>::min() ||
      v > std::numeric_limits<int32_t>::max())
    return false;
  out = static_cast<int32_t>(v);
  return true;
}

/// A token quoted for an error message, shortened so a binary file cannot flood it; bytes
/// outside printable ASCII are shown as \xNN so the message stays valid text.
inline std::string quoted(std::string_view token) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string s = "'";
  for (char c : token.substr(0, 40)) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 32 && b < 127) {
      s += c;
    } else {
      s += "\\x";
      s += k_hex[b >> 4];
      s += k_hex[b & 15];
    }
  }
  if (token.size() > 40) s += "...";
  return s + "'";
}

/// Calls f(cursor, local_line) for every line of [begin, end), local lines counted from 1; stops
/// early when f returns false. Returns the number of lines seen (a last line without '\n'
/// counts).
template <class line_fn>
int64_t for_each_line(const char* begin, const char* end, line_fn&& f) {
  int64_t line = 0;
  const char* p = begin;
  while (p < end) {
    const void* nl = std::char_traits<char>::find(p, static_cast<size_t>(end - p), '\n');
    const char* stop = nl != nullptr ? static_cast<const char*>(nl) : end;
    ++line;
    line_cursor cursor(p, stop);
    if (!f(cursor, line)) return line;
    p = stop + 1;
  }
  return line;
}

}  // namespace dyng::io
