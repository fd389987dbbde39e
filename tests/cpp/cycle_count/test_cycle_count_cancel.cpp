// cycle_count stops when its caller asks (execution_t::cancel, backend/cancel.hpp): a count that
// would run for many seconds (every cycle of the complete digraph on 13 vertices, 1.2e9 of them)
// throws interrupted_error soon after another thread sets the flag, on both host backends, for a
// compute (Johnson's search), a bounded compute (the path search) and an update (its repair and
// its recompute), and leaves the result it was given as it was.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "check.hpp"
#include "cycle_count/cycle_test_graphs.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/graph/graph.hpp"

namespace {

using namespace dyng;
namespace cc = dyng::cycle_count;
using clock_type = std::chrono::steady_clock;

/// How long after the flag the call may still run: polls come every vertex entered, so this is
/// thread scheduling on a busy machine, not the search.
constexpr double k_prompt_seconds = 0.5;

graph_t<int32_t, int32_t> complete_digraph(int32_t n) {
  std::vector<int32_t> src, dst;
  for (int32_t u = 0; u < n; ++u) {
    for (int32_t v = 0; v < n; ++v) {
      if (u != v) src.push_back(u), dst.push_back(v);
    }
  }
  return graph_t<int32_t, int32_t>::from_edges(n, src, dst, {}, dyng_test::props_of(true, true));
}

execution_t exec_of(backend_t backend, const std::atomic<bool>& flag) {
  execution_t exec;
  exec.backend = backend;
  exec.num_threads = 2;
  exec.cancel.flag = &flag;
  return exec;
}

/// Runs call() while another thread sets `flag` after about 100 ms; checks that call() throws
/// interrupted_error within k_prompt_seconds of the flag.
template <class F>
void check_interrupted(std::atomic<bool>& flag, F&& call) {
  flag.store(false);
  std::atomic<int64_t> set_at{0};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the user's Ctrl-C
    set_at.store(clock_type::now().time_since_epoch().count());
    flag.store(true);
  });
  bool interrupted = false;
  try {
    call();
  } catch (const interrupted_error&) {
    interrupted = true;
  }
  const int64_t returned_at = clock_type::now().time_since_epoch().count();
  canceller.join();
  CHECK(interrupted);
  const double late =
      std::chrono::duration<double>(clock_type::duration(returned_at - set_at.load())).count();
  CHECK(late < k_prompt_seconds);
}

DYNG_TEST("compute stops when asked and keeps the result it was given") {
  const auto k13 = complete_digraph(13);
  std::atomic<bool> flag{false};
  for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
    for (const int64_t max_length : {cc::k_unbounded, int64_t{12}}) {
      cc::options_t options;
      options.max_length = max_length;
      options.parallel_min_edges = 0;
      cc::state_t<int32_t> state;
      state.num_vertices = 13;
      state.max_length = max_length;
      state.counts = {0, 0, 7};
      state.compute_work = 5;
      const cc::state_t<int32_t> before = state;
      check_interrupted(flag, [&] { cc::compute(k13, options, exec_of(backend, flag), state); });
      CHECK(state.counts == before.counts);
      CHECK_EQ(state.num_vertices, before.num_vertices);
      CHECK_EQ(state.compute_work, before.compute_work);
    }
  }
}

/// The counts of the complete digraph on n vertices: C(n, l) (l - 1)! cycles of length l.
std::vector<uint64_t> complete_counts(int64_t n) {
  std::vector<uint64_t> counts(static_cast<size_t>(n) + 1, 0);
  for (int64_t l = 2; l <= n; ++l) {
    uint64_t c = 1;  // n (n - 1) ... (n - l + 1) / l
    for (int64_t k = 0; k < l; ++k) c *= static_cast<uint64_t>(n - k);
    counts[static_cast<size_t>(l)] = c / static_cast<uint64_t>(l);
  }
  return counts;
}

DYNG_TEST("update stops when asked and puts the result back") {
  std::atomic<bool> flag{false};
  for (const backend_t backend : {backend_t::sequential, backend_t::openmp}) {
    // A repair within its budget (the searches through a deleted edge) and a recompute (budget
    // 0), each far longer than 100 ms; the batch also adds a vertex, which the result must lose
    // again.
    for (const double budget : {1e9, 0.0}) {
      auto g = complete_digraph(13);
      cc::options_t options;
      options.parallel_min_edges = 0;
      options.repair_budget = budget;
      cc::state_t<int32_t> state;
      state.num_vertices = 13;
      state.counts = complete_counts(13);
      state.compute_work = int64_t{1} << 40;
      const cc::state_t<int32_t> before = state;
      std::vector<int32_t> is{13, 3}, id{3, 13}, ds{0}, dd{1};
      change_log_t<int32_t> log;
      g.apply({is, id, {}, 0, ds, dd}, &log);
      check_interrupted(flag, [&] { cc::update(g, log, options, exec_of(backend, flag), state); });
      CHECK(state.counts == before.counts);
      CHECK_EQ(state.num_vertices, before.num_vertices);
    }
  }
}

}  // namespace

DYNG_TEST_MAIN()
