// Measures Graph.apply() on a large random graph against rebuilding the graph from an edge list,
// to show that a small batch costs O(batch * degree), not O(m).
//
// Usage: dyng_bench_graph_apply [num_vertices [num_edges [repeats]]]
// Defaults: 1M vertices, 16M directed edges (with in-edges, K = 1, sorted rows), 5 repeats.
// Each batch mixes insertions of random edges and deletions of existing edges half and half.
// Also shows, for large batches, the in-place write path against the compact rebuild path that
// apply() switches to (detail/apply_tuning.hpp), which is how that threshold was chosen.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <time.h>
#include <utility>
#include <vector>

#include "dyng/graph/detail/apply_tuning.hpp"
#include "dyng/graph/graph.hpp"

namespace {

using graph32_t = dyng::graph_t<int32_t, int64_t>;
using clock_type = std::chrono::steady_clock;

/// CPU time of this process in ms. The development machine is shared, so wall time mostly
/// measures the neighbours; the code is single-threaded, so CPU time is what it costs.
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}

/// Runs f and returns {cpu ms, wall ms}.
template <class F>
std::pair<double, double> timed(F&& f) {
  const double c0 = cpu_ms();
  const auto t0 = clock_type::now();
  f();
  const double wall = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
  return {cpu_ms() - c0, wall};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct owned_batch_t {
  std::vector<int32_t> is, id, iw, ds, dd;
  dyng::edge_batch_t<int32_t> view() const {
    dyng::edge_batch_t<int32_t> b;
    b.insert_src = is;
    b.insert_dst = id;
    b.insert_weights = iw;
    b.num_weights = 1;
    b.delete_src = ds;
    b.delete_dst = dd;
    return b;
  }
};

owned_batch_t random_batch(const graph32_t& g, int64_t count, std::mt19937_64& rng) {
  owned_batch_t b;
  const int64_t n = g.num_vertices();
  const auto out = g.out_view();
  for (int64_t i = 0; i < count; ++i) {
    const auto u = static_cast<int32_t>(rng() % n);
    if (i % 2 == 0 || out.degree(u) == 0) {
      b.is.push_back(u);
      b.id.push_back(static_cast<int32_t>(rng() % n));
      b.iw.push_back(static_cast<int32_t>(rng() % 1000 + 1));
    } else {
      b.ds.push_back(u);
      b.dd.push_back(out.neighbour(out.begin(u) + static_cast<int64_t>(rng() % out.degree(u))));
    }
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
  const int64_t m = argc > 2 ? std::atoll(argv[2]) : 16'000'000;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 5;

  std::mt19937_64 rng(42);
  std::vector<int32_t> src(m), dst(m), w(m);
  for (int64_t i = 0; i < m; ++i) {
    src[i] = static_cast<int32_t>(rng() % n);
    dst[i] = static_cast<int32_t>(rng() % n);
    w[i] = static_cast<int32_t>(rng() % 1000 + 1);
  }
  dyng::graph_properties_t props;  // directed, in-edges, K = 1, sorted, headroom 0.125

  std::vector<double> rebuild_ms, rebuild_wall;
  graph32_t g;
  for (int r = 0; r < std::max(1, repeats / 2); ++r) {
    const auto [c, t] =
        timed([&] { g = graph32_t::from_edges(static_cast<int32_t>(n), src, dst, w, props); });
    rebuild_ms.push_back(c);
    rebuild_wall.push_back(t);
  }
  const double rebuild = median(rebuild_ms);
  std::printf(
      "graph: %lld vertices, %lld edges (directed, in-edges, K=1, sorted), %lld slots/dir\n",
      static_cast<long long>(n), static_cast<long long>(g.num_edges()),
      static_cast<long long>(g.slot_capacity()));
  std::printf(
      "full rebuild from the edge list (from_edges): %.1f ms CPU, %.1f ms wall (median of %zu)\n\n",
      rebuild, median(rebuild_wall), rebuild_ms.size());
  std::printf("%10s %12s %12s %12s %12s %10s\n", "changes", "apply ms", "wall ms", "us/change",
              "vs rebuild", "relayouts");

  for (int64_t count : {1, 10, 100, 1000, 10000, 100000}) {
    std::vector<double> times, walls;
    const int64_t relayouts_before = g.relayout_count();
    for (int r = 0; r < repeats; ++r) {
      const auto batch = random_batch(g, count, rng);
      const auto [c, t] = timed([&] { g.apply(batch.view()); });
      times.push_back(c);
      walls.push_back(t);
    }
    const double t = median(times);
    std::printf("%10lld %12.3f %12.3f %12.3f %11.0fx %10lld\n", static_cast<long long>(count), t,
                median(walls), 1000.0 * t / static_cast<double>(count), rebuild / t,
                static_cast<long long>(g.relayout_count() - relayouts_before));
  }

  // Large batches: in-place edits versus the compact rebuild of each direction.
  std::printf("\nlarge batches, write path forced (fresh graph each time):\n");
  std::printf("%10s %14s %14s   (CPU ms)\n", "changes", "in-place", "rebuild");
  auto& tuning = dyng::detail::apply_tuning();
  const auto saved = tuning;
  for (int64_t count : {m / 100, m / 10, m / 4, m / 2}) {
    double t[2];
    for (int path = 0; path < 2; ++path) {
      tuning.rebuild_min_ops = path == 0 ? INT64_MAX : 0;
      tuning.rebuild_fraction = path == 0 ? 1e300 : 0.0;
      g = graph32_t::from_edges(static_cast<int32_t>(n), src, dst, w, props);
      std::mt19937_64 batch_rng(7);
      const auto batch = random_batch(g, count, batch_rng);
      t[path] = timed([&] { g.apply(batch.view()); }).first;
    }
    std::printf("%10lld %14.1f %14.1f\n", static_cast<long long>(count), t[0], t[1]);
  }
  tuning = saved;
  return 0;
}
