// The real numbers of a Matrix Market 'real' or 'complex' value column. dyng reads integer
// weights only, but it checks every value it skips, so that a damaged column ('#', a control
// byte, a cut-off number) is refused rather than passed over. A value is accepted when dyng
// 0.2.0 accepted it: a decimal number as std::from_chars reads one (digits with an optional
// point and an optional exponent, or inf, infinity, nan, nan(chars) in any case), here with an
// optional sign, whose value a double holds: not past the largest double, and not a nonzero
// value so small that it rounds to zero.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace dyng::io {
namespace detail {

inline bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != b[i]) return false;
  return true;
}

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Compares the significant digits `digits` (no leading zero) with those of `bound`, as numbers
/// with the same exponent: -1, 0 or 1.
inline int compare_digits(std::string_view digits, std::string_view bound) {
  for (size_t i = 0; i < digits.size() || i < bound.size(); ++i) {
    const char a = i < digits.size() ? digits[i] : '0';
    const char b = i < bound.size() ? bound[i] : '0';
    if (a != b) return a < b ? -1 : 1;
  }
  return 0;
}

// The first digits of the bounds of the doubles, in scientific notation: 2^1024 - 2^970 rounds
// to infinity (DBL_MAX is 1.7976931348623157e308), and 2^-1075 or less to zero (the least
// subnormal is 4.9406564584124654e-324). Digits beyond these decide only values nobody writes.
inline constexpr std::string_view k_overflow_digits = "17976931348623158079372897140530341507993";
inline constexpr int k_overflow_exponent = 308;
inline constexpr std::string_view k_underflow_digits = "24703282292062327208828439643411068618252";
inline constexpr int k_underflow_exponent = -324;

}  // namespace detail

/// True when `token` is a real number as the file's comment says.
inline bool is_real_number(std::string_view token) {
  using namespace detail;
  if (!token.empty() && (token[0] == '-' || token[0] == '+')) token.remove_prefix(1);
  const char* p = token.data();
  const char* const end = p + token.size();
  if (p < end && !is_digit(*p) && *p != '.') {
    if (equals_ignoring_case(token, "inf") || equals_ignoring_case(token, "infinity") ||
        equals_ignoring_case(token, "nan"))
      return true;
    if (token.size() < 5 || !equals_ignoring_case(token.substr(0, 4), "nan(") ||
        token.back() != ')')
      return false;
    for (char c : token.substr(4, token.size() - 5))
      if (!(is_digit(c) || c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))) return false;
    return true;
  }
  // Mantissa: digits, an optional point, digits (at least one digit in all); then an optional
  // exponent.
  const char* const whole = p;
  while (p < end && is_digit(*p)) ++p;
  const char* const point = p;
  const char* fraction = p;
  if (p < end && *p == '.') {
    fraction = ++p;
    while (p < end && is_digit(*p)) ++p;
  }
  const char* const mantissa_end = p;
  if (point == whole && mantissa_end == fraction) return false;
  int64_t exponent = 0;
  if (p < end) {
    if ((*p | 0x20) != 'e') return false;
    ++p;
    bool negative = false;
    if (p < end && (*p == '-' || *p == '+')) negative = *p++ == '-';
    if (p == end) return false;
    for (; p < end; ++p) {
      if (!is_digit(*p)) return false;
      // Saturates far past any double's exponent, so a long exponent cannot wrap.
      exponent = std::min<int64_t>(exponent * 10 + (*p - '0'), int64_t{1} << 40);
    }
    if (negative) exponent = -exponent;
  }
  // The common value needs no more: no exponent and fewer digits than either bound's exponent.
  if (exponent == 0 && mantissa_end - whole < 300) return true;
  // The value's size is the decimal exponent of its first nonzero digit (`lead`) plus the
  // exponent; only at the bounds' own exponents do the digits decide.
  const char* first = whole;
  while (first < mantissa_end && (*first == '0' || *first == '.')) ++first;
  if (first == mantissa_end) return true;  // zero, whatever its exponent
  const int64_t lead = first < point ? static_cast<int64_t>(point - first) - 1
                                     : -static_cast<int64_t>(first - point);
  const int64_t magnitude = lead + exponent;
  if (magnitude != k_overflow_exponent && magnitude != k_underflow_exponent)
    return magnitude < k_overflow_exponent && magnitude > k_underflow_exponent;
  std::string significant;  // only at the two bounds' exponents
  for (; first < mantissa_end; ++first)
    if (*first != '.') significant += *first;
  if (magnitude == k_overflow_exponent) return compare_digits(significant, k_overflow_digits) < 0;
  return compare_digits(significant, k_underflow_digits) > 0;
}

}  // namespace dyng::io
