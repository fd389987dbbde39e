// What a profile stage costs (built with the tests, not run by ctest):
//   dyng_bench_profile_idle [iterations=200000000] [rmat_scale=18]
// 1. ns per stage with no profile open anywhere (the cost every call pays: one relaxed load and
//    one branch), against the same loop without the stage;
// 2. ns per stage while another thread's call is being profiled (this thread then checks its own
//    context, a thread-local read);
// 3. ns per recorded stage (a profile open on this thread);
// 4. one sequential sssp compute on an R-MAT graph: how many stages it opens and the share of its
//    time that the idle stages can cost at most (stages x idle ns / compute time).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "dyng/backend/profile.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/sssp/sssp.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

double ns_per(clock_type::time_point start, int64_t count) {
  return std::chrono::duration<double, std::nano>(clock_type::now() - start).count() /
         static_cast<double>(count);
}

// The loop body both variants share; the asm keeps the compiler from folding the loop away.
inline void work(int64_t i, int64_t& sink) {
  sink += i;
  asm volatile("" : "+r"(sink));
}

double bare_loop(int64_t n) {
  int64_t sink = 0;
  const auto start = clock_type::now();
  for (int64_t i = 0; i < n; ++i) work(i, sink);
  return ns_per(start, n);
}

double staged_loop(int64_t n) {
  int64_t sink = 0;
  const auto start = clock_type::now();
  for (int64_t i = 0; i < n; ++i) {
    const dyng::stage_scope_t stage("bench.stage");
    work(i, sink);
  }
  return ns_per(start, n);
}

double best_of(int rounds, double (*loop)(int64_t), int64_t n) {
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) best = std::min(best, loop(n));
  return best;
}

dyng::graph_t<int32_t, int64_t> rmat(int scale, uint64_t seed) {
  const int32_t n = int32_t{1} << scale;
  const int64_t m = int64_t{16} << scale;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::uniform_int_distribution<int32_t> weight(1, 100);
  std::vector<int32_t> src, dst, w;
  for (int64_t e = 0; e < m; ++e) {
    int32_t u = 0, v = 0;
    for (int bit = scale - 1; bit >= 0; --bit) {
      const double p = coin(rng);
      const int quadrant = p < 0.57 ? 0 : p < 0.76 ? 1 : p < 0.95 ? 2 : 3;
      u |= (quadrant >> 1) << bit;
      v |= (quadrant & 1) << bit;
    }
    if (u == v) continue;
    src.push_back(u);
    dst.push_back(v);
    w.push_back(weight(rng));
  }
  dyng::graph_properties_t props;
  props.num_weights = 1;
  return dyng::graph_t<int32_t, int64_t>::from_edges(n, src, dst, w, props);
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t iterations = argc > 1 ? std::atoll(argv[1]) : 200000000;
  const int scale = argc > 2 ? std::atoi(argv[2]) : 18;

  const double bare = best_of(5, bare_loop, iterations);
  const double idle = best_of(5, staged_loop, iterations);
  std::printf(
      "idle stage (no profile open):         %.3f ns per stage (loop %.3f ns, with stage "
      "%.3f ns)\n",
      idle - bare, bare, idle);

  dyng::profile_session_t elsewhere_session({});
  dyng::execution_t elsewhere;
  elsewhere.profiler.set(&elsewhere_session);
  std::atomic<bool> opened{false}, done{false};
  std::thread other([&] {
    const dyng::profile_context_t context(elsewhere);
    opened = true;
    while (!done.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (!opened.load()) std::this_thread::yield();
  const double busy = best_of(5, staged_loop, iterations / 4);
  done = true;
  other.join();
  std::printf("stage while another thread profiles:  %.3f ns per stage\n", busy - bare);

  dyng::profile_session_t session({});
  dyng::execution_t profiled;
  profiled.profiler.set(&session);
  double recorded = 0.0;
  {
    const dyng::profile_context_t context(profiled);
    recorded = staged_loop(2000000);
  }
  std::printf("recorded stage:                       %.1f ns per stage\n", recorded - bare);

  auto graph = rmat(scale, 7);
  dyng::execution_t sequential;
  dyng::sssp::options_t options;
  dyng::sssp::state_t<int32_t> state;
  double best_ms = 1e30;
  for (int r = 0; r < 5; ++r) {
    const auto start = clock_type::now();
    dyng::sssp::compute(graph, int32_t{0}, options, sequential, state);
    best_ms = std::min(
        best_ms, std::chrono::duration<double, std::milli>(clock_type::now() - start).count());
  }
  {
    const dyng::profile_context_t context(profiled);
    session.reset();
    dyng::sssp::compute(graph, int32_t{0}, options, profiled, state);
  }
  const auto stages = static_cast<int64_t>(session.samples().size());
  std::printf(
      "sssp.compute, sequential, R-MAT %d (%lld edges): %.2f ms, %lld stages; idle stages "
      "cost at most %.2e of it\n",
      scale, static_cast<long long>(graph.num_edges()), best_ms, static_cast<long long>(stages),
      static_cast<double>(stages) * std::max(0.0, idle - bare) * 1e-6 / best_ms);
  return 0;
}
