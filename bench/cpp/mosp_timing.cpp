// Timing driver for tuning mosp's host compute (built with the tests, not run by ctest):
//   dyng_bench_mosp_timing [rmat_scale=20] [repeats=3] [threads=1] [stages=1]
// The graph follows bench/mosp.py's scenario in shape (R-MAT a,b,c = .57,.19,.19, edge factor
// 16, self-loops dropped and duplicates merged; 3 objectives with weights uniform 1..100,
// preferences 2,1,3, source 0) but uses its own random stream. threads = 1 runs the sequential
// backend, more the OpenMP one with that team. Prints each compute's wall and process CPU time
// (best of `repeats` at the end) and, with stages, the stage totals of the best run.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "dyng/backend/profile.hpp"
#include "dyng/mosp/mosp.hpp"

namespace {

using namespace dyng;
using graph32_t = graph_t<int32_t, int64_t>;
constexpr int k_objectives = 3;

double process_cpu_ms() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

// Page faults so far: every first touch of a fresh page is one, and on a virtual machine each
// costs about a microsecond, so a compute's fresh scratch shows here before it shows in a profile.
long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

graph32_t rmat_graph(int scale, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int64_t draws = int64_t{16} << scale;
  std::vector<int64_t> keys;
  keys.reserve(static_cast<size_t>(draws));
  for (int64_t i = 0; i < draws; ++i) {
    int64_t u = 0, v = 0;
    for (int level = 0; level < scale; ++level) {
      const double x = unit(rng);
      const int su = x >= 0.57 + 0.19, sv = (x >= 0.57 && x < 0.76) || x >= 0.95;
      u = (u << 1) | su;
      v = (v << 1) | sv;
    }
    if (u != v) keys.push_back((u << scale) | v);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::uniform_int_distribution<int32_t> weight(1, 100);
  std::vector<int32_t> src, dst, w;
  for (const int64_t k : keys) {
    src.push_back(static_cast<int32_t>(k >> scale));
    dst.push_back(static_cast<int32_t>(k & ((int64_t{1} << scale) - 1)));
    for (int i = 0; i < k_objectives; ++i) w.push_back(weight(rng));
  }
  graph_properties_t props;
  props.num_weights = k_objectives;
  return graph32_t::from_edges(int32_t{1} << scale, std::span<const int32_t>(src),
                               std::span<const int32_t>(dst), std::span<const int32_t>(w), props);
}

}  // namespace

int main(int argc, char** argv) {
  const int scale = argc > 1 ? std::atoi(argv[1]) : 20;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  const int threads = argc > 3 ? std::atoi(argv[3]) : 1;
  const bool stages = argc > 4 ? std::atoi(argv[4]) != 0 : true;
  const graph32_t graph = rmat_graph(scale, 1);
  std::printf("rmat%d: %lld vertices, %lld edges, %s\n", scale,
              static_cast<long long>(graph.num_vertices()),
              static_cast<long long>(graph.num_edges()),
              threads > 1 ? ("openmp " + std::to_string(threads)).c_str() : "sequential");
  mosp::options_t options;
  options.preferences = {2, 1, 3};
  execution_t exec;
  exec.backend = threads > 1 ? backend_t::openmp : backend_t::sequential;
  exec.num_threads = threads;
  double best_wall = 1e300, best_cpu = 0;
  std::map<std::string, double> best_stages;
  for (int r = 0; r < repeats; ++r) {
    profile_session_t session(profile_options_t{});
    if (stages) exec.profiler.set(&session);
    mosp::state_t<int32_t> state;
    mosp::stats_t stats;
    const long f0 = minor_faults();
    const double w0 = now_ms(), c0 = process_cpu_ms();
    {
      const profile_context_t context(exec);
      stats = mosp::compute(graph, int32_t{0}, options, exec, state);
    }
    const double wall = now_ms() - w0, cpu = process_cpu_ms() - c0;
    exec.profiler.set(nullptr);
    std::printf("compute %d: wall %.1f ms, cpu %.1f ms, %ld page faults, %lld combined edges\n",
                r, wall, cpu, minor_faults() - f0, static_cast<long long>(stats.combined_edges));
    if (wall < best_wall) {
      best_wall = wall;
      best_cpu = cpu;
      best_stages.clear();
      for (const auto& s : session.samples()) {
        best_stages[std::string(s.depth, ' ') + s.name] += s.host_ms;
      }
    }
  }
  std::printf("best: wall %.1f ms, cpu %.1f ms\n", best_wall, best_cpu);
  for (const auto& [name, ms] : best_stages) std::printf("  %-40s %8.1f ms\n", name.c_str(), ms);
  return 0;
}
