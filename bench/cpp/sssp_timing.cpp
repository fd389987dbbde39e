// Timing driver for tuning the SSSP kernels (built with the tests, not run by ctest):
//   sssp_timing [rmat_scale=18] [grid_side=512] [repeats=5] [threads=2] [repair_budget=-1]
//               [delta_sweep=0]
// Graphs follow bench/generators.py in shape (R-MAT a,b,c = .57,.19,.19 with self-loops dropped
// and duplicates merged; a 4-neighbour grid with both directions stored; weights uniform 1..100)
// but use their own random stream. Prints the best-of-`repeats` compute times of the sequential
// and OpenMP kernels, then update() against a fresh compute for 1k and 10k changes, uniform and
// local as in bench/changes.py. Each line checks update == compute before printing.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dyng/sssp/detail/dijkstra_sequential.hpp"
#include "dyng/sssp/detail/host_entry.hpp"
#include "dyng/sssp/sssp.hpp"

namespace {

using namespace dyng;
using graph32_t = graph_t<int32_t, int64_t>;

struct edges_t {
  std::string name;
  int32_t n = 0;
  int grid_side = 0;  // 0 for R-MAT
  std::vector<int32_t> src, dst, w;
};

double cpu_ms() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

edges_t rmat(int scale, uint64_t seed) {
  edges_t g;
  g.name = "rmat" + std::to_string(scale);
  g.n = int32_t{1} << scale;
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
  for (const int64_t k : keys) {
    g.src.push_back(static_cast<int32_t>(k >> scale));
    g.dst.push_back(static_cast<int32_t>(k & ((int64_t{1} << scale) - 1)));
    g.w.push_back(weight(rng));
  }
  return g;
}

edges_t grid(int side, uint64_t seed) {
  edges_t g;
  g.name = "grid" + std::to_string(side);
  g.n = side * side;
  g.grid_side = side;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int32_t> weight(1, 100);
  for (int r = 0; r < side; ++r) {
    for (int c = 0; c < side; ++c) {
      const int32_t v = r * side + c;
      const int32_t nbrs[4] = {r > 0 ? v - side : -1, c > 0 ? v - 1 : -1, c + 1 < side ? v + 1 : -1,
                               r + 1 < side ? v + side : -1};
      for (const int32_t x : nbrs) {
        if (x < 0) continue;
        g.src.push_back(v);
        g.dst.push_back(x);
        g.w.push_back(weight(rng));
      }
    }
  }
  return g;
}

graph32_t build(const edges_t& e) {
  graph_properties_t props;
  return graph32_t::from_edges(e.n, std::span<const int32_t>(e.src),
                               std::span<const int32_t>(e.dst), std::span<const int32_t>(e.w),
                               props);
}

struct batch_t {
  std::vector<int32_t> ins_src, ins_dst, ins_w, del_src, del_dst;
};

// Half insertions of absent pairs, half deletions of existing edges (bench/changes.py modes).
batch_t make_batch(const edges_t& e, const graph32_t& g, int count, bool local,
                   std::mt19937_64& rng) {
  batch_t b;
  const auto out = g.out_view();
  auto has_edge = [&](int32_t u, int32_t v) {
    for (int64_t s = out.begin(u); s < out.end(u); ++s)
      if (out.neighbour(s) == v) return true;
    return false;
  };
  std::uniform_int_distribution<int32_t> vertex(0, e.n - 1), weight(1, 100);
  std::vector<int32_t> region;
  if (local) {  // BFS region from a random vertex, at least `count` vertices
    std::vector<char> seen(static_cast<size_t>(e.n), 0);
    int32_t centre = vertex(rng);
    while (out.degree(centre) == 0) centre = vertex(rng);
    region.push_back(centre);
    seen[centre] = 1;
    for (size_t i = 0; i < region.size() && static_cast<int>(region.size()) < count; ++i) {
      for (int64_t s = out.begin(region[i]); s < out.end(region[i]); ++s) {
        const int32_t y = out.neighbour(s);
        if (!seen[y]) {
          seen[y] = 1;
          region.push_back(y);
        }
      }
    }
  }
  std::vector<int64_t> chosen;
  while (static_cast<int>(b.ins_src.size()) < count - count / 2) {
    int32_t u = vertex(rng), v = vertex(rng);
    if (local) {
      u = region[rng() % region.size()];
      if (e.grid_side > 0) {
        const int r = u / e.grid_side + static_cast<int>(rng() % 7) - 3;
        const int c = u % e.grid_side + static_cast<int>(rng() % 7) - 3;
        if (r < 0 || c < 0 || r >= e.grid_side || c >= e.grid_side) continue;
        v = r * e.grid_side + c;
      } else {
        int32_t mid = u;
        for (int hop = 0; hop < 2 && out.degree(mid) > 0; ++hop) {
          mid = out.neighbour(out.begin(mid) + static_cast<int64_t>(rng() % out.degree(mid)));
        }
        v = mid;
      }
    }
    const int64_t key = int64_t{u} * e.n + v;
    if (u == v || has_edge(u, v) || std::find(chosen.begin(), chosen.end(), key) != chosen.end())
      continue;
    chosen.push_back(key);
    b.ins_src.push_back(u);
    b.ins_dst.push_back(v);
    b.ins_w.push_back(weight(rng));
  }
  while (static_cast<int>(b.del_src.size()) < count / 2) {
    if (!local) {  // a uniformly random existing edge
      const size_t i = rng() % e.src.size();
      b.del_src.push_back(e.src[i]);
      b.del_dst.push_back(e.dst[i]);
      continue;
    }
    const int32_t u = region[rng() % region.size()];
    if (out.degree(u) == 0) continue;
    b.del_src.push_back(u);
    b.del_dst.push_back(out.neighbour(out.begin(u) + static_cast<int64_t>(rng() % out.degree(u))));
  }
  return b;
}

template <class fn_t>
double best_of(int repeats, fn_t&& fn) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const double t0 = now_ms();
    fn();
    best = std::min(best, now_ms() - t0);
  }
  return best;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void run(const edges_t& e, int repeats, int threads, double repair_budget, bool sweep) {
  const graph32_t g0 = build(e);
  const execution_t seq{backend_t::sequential, 1, 0};
  const execution_t omp{backend_t::openmp, threads, 0};
  sssp::options_t options;
  options.repair_budget = repair_budget;
  sssp::state_t<int32_t> state;
  std::printf("%s: n=%d m=%lld\n", e.name.c_str(), e.n, static_cast<long long>(g0.num_edges()));
  const double t_seq = best_of(repeats, [&] { sssp::compute(g0, 0, options, seq, state); });
  sssp::state_t<int32_t> par;
  const double t_omp = best_of(repeats, [&] { sssp::compute(g0, 0, options, omp, par); });
  const bool same = par.distances == state.distances && par.parents == state.parents;
  {  // Where the sequential compute spends its time (thread CPU time, robust to a loaded machine).
    namespace d = sssp::detail;
    const auto out = g0.out_view();
    const auto in = g0.in_view();
    std::vector<int64_t> dist(static_cast<size_t>(e.n));
    std::vector<int32_t> parents(static_cast<size_t>(e.n));
    double t_scan = 1e300, t_dial = 1e300, t_radix = 1e300, t_parents = 1e300;
    for (int r = 0; r < repeats; ++r) {
      double t0 = cpu_ms();
      d::weight_range_t<int32_t, int64_t> range;
      d::scan_weights(out, d::column_of(out, 0), 0, e.n, range);
      double t1 = cpu_ms();
      t_scan = std::min(t_scan, t1 - t0);
      d::search_counters_t c;
      std::fill(dist.begin(), dist.end(), sssp::k_infinite_distance);
      t0 = cpu_ms();
      d::dijkstra_dial(out, d::column_of(out, 0), 0, range.max_weight, dist.data(), c);
      t1 = cpu_ms();
      t_dial = std::min(t_dial, t1 - t0);
      std::fill(dist.begin(), dist.end(), sssp::k_infinite_distance);
      d::radix_heap_t<int32_t> heap;
      dist[0] = 0;
      heap.push(0, 0);
      t0 = cpu_ms();
      d::dijkstra_radix(
          out, d::column_of(out, 0), heap, dist.data(), INT64_MAX, [](int32_t, int64_t) {}, c);
      t1 = cpu_ms();
      t_radix = std::min(t_radix, t1 - t0);
      t0 = cpu_ms();
      d::canonical_parents_sequential(in, d::column_of(in, 0), dist.data(), 0, true,
                                      parents.data());
      t1 = cpu_ms();
      t_parents = std::min(t_parents, t1 - t0);
    }
    std::printf("  cpu ms: weight scan %.1f, dial %.1f, radix %.1f, parents %.1f\n", t_scan, t_dial,
                t_radix, t_parents);
  }
  for (const int64_t delta :
       sweep ? std::vector<int64_t>{0, 1, 2, 4, 8, 25, 56, 100, 200} : std::vector<int64_t>{}) {
    namespace d = sssp::detail;
    d::search_counters_t c;
    std::vector<int64_t> dist;
    std::vector<int32_t> parents;
    const double t = best_of(repeats, [&] {
      c = {};
      d::weight_range_t<int32_t, int64_t> range;
      d::compute_openmp(g0.out_view(), g0.in_view(), true, 0, int32_t{0}, delta, threads, dist,
                        parents, range, c);
    });
    std::printf("  delta %5lld: openmp %.1f ms, phases %lld, relaxations %.2f m\n",
                static_cast<long long>(delta), t, static_cast<long long>(c.buckets),
                static_cast<double>(c.relaxations) / static_cast<double>(g0.num_edges()));
  }
  std::printf("  compute: sequential %.1f ms, openmp(%d) %.1f ms (%.2fx)%s\n", t_seq, threads,
              t_omp, t_seq / t_omp, same ? "" : "  MISMATCH");
  {  // What update() adds around a recompute: the same graph, an empty batch, budget 0.
    change_log_t<int32_t> log;
    log.num_vertices_before = log.num_vertices_after = e.n;
    sssp::options_t forced = options;
    forced.repair_budget = 0.0;
    for (const bool parallel : {false, true}) {
      const execution_t& exec = parallel ? omp : seq;
      sssp::state_t<int32_t> s = state;
      const double tu = best_of(repeats, [&] { sssp::update(g0, log, forced, exec, s); });
      const double tc = best_of(repeats, [&] { sssp::compute(g0, 0, options, exec, s); });
      std::printf("  update(budget 0) %.1f ms vs compute %.1f ms (%s)\n", tu, tc,
                  parallel ? "openmp" : "sequential");
    }
  }
  for (const int count : {1000, 10000}) {
    for (const bool local : {false, true}) {
      std::mt19937_64 rng(static_cast<uint64_t>(count) * 7 + (local ? 1 : 0));
      for (const bool parallel : {false, true}) {
        const execution_t& exec = parallel ? omp : seq;
        std::vector<double> update_ms, recompute_ms;
        sssp::stats_t stats;
        int incremental = 0;
        bool ok = true;
        for (int r = 0; r < repeats; ++r) {
          graph32_t g = g0;
          sssp::state_t<int32_t> s = state;
          const batch_t b = make_batch(e, g, count, local, rng);
          edge_batch_t<int32_t> batch{b.ins_src, b.ins_dst, b.ins_w, 1, b.del_src, b.del_dst};
          change_log_t<int32_t> log;
          g.apply(batch, &log);
          const double t0 = now_ms();
          stats = sssp::update(g, log, options, exec, s);
          update_ms.push_back(now_ms() - t0);
          incremental += stats.path == dyng::update_path_t::incremental ? 1 : 0;
          // The recompute runs on its own copy, also right after copy + apply, so that neither
          // side finds the other's data warm in the cache (as bench/sssp.py does).
          graph32_t g2 = g0;
          g2.apply(batch);
          sssp::state_t<int32_t> fresh;
          recompute_ms.push_back(best_of(1, [&] { sssp::compute(g2, 0, options, exec, fresh); }));
          ok = ok && fresh.distances == s.distances && fresh.parents == s.parents;
        }
        const double u = median(update_ms), rc = median(recompute_ms);
        std::printf(
            "  %5d %-7s %-10s update %6.2f ms  recompute %6.1f ms  ratio %.2f  "
            "incremental %d/%d (last: invalidated %lld, work %.3f m)%s\n",
            count, local ? "local" : "uniform", parallel ? "openmp" : "sequential", u, rc, u / rc,
            incremental, repeats, static_cast<long long>(stats.invalidated),
            static_cast<double>(stats.frontier_visits) / static_cast<double>(g0.num_edges()),
            ok ? "" : "  MISMATCH");
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int scale = argc > 1 ? std::atoi(argv[1]) : 18;
  const int side = argc > 2 ? std::atoi(argv[2]) : 512;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 2;
  const double repair_budget = argc > 5 ? std::atof(argv[5]) : -1.0;
  const bool sweep = argc > 6 && std::atoi(argv[6]) != 0;
  if (scale > 0) run(rmat(scale, 1), repeats, threads, repair_budget, sweep);
  if (side > 0) run(grid(side, 1), repeats, threads, repair_budget, sweep);
  return 0;
}
