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
//
// Control bytes (0x00-0x08, 0x0e-0x1f and 0x7f) belong to no format, not even in a comment: a
// crash can leave a block of zero bytes in a file, and a reader that skipped it would lose the
// lines it replaced without a word. line_cursor::kind() checks a comment line whole for them;
// a data line needs no such pass, as its parser accepts nothing but digits, signs, words and
// separators, and when it refuses a line that holds one, the fault is worded as damage
// (line_cursor::name_control_byte) rather than as a malformed number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace dyng::io {

/// The separator and control bytes as tables: one load per byte instead of six compares, in
/// the loop every reader spends its time in.
struct byte_classes_t {
  bool separator[256] = {};
  bool control[256] = {};
  constexpr byte_classes_t() {
    for (unsigned char c : {' ', '\t', ',', '\r', '\v', '\f'}) separator[c] = true;
    for (int c = 0; c < 32; ++c) control[c] = !separator[c] && c != '\n';
    control[127] = true;
  }
};
inline constexpr byte_classes_t k_byte_classes{};

/// True for the bytes that separate tokens on a line.
inline bool is_separator(char c) { return k_byte_classes.separator[static_cast<unsigned char>(c)]; }

/// True for the control bytes that no text format holds (see the file's comment).
inline bool is_control_byte(char c) {
  return k_byte_classes.control[static_cast<unsigned char>(c)];
}

/// The first parse fault of a range of lines: `line` is relative to the range (1-based), 0 when
/// nothing went wrong.
struct fault_t {
  int64_t line = 0;
  int64_t column = 0;
  std::string message;
  bool failed() const { return line != 0; }
};

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

/// What a line is, by its first byte that is not a separator: none (blank), a comment mark, or
/// anything else (data); damaged when a comment holds a control byte.
enum class line_kind_t { blank, comment, data, damaged };

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
  /// What the line is (see line_kind_t); a line whose first other byte is one of
  /// `comment_marks` is a comment. A comment is checked whole for control bytes here, as no
  /// parser reads it: one makes the line damaged, with `f` naming it on line `line`. Does not
  /// move the cursor.
  line_kind_t kind(std::string_view comment_marks, int64_t line, fault_t& f) const {
    const char* p = at_;
    while (p < end_ && is_separator(*p)) ++p;
    if (p == end_) return line_kind_t::blank;
    // A loop, not find(): that is a memchr call per line for a mark or two.
    bool comment = false;
    for (const char mark : comment_marks) comment = comment || *p == mark;
    if (!comment) return line_kind_t::data;
    if (const char* bad = first_control_byte()) {
      f = control_byte_fault(line, bad);
      return line_kind_t::damaged;
    }
    return line_kind_t::comment;
  }

  /// Replaces `f`, a fault of this line, with one naming the line's first control byte if it
  /// holds one: "expected an integer, found '\x00'" would hide that the file is damaged.
  void name_control_byte(fault_t& f) const {
    if (const char* bad = first_control_byte()) f = control_byte_fault(f.line, bad);
  }

 private:
  const char* first_control_byte() const {
    for (const char* p = begin_; p < end_; ++p)
      if (is_control_byte(*p)) return p;
    return nullptr;
  }

  fault_t control_byte_fault(int64_t line, const char* at) const {
    return {line, at - begin_ + 1,
            "control byte " + quoted({at, 1}) +
                " in the text; the file is damaged or not a text "
                "file (a crash can leave a block of zero bytes): restore it from a copy, or delete "
                "the byte if the rest of the file is right"};
  }

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

/// Calls f(cursor, local_line) for every line of [begin, end), local lines counted from 1; stops
/// early when f returns false. Returns the number of lines seen (a last line without '\n'
/// counts). With `fault` (which f sets when it returns false), the fault of a line that holds a
/// control byte is worded as damage (line_cursor::name_control_byte).
template <class line_fn>
int64_t for_each_line(const char* begin, const char* end, line_fn&& f, fault_t* fault = nullptr) {
  int64_t line = 0;
  const char* p = begin;
  while (p < end) {
    const void* nl = std::char_traits<char>::find(p, static_cast<size_t>(end - p), '\n');
    const char* stop = nl != nullptr ? static_cast<const char*>(nl) : end;
    ++line;
    line_cursor cursor(p, stop);
    if (!f(cursor, line)) {
      if (fault != nullptr && fault->failed()) cursor.name_control_byte(*fault);
      return line;
    }
    p = stop + 1;
  }
  return line;
}

}  // namespace dyng::io
