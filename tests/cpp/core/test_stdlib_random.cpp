// core/stdlib_random.hpp against the standard library it replays: built with libstdc++ (the dev
// builds), every uniform integer and every shuffle must equal std::uniform_int_distribution's and
// std::shuffle's from the same engine state, for both engines, over ranges that take each path
// (below the engine's range, equal to it, above it; signed and unsigned; shuffles short enough
// for the two-swaps-per-draw path and longer). Built with another library (the wheels' libc++)
// the comparison means nothing; values recorded under libstdc++ are checked everywhere.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "check.hpp"
#include "dyng/core/stdlib_random.hpp"

namespace {

namespace sr = dyng::stdlib_random;

template <class engine_t, class T>
void compare_ranges(T lo, T hi, int draws) {
#if defined(__GLIBCXX__)
  engine_t mine(12345), theirs(12345);
  std::uniform_int_distribution<T> dist(lo, hi);
  for (int i = 0; i < draws; ++i) CHECK_EQ(sr::uniform_int<T>(mine, lo, hi), dist(theirs));
  CHECK(mine == theirs);  // the same number of engine steps
#else
  (void)lo, (void)hi, (void)draws;
#endif
}

template <class engine_t>
void compare_shuffle(size_t length, uint64_t seed) {
#if defined(__GLIBCXX__)
  std::vector<int> mine(length), theirs(length);
  std::iota(mine.begin(), mine.end(), 0);
  std::iota(theirs.begin(), theirs.end(), 0);
  engine_t a(seed), b(seed);
  sr::shuffle(mine.begin(), mine.end(), a);
  std::shuffle(theirs.begin(), theirs.end(), b);
  CHECK(mine == theirs);
  CHECK(a == b);
#else
  (void)length, (void)seed;
#endif
}

DYNG_TEST("uniform_int equals libstdc++'s for mt19937") {
  compare_ranges<std::mt19937, int>(1, 100, 5000);
  compare_ranges<std::mt19937, int>(-7, 7, 5000);
  compare_ranges<std::mt19937, int>(0, 0, 100);
  compare_ranges<std::mt19937, int>(INT32_MIN, INT32_MAX, 2000);  // the engine's range
  compare_ranges<std::mt19937, int>(1, INT32_MAX, 2000);
  compare_ranges<std::mt19937, size_t>(0, (size_t{1} << 31) + 12345, 2000);
  compare_ranges<std::mt19937, size_t>(0, (size_t{1} << 40) + 3, 2000);  // wider: upscaling
  compare_ranges<std::mt19937, uint64_t>(5, UINT64_MAX, 500);
  // Ranges just above a power of two reject most often.
  for (int size : {3, 5, 6, 7, 1000, 65537}) compare_ranges<std::mt19937, int>(0, size, 3000);
}

DYNG_TEST("uniform_int equals libstdc++'s for mt19937_64") {
  compare_ranges<std::mt19937_64, size_t>(0, 9, 5000);
  compare_ranges<std::mt19937_64, size_t>(3, (size_t{1} << 63) + 5, 3000);
  compare_ranges<std::mt19937_64, uint64_t>(0, UINT64_MAX, 1000);  // the engine's range
  compare_ranges<std::mt19937_64, int>(-100, 100, 3000);
}

DYNG_TEST("shuffle equals libstdc++'s, both paths, both engines") {
  for (size_t length : {0, 1, 2, 3, 4, 5, 16, 17, 1000, 65535, 65536, 70000}) {
    for (uint64_t seed : {1u, 7u, 4294967295u}) {
      compare_shuffle<std::mt19937>(length, seed);
      compare_shuffle<std::mt19937_64>(length, seed);
    }
  }
}

DYNG_TEST("fixed values computed under libstdc++") {
  // Recorded with g++ 12 / libstdc++ (std::uniform_int_distribution, std::shuffle): they pin the
  // replay whatever library this test is built with.
  std::mt19937 e32(5);
  std::vector<int> drawn;
  for (int i = 0; i < 6; ++i) drawn.push_back(sr::uniform_int(e32, 1, 100));
  CHECK((drawn == std::vector<int>{23, 6, 88, 84, 21, 37}));
  std::mt19937_64 e64(9);
  std::vector<int> order(10);
  std::iota(order.begin(), order.end(), 0);
  sr::shuffle(order.begin(), order.end(), e64);
  CHECK((order == std::vector<int>{0, 9, 8, 2, 4, 6, 7, 1, 5, 3}));
  std::mt19937_64 wide(3);
  std::vector<size_t> big;
  for (int i = 0; i < 4; ++i) big.push_back(sr::uniform_int<size_t>(wide, 0, 1000000));
  CHECK((big == std::vector<size_t>{558766, 195763, 590241, 346369}));
}

}  // namespace

DYNG_TEST_MAIN()
