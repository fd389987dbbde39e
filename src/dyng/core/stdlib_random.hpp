// Uniform integers and shuffles that give, draw for draw, what GCC's libstdc++ (11 and later)
// gives for std::uniform_int_distribution and std::shuffle over a std::mt19937 or
// std::mt19937_64 engine, whatever standard library dyng itself is built with.
//
// The engines are specified by the standard, the distributions are not: libc++ (the C++ library
// of the zig-built wheels) maps the same engine output to other integers than libstdc++ does. The
// original tools whose seeded batches and random weights dyng reproduces (mospPrep, the
// CycleEnumeration generator) ran with libstdc++, so its mapping is part of their output. It is
// written out here:
//  - a range that fits below the engine's range: Lemire's nearly divisionless method ("Fast
//    Random Integer Generation in an Interval", ACM TOMACS 2019): multiply one draw by the range
//    size in a twice-as-wide integer, keep the high half, and redraw while the low half falls
//    below 2^w mod size;
//  - a range exactly the engine's: the draw itself;
//  - a wider range: high part drawn recursively, low part one draw, rejected on overflow;
//  - shuffle: Fisher-Yates from the front (element i swaps with a uniform position in [0, i]);
//    while a draw can cover two steps (the range squared fits in the engine's range) it takes one
//    uniform integer in [0, (i + 1)(i + 2)) and splits it into the positions for i and i + 1,
//    after a single 0-or-1 swap of the second element when the length is even.
// tests/cpp/core/test_stdlib_random.cpp holds these equal to the standard library's own
// functions where that library is libstdc++.
#pragma once

#include <cstdint>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>

namespace dyng::stdlib_random {

namespace detail {

/// Lemire's method for a range of `size` values below the engine's 2^bits (bits = 32 or 64).
template <class wide_t, class narrow_t, class engine_t>
narrow_t nearly_divisionless(engine_t& engine, narrow_t size) {
  constexpr int bits = std::numeric_limits<narrow_t>::digits;
  wide_t product = static_cast<wide_t>(engine()) * static_cast<wide_t>(size);
  auto low = static_cast<narrow_t>(product);
  if (low < size) {
    const narrow_t threshold = static_cast<narrow_t>(-size) % size;
    while (low < threshold) {
      product = static_cast<wide_t>(engine()) * static_cast<wide_t>(size);
      low = static_cast<narrow_t>(product);
    }
  }
  return static_cast<narrow_t>(product >> bits);
}

/// A uniform value in [0, range] (range as an unsigned 64-bit span).
template <class engine_t>
uint64_t uniform_offset(engine_t& engine, uint64_t range) {
  static_assert(engine_t::min() == 0, "the engines dyng replays start at 0");
  constexpr uint64_t engine_range = engine_t::max() - engine_t::min();
  static_assert(engine_range == UINT32_MAX || engine_range == UINT64_MAX,
                "only 32- and 64-bit engines (mt19937, mt19937_64) are replayed");
  if (engine_range > range) {
    const uint64_t size = range + 1;
    if constexpr (engine_range == UINT64_MAX) {
      return nearly_divisionless<unsigned __int128, uint64_t>(engine, size);
    } else {
      return nearly_divisionless<uint64_t, uint32_t>(engine, static_cast<uint32_t>(size));
    }
  }
  if (engine_range == range) return static_cast<uint64_t>(engine());
  if constexpr (engine_range == UINT64_MAX) {
    return range;  // unreachable: no 64-bit range is wider than the 64-bit engine's
  } else {
    // Wider than one draw of the 32-bit engine: the high part first.
    constexpr uint64_t step = engine_range + 1;
    uint64_t value = 0;
    uint64_t high = 0;
    do {
      high = step * uniform_offset(engine, range / step);
      value = high + static_cast<uint64_t>(engine());
    } while (value > range || value < high);
    return value;
  }
}

}  // namespace detail

/// std::uniform_int_distribution<T>(lo, hi)(engine) as libstdc++ computes it.
template <class T, class engine_t>
T uniform_int(engine_t& engine, T lo, T hi) {
  static_assert(std::is_integral_v<T> && sizeof(T) <= 8);
  using unsigned_t = std::make_unsigned_t<T>;
  const uint64_t range =
      static_cast<uint64_t>(static_cast<unsigned_t>(hi) - static_cast<unsigned_t>(lo));
  const uint64_t offset = detail::uniform_offset(engine, range);
  return static_cast<T>(static_cast<unsigned_t>(lo) + static_cast<unsigned_t>(offset));
}

/// std::shuffle(first, last, engine) as libstdc++ performs it.
template <class iterator_t, class engine_t>
void shuffle(iterator_t first, iterator_t last, engine_t& engine) {
  if (first == last) return;
  constexpr uint64_t engine_range = engine_t::max() - engine_t::min();
  const auto length = static_cast<uint64_t>(std::distance(first, last));
  if (engine_range / length >= length) {
    iterator_t i = first + 1;
    // An even length leaves an odd number of swaps: the first of them is made alone.
    if (length % 2 == 0) {
      const auto at = uniform_int<uint64_t>(engine, 0, 1);
      std::iter_swap(i++, first + static_cast<std::ptrdiff_t>(at));
    }
    while (i != last) {
      const uint64_t span = static_cast<uint64_t>(i - first) + 1;
      const uint64_t both = uniform_int<uint64_t>(engine, 0, span * (span + 1) - 1);
      std::iter_swap(i++, first + static_cast<std::ptrdiff_t>(both / (span + 1)));
      std::iter_swap(i++, first + static_cast<std::ptrdiff_t>(both % (span + 1)));
    }
    return;
  }
  for (iterator_t i = first + 1; i != last; ++i) {
    const auto at = uniform_int<uint64_t>(engine, 0, static_cast<uint64_t>(i - first));
    std::iter_swap(i, first + static_cast<std::ptrdiff_t>(at));
  }
}

}  // namespace dyng::stdlib_random
