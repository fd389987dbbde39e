// A minimal test harness: no external framework, so the C++ suites build from a clean clone with
// nothing but a compiler. A test file defines TESTS with DYNG_TEST blocks; main() runs them all and
// returns non-zero if any check failed.
#pragma once

#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace dyng_test {

struct test_case_t {
  const char* name;
  std::function<void()> body;
};

inline std::vector<test_case_t>& registry() {
  static std::vector<test_case_t> tests;
  return tests;
}

inline int& failures() {
  static int count = 0;
  return count;
}

struct registrar_t {
  registrar_t(const char* name, std::function<void()> body) {
    registry().push_back({name, std::move(body)});
  }
};

inline int run_all() {
  int failed_tests = 0;
  for (const auto& test : registry()) {
    const int before = failures();
    try {
      test.body();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "  %s: unexpected exception: %s\n", test.name, e.what());
      ++failures();
    }
    const bool ok = failures() == before;
    failed_tests += ok ? 0 : 1;
    std::printf("[%s] %s\n", ok ? "pass" : "FAIL", test.name);
  }
  std::printf("%zu tests, %d failed\n", registry().size(), failed_tests);
  return failed_tests == 0 ? 0 : 1;
}

}  // namespace dyng_test

#define DYNG_CONCAT_INNER(a, b) a##b
#define DYNG_CONCAT(a, b) DYNG_CONCAT_INNER(a, b)
#define DYNG_TEST(name)                                                \
  static void DYNG_CONCAT(dyng_test_fn_, __LINE__)();                  \
  static dyng_test::registrar_t DYNG_CONCAT(dyng_test_reg_, __LINE__){ \
      name, DYNG_CONCAT(dyng_test_fn_, __LINE__)};                     \
  static void DYNG_CONCAT(dyng_test_fn_, __LINE__)()

#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      ++dyng_test::failures();                                                        \
    }                                                                                 \
  } while (0)

#define CHECK_EQ(a, b)                                                                        \
  do {                                                                                        \
    if (!((a) == (b))) {                                                                      \
      std::fprintf(stderr, "  %s:%d: CHECK_EQ(%s, %s) failed\n", __FILE__, __LINE__, #a, #b); \
      ++dyng_test::failures();                                                                \
    }                                                                                         \
  } while (0)

#define CHECK_THROWS_AS(expr, type)                                                             \
  do {                                                                                          \
    bool dyng_caught = false;                                                                   \
    try {                                                                                       \
      (void)(expr);                                                                             \
    } catch (const type&) {                                                                     \
      dyng_caught = true;                                                                       \
    } catch (...) {                                                                             \
    }                                                                                           \
    if (!dyng_caught) {                                                                         \
      std::fprintf(stderr, "  %s:%d: %s did not throw %s\n", __FILE__, __LINE__, #expr, #type); \
      ++dyng_test::failures();                                                                  \
    }                                                                                           \
  } while (0)

#define DYNG_TEST_MAIN() \
  int main() { return dyng_test::run_all(); }
