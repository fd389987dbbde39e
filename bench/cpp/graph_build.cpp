// Times Graph.from_edges() on an edge list read from a raw file (int32 src, dst and weights
// arrays, each num_edges long, back to back), as the Python benchmarks dump it.
//
// Usage: dyng_bench_graph_build FILE num_vertices [repeats [BATCH_FILE...]]
// Prints the median CPU and wall time of from_edges (directed, in-edges, K = 1, sorted rows),
// then for each batch file (int32: insertions, deletions, then insert src, dst, weights, delete
// src, dst) the median CPU time of apply() on a fresh copy of the graph.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <time.h>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace {

/// CPU time of this process in ms (the development machine is shared; see graph_apply.cpp).
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}

std::vector<int32_t> read_ints(const char* path) {
  std::vector<int32_t> all;
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return all;
  std::fseek(f, 0, SEEK_END);
  const long bytes = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  all.resize(static_cast<size_t>(bytes) / sizeof(int32_t));
  if (std::fread(all.data(), sizeof(int32_t), all.size(), f) != all.size()) all.clear();
  std::fclose(f);
  return all;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s FILE num_vertices [repeats]\n", argv[0]);
    return 2;
  }
  const std::vector<int32_t> all = read_ints(argv[1]);
  if (all.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  const size_t m = all.size() / 3;
  const auto n = static_cast<int32_t>(std::atol(argv[2]));
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
  std::span<const int32_t> src(all.data(), m), dst(all.data() + m, m), w(all.data() + 2 * m, m);

  std::vector<double> cpu, wall;
  dyng::graph_properties_t props;
  for (int r = 0; r < repeats; ++r) {
    const double c0 = cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    auto g = dyng::graph_t<int32_t, int64_t>::from_edges(n, src, dst, w, props);
    wall.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    cpu.push_back(cpu_ms() - c0);
    if (r == 0) std::printf("stored edges: %lld\n", static_cast<long long>(g.num_edges()));
  }
  std::printf("from_edges: median cpu %.1f ms, wall %.1f ms over %d runs\n", median(cpu),
              median(wall), repeats);

  const auto g = dyng::graph_t<int32_t, int64_t>::from_edges(n, src, dst, w, props);
  for (int a = 4; a < argc; ++a) {
    const std::vector<int32_t> b = read_ints(argv[a]);
    if (b.size() < 2) {
      std::fprintf(stderr, "cannot read %s\n", argv[a]);
      return 1;
    }
    const size_t ni = static_cast<size_t>(b[0]), nd = static_cast<size_t>(b[1]);
    const int32_t* p = b.data() + 2;
    dyng::edge_batch_t<int32_t> batch;
    batch.insert_src = {p, ni};
    batch.insert_dst = {p + ni, ni};
    batch.insert_weights = {p + 2 * ni, ni};
    batch.num_weights = 1;
    batch.delete_src = {p + 3 * ni, nd};
    batch.delete_dst = {p + 3 * ni + nd, nd};
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r) {
      auto copy = g;
      const double c0 = cpu_ms();
      copy.apply(batch);
      times.push_back(cpu_ms() - c0);
    }
    const double t = median(times);
    std::printf("%s: %zu changes, apply median cpu %.3f ms (%.2f us/change)\n", argv[a], ni + nd, t,
                1e3 * t / static_cast<double>(ni + nd));
  }
  return 0;
}
