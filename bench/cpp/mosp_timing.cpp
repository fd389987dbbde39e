// Timing driver for tuning mosp's host compute (built with the tests, not run by ctest):
//   dyng_bench_mosp_timing [rmat_scale=20] [repeats=3] [threads=1] [stages=1] [changes=0]
// The graph follows bench/mosp.py's scenario in shape (R-MAT a,b,c = .57,.19,.19, edge factor
// 16, self-loops dropped and duplicates merged; 3 objectives with weights uniform 1..100,
// preferences 2,1,3, source 0) but uses its own random stream. threads = 1 runs the sequential
// backend, more the OpenMP one with that team. Prints each compute's wall and process CPU time
// (best of `repeats` at the end) and, with stages, the stage totals of the best run. With
// `changes` > 0 it then times mosp::update with a batch of that many changes (half insertions of
// random edges, half deletions of existing ones, as bench/changes.py's uniform mode) against
// apply + compute, each on a fresh copy of the graph and result, with the update's stages.
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

// A batch of `changes` entries: half insertions of uniform random pairs (weights 1..100), half
// deletions of distinct existing edges.
struct batch_t {
  std::vector<int32_t> ins_src, ins_dst, ins_w, del_src, del_dst;
};

batch_t uniform_batch(const graph32_t& graph, int64_t changes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  batch_t b;
  const int32_t n = graph.num_vertices();
  std::uniform_int_distribution<int32_t> vertex(0, n - 1), weight(1, 100);
  for (int64_t i = 0; i < changes / 2; ++i) {
    b.ins_src.push_back(vertex(rng));
    b.ins_dst.push_back(vertex(rng));
    for (int w = 0; w < k_objectives; ++w) b.ins_w.push_back(weight(rng));
  }
  std::vector<int32_t> src, dst, w;
  graph.edges(src, dst, w);
  std::vector<int64_t> order(src.size());
  for (size_t e = 0; e < order.size(); ++e) order[e] = static_cast<int64_t>(e);
  std::shuffle(order.begin(), order.end(), rng);
  for (int64_t i = 0; i < changes - changes / 2 && i < static_cast<int64_t>(order.size()); ++i) {
    b.del_src.push_back(src[static_cast<size_t>(order[static_cast<size_t>(i)])]);
    b.del_dst.push_back(dst[static_cast<size_t>(order[static_cast<size_t>(i)])]);
  }
  return b;
}

void time_update(const graph32_t& graph, const mosp::options_t& options, execution_t exec,
                 int64_t changes, int repeats, bool stages) {
  const batch_t b = uniform_batch(graph, changes, 1000 + static_cast<uint64_t>(changes));
  const edge_batch_t<int32_t> batch{b.ins_src,    b.ins_dst, b.ins_w,
                                    k_objectives, b.del_src, b.del_dst};
  mosp::state_t<int32_t> base;
  mosp::compute(graph, int32_t{0}, options, exec, base);
  double best_update = 1e300, best_fresh = 1e300;
  std::map<std::string, double> best_stages;
  for (int r = 0; r < repeats; ++r) {
    graph32_t g = graph;
    mosp::state_t<int32_t> state = base;
    profile_session_t session(profile_options_t{});
    if (stages) exec.profiler.set(&session);
    const double w0 = now_ms();
    mosp::stats_t stats;
    {
      const profile_context_t context(exec);
      change_log_t<int32_t> log;
      g.apply(batch, &log, exec);
      stats = mosp::update(g, log, options, exec, state);
    }
    const double wall = now_ms() - w0;
    exec.profiler.set(nullptr);
    graph32_t h = graph;
    mosp::state_t<int32_t> fresh;
    const double f0 = now_ms();
    h.apply(batch, nullptr, exec);
    mosp::compute(h, int32_t{0}, options, exec, fresh);
    const double fresh_wall = now_ms() - f0;
    const bool same = fresh.combined_distances == state.combined_distances &&
                      fresh.combined_parents == state.combined_parents &&
                      fresh.path_costs == state.path_costs;
    std::printf(
        "update %d (%lld changes): apply + update %.1f ms (%s), apply + compute %.1f ms%s\n", r,
        static_cast<long long>(changes), wall,
        stats.path == update_path_t::incremental ? "incremental" : "recompute", fresh_wall,
        same ? "" : ", ANSWERS DIFFER");
    best_fresh = std::min(best_fresh, fresh_wall);
    if (wall < best_update) {
      best_update = wall;
      best_stages.clear();
      for (const auto& s : session.samples()) {
        best_stages[std::string(s.depth, ' ') + s.name] += s.host_ms;
      }
    }
  }
  std::printf("best: apply + update %.1f ms, apply + compute %.1f ms (ratio %.3f)\n", best_update,
              best_fresh, best_update / best_fresh);
  for (const auto& [name, ms] : best_stages) std::printf("  %-40s %8.1f ms\n", name.c_str(), ms);
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
    std::printf("compute %d: wall %.1f ms, cpu %.1f ms, %ld page faults, %lld combined edges\n", r,
                wall, cpu, minor_faults() - f0, static_cast<long long>(stats.combined_edges));
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
  const int64_t changes = argc > 5 ? std::atoll(argv[5]) : 0;
  if (changes > 0) time_update(graph, options, exec, changes, repeats, stages);
  return 0;
}
