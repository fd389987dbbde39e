// The common shape of a data line, read eight bytes at a time: unsigned decimal fields of at
// most 18 digits, one separator byte (space, tab or comma) between fields, '\n' right after the
// last one. Nearly every line of a large edge list looks like this, and reading it this way is
// about twice as fast as tokenising it with line_cursor (text_scan.hpp), which finds the line's
// end first and then walks it byte by byte.
//
// A line of any other shape (a comment, a sign, CR LF, two separators in a row, a long number,
// another field count) is refused here, and the caller reads that one line with line_cursor,
// which also words its errors. So the two readers must agree on every line this one accepts:
// the values are the same as line_cursor::next_int64's, and such a line is never an error there.
//
// Input requirement: the bytes [p, p + 8) may be read for any p up to the '\n' that ends the
// line (text_blocks.hpp's k_read_slack).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace dyng::io {

static_assert(std::endian::native == std::endian::little,
              "plain_lines.hpp reads eight text bytes as one little-endian word");

/// The bytes at p as one word, the first byte lowest.
inline uint64_t load_word(const char* p) {
  uint64_t x;
  std::memcpy(&x, p, sizeof x);
  return x;
}

/// How many of the word's bytes, from the first, are decimal digits (0..8).
inline int leading_digits(uint64_t x) {
  constexpr uint64_t k_high = 0xF0F0F0F0F0F0F0F0u, k_three = 0x3030303030303030u;
  // A byte is a digit when its high nibble is 3 and adding 6 keeps it 3 (low nibble <= 9).
  // Adding 6 can carry out of a byte only from 0xFA..0xFF, which are not digits, into the bytes
  // after them, which are past the first non-digit and so never counted.
  const uint64_t not_digit =
      ((x & k_high) ^ k_three) | (((x + 0x0606060606060606u) & k_high) ^ k_three);
  return not_digit == 0 ? 8 : std::countr_zero(not_digit) >> 3;
}

/// The value of the first `count` (1..8) bytes of x, all digits.
inline uint64_t digits_value(uint64_t x, int count) {
  // Shifting the digits to the top fills the low bytes, the leading digits, with zeros; then
  // neighbouring digits, pairs and quads are combined by three multiplications.
  x = (x << (8 * (8 - count))) & 0x0F0F0F0F0F0F0F0Fu;
  x = (x * 2561) >> 8;
  x = ((x & 0x00FF00FF00FF00FFu) * 6553601) >> 16;
  return ((x & 0x0000FFFF0000FFFFu) * 42949672960001u) >> 32;
}

/// 10^i for i in 0..8.
inline constexpr uint64_t k_powers_of_ten[9] = {1,      10,      100,      1000,     10000,
                                                100000, 1000000, 10000000, 100000000};

/// Reads one field at p: its digits (1 to 18) and the byte after them, which `follow`
/// accepts. Returns the position after that byte, or nullptr when the field is not plain.
template <class follow_fn>
[[gnu::always_inline]] inline const char* read_plain_field(const char* p, uint64_t& value,
                                                           follow_fn&& follow) {
  uint64_t v = 0;
  int total = 0;
  for (int chunk = 0; chunk < 3; ++chunk) {
    const uint64_t x = load_word(p);
    const int count = leading_digits(x);
    if (count > 0) v = (chunk == 0 ? 0 : v * k_powers_of_ten[count]) + digits_value(x, count);
    total += count;
    p += count;
    if (count < 8) break;
  }
  if (total == 0 || total > 18 || !follow(*p)) return nullptr;
  value = v;
  return p + 1;
}

/// Reads a plain line of exactly `fields` (>= 1) fields into values[0..fields); returns the
/// position after its '\n', or nullptr when the line is not plain. Always inlined: the
/// caller's loop then holds the whole line, and two lines read in turn overlap (their steps do
/// not depend on each other), which a call between them prevents.
[[gnu::always_inline]] inline const char* read_plain_line(const char* p, int fields,
                                                          uint64_t* values) {
  auto separator = [](char c) { return c == ' ' || c == '\t' || c == ','; };
  auto newline = [](char c) { return c == '\n'; };
  for (int j = 0; j + 1 < fields; ++j) {
    p = read_plain_field(p, values[j], separator);
    if (p == nullptr) return nullptr;
  }
  return read_plain_field(p, values[fields - 1], newline);
}

}  // namespace dyng::io
