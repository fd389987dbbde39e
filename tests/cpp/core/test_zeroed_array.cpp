// zeroed_array: new slots read zero however the array got its size (fresh, grown in place, grown
// past its capacity through calloc or mremap, regrown after a shrink), copies are deep, and the
// memory checks of graph builds refuse what cannot fit with the bytes in the message.
#include <cstdint>
#include <string>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/zeroed_array.hpp"
#include "dyng/graph/detail/capacity.hpp"

namespace {

template <class T>
bool all_zero(const dyng::zeroed_array<T>& a, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) {
    if (a[i] != T{}) return false;
  }
  return true;
}

DYNG_TEST("grown slots are zero, small and mapped blocks alike") {
  for (const size_t start : {size_t{10}, size_t{1} << 18}) {  // calloc'd, then a mapping
    dyng::zeroed_array<int64_t> a(start);
    CHECK(all_zero(a, 0, start));
    for (size_t i = 0; i < start; i += 7) a[i] = static_cast<int64_t>(i) + 1;
    a.resize(start * 5);  // past the capacity: calloc + copy, or mremap
    CHECK_EQ(a.size(), start * 5);
    bool kept = true;
    for (size_t i = 0; i < start; ++i) kept = kept && a[i] == (i % 7 == 0 ? int64_t(i) + 1 : 0);
    CHECK(kept);
    CHECK(all_zero(a, start, start * 5));
  }
}

DYNG_TEST("a shrink zeroes what it gives up, so regrowing reads zeros") {
  dyng::zeroed_array<int32_t> a(100);
  for (size_t i = 0; i < 100; ++i) a[i] = 5;
  a.resize(40);
  a.resize(100);  // within the capacity: no new block
  CHECK(all_zero(a, 40, 100));
  CHECK_EQ(a[39], 5);
}

DYNG_TEST("copies are deep and moves leave an empty array") {
  dyng::zeroed_array<int64_t> a(1 << 18);
  a[3] = 9;
  dyng::zeroed_array<int64_t> b = a;
  b[3] = 1;
  CHECK_EQ(a[3], 9);
  dyng::zeroed_array<int64_t> c = std::move(a);
  CHECK(a.empty());
  CHECK_EQ(c[3], 9);
  c = {};
  CHECK(c.empty());
}

DYNG_TEST("memory checks refuse with the bytes needed and available") {
  bool threw = false;
  try {
    dyng::detail::check_memory(1e18, 1.0, "a test request", "t()");
  } catch (const dyng::out_of_memory_error& e) {
    const std::string what = e.what();
    threw = what.find("t(): a test request needs about") != std::string::npos &&
            what.find("available") != std::string::npos && what.find("GiB") != std::string::npos;
  }
  CHECK(threw);
  CHECK_THROWS_AS(dyng::detail::check_memory(1.0, 1e18, "a block", "t()"),
                  dyng::out_of_memory_error);
  dyng::detail::check_memory(1.0, 1.0, "a small request", "t()");  // fits: no throw
}

DYNG_TEST("the from_edges estimate counts touched memory") {
  auto estimate = [](int64_t n, int64_t entries, bool transposed) {
    return dyng::detail::from_edges_bytes<int32_t, int64_t>(n, entries, 1, 0.125, transposed);
  };
  // 700 million edges need tens of GiB whatever n is; a few edges over 10^8 ids need pages only.
  CHECK(estimate(1'000'000, 700'000'000, true) > 20e9);
  CHECK(estimate(100'000'000, 6, true) < 1e6);
  // Dense: the per-row arrays count in full.
  CHECK(estimate(100'000'000, 200'000'000, false) > 100'000'000.0 * (3 * 8 + 3 * 8));
}

}  // namespace

DYNG_TEST_MAIN()
