// dyng::sssp::cuda::compute against the serial oracle (detail::reference_dijkstra_view) on small
// graphs that exercise each path of the kernels: ties between parents, unreachable vertices,
// rows longer than one work item (continuation chunks), in-rows long enough for the block-wide
// parent scan, long thin paths (many rounds and buckets), vertices without out-edges, every group
// size, and bucket widths from 1 to effectively infinite; for all three id/offset type pairs.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/sssp/detail/cuda_views.hpp"
#include "dyng/sssp/detail/reference_dijkstra.hpp"
#include "gpu_test_util.hpp"

using dyng_test::edges_t;

namespace {

edges_t diamond() {
  edges_t g;
  g.n = 7;
  g.add(0, 2, {1});
  g.add(0, 1, {1});
  g.add(2, 3, {1});
  g.add(1, 3, {1});
  g.add(3, 4, {5});
  g.add(4, 4, {1});  // self-loop: never a parent
  g.add(4, 0, {1});  // back to the source: the source keeps parent -1
  g.add(6, 5, {1});  // 5 and 6 unreachable
  return g;
}

edges_t random_graph(int64_t n, int64_t m, int k, uint32_t seed, int max_weight) {
  std::mt19937_64 rng(seed);
  edges_t g;
  g.n = n;
  g.num_weights = k;
  for (int64_t i = 0; i < m; ++i) {
    std::vector<int32_t> w(k);
    for (auto& x : w) x = 1 + static_cast<int32_t>(rng() % max_weight);
    g.add(static_cast<int64_t>(rng() % n), static_cast<int64_t>(rng() % n), w);
  }
  return g;
}

/// An out-hub and an in-hub far above the chunk and heavy-row thresholds, plus a cheap path.
edges_t hubs(int64_t n) {
  edges_t g;
  g.n = n;
  for (int64_t v = 1; v < n; ++v) g.add(0, v, {1000 + static_cast<int32_t>(v % 7)});
  for (int64_t v = 1; v + 1 < n; v += 2) g.add(v, v + 1, {1});
  for (int64_t v = 0; v < n; ++v) {
    if (v != 7) g.add(v, 7, {static_cast<int32_t>(1 + v % 5)});
  }
  return g;
}

edges_t grid(int64_t side, uint32_t seed) {
  std::mt19937 rng(seed);
  edges_t g;
  g.n = side * side;
  for (int64_t r = 0; r < side; ++r) {
    for (int64_t c = 0; c < side; ++c) {
      const int64_t v = r * side + c;
      if (c + 1 < side) g.add(v, v + 1, {1 + static_cast<int32_t>(rng() % 100)});
      if (c > 0) g.add(v, v - 1, {1 + static_cast<int32_t>(rng() % 100)});
      if (r + 1 < side) g.add(v, v + side, {1 + static_cast<int32_t>(rng() % 100)});
      if (r > 0) g.add(v, v - side, {1 + static_cast<int32_t>(rng() % 100)});
    }
  }
  return g;
}

edges_t path(int64_t n) {
  edges_t g;
  g.n = n;
  for (int64_t v = 0; v + 1 < n; ++v) g.add(v, v + 1, {1 + static_cast<int32_t>(v % 3)});
  return g;
}

struct variant_t {
  int group_size;
  int64_t delta;
  int blocks_per_sm;
};

std::vector<variant_t> variants() {
  std::vector<variant_t> all;
  for (int group : {0, 4, 8, 16, 32}) {
    for (int64_t delta : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{100}, int64_t{1} << 40}) {
      for (int blocks : {0, 1}) all.push_back({group, delta, blocks});
    }
  }
  return all;
}

template <class vid_t, class eid_t>
void check_graph(const std::string& name, const edges_t& g, vid_t source, int objective) {
  const auto out = dyng_test::build_direction<vid_t, eid_t>(g, false, 11);
  const auto in = dyng_test::build_direction<vid_t, eid_t>(g, true, 12);
  const auto want = dyng::sssp::detail::reference_dijkstra_view(out.view(), source, objective);
  const dyng_test::device_direction_t<vid_t, eid_t> d_out(out), d_in(in);
  dyng::cuda::device_buffer<int64_t> dist(g.n);
  dyng::cuda::device_buffer<vid_t> parents(g.n);
  std::vector<int64_t> got_dist(g.n);
  std::vector<vid_t> got_parents(g.n);
  for (const variant_t& v : variants()) {
    dist.fill_bytes(0x5A);
    parents.fill_bytes(0x5A);
    dyng::sssp::stats_t stats;
    dyng::sssp::cuda::tuning_t tuning{v.group_size, v.blocks_per_sm};
    dyng::sssp::cuda::compute<vid_t, eid_t>(d_out.view, d_in.view, source, objective, v.delta,
                                            nullptr, dist.data(), parents.data(), stats, tuning);
    dist.copy_to_host(got_dist.data(), got_dist.size());
    parents.copy_to_host(got_parents.data(), got_parents.size());
    const bool ok = got_dist == want.distances && got_parents == want.parents;
    if (!ok) {
      std::fprintf(stderr, "  %s: group %d delta %lld bps %d differs from the oracle\n",
                   name.c_str(), v.group_size, static_cast<long long>(v.delta), v.blocks_per_sm);
    }
    CHECK(ok);
    CHECK(stats.converged);
    CHECK(stats.frontier_visits > 0 || g.src.empty());
  }
}

template <class vid_t, class eid_t>
void check_all_graphs() {
  check_graph<vid_t, eid_t>("diamond", diamond(), 0, 0);
  check_graph<vid_t, eid_t>("diamond from 4", diamond(), 4, 0);
  check_graph<vid_t, eid_t>("random K=3", random_graph(2000, 16000, 3, 5, 100), 3, 1);
  check_graph<vid_t, eid_t>("random unit weights", random_graph(3000, 9000, 1, 6, 1), 0, 0);
  check_graph<vid_t, eid_t>("hubs", hubs(5000), 0, 0);
  check_graph<vid_t, eid_t>("grid", grid(40, 7), 0, 0);
  check_graph<vid_t, eid_t>("path", path(3000), 0, 0);
}

}  // namespace

DYNG_TEST("compute matches the oracle, int32 ids and offsets") {
  check_all_graphs<int32_t, int32_t>();
}
DYNG_TEST("compute matches the oracle, int32 ids, int64 offsets") {
  check_all_graphs<int32_t, int64_t>();
}
DYNG_TEST("compute matches the oracle, int64 ids and offsets") {
  check_all_graphs<int64_t, int64_t>();
}

DYNG_TEST("canonical_parents follows the CPU rule for caller-supplied distances") {
  // Distances from the oracle, then disturbed so that some rows (the in-hub 7 among them, a
  // wide row split into pieces) have no tight in-neighbour and others gain ties.
  const edges_t g = hubs(3000);
  const auto out = dyng_test::build_direction<int32_t, int64_t>(g, false, 3);
  const auto in = dyng_test::build_direction<int32_t, int64_t>(g, true, 4);
  auto dist = dyng::sssp::detail::reference_dijkstra_view(out.view(), 0, 0).distances;
  for (size_t v = 5; v < dist.size(); v += 5) dist[v] += 1;
  dist[7] -= 1;  // below every dist[u] + w(u, 7): no tight in-neighbour left
  // The rule, written out from sssp.hpp: lowest-id in-neighbour u != v with
  // dist[u] + w == dist[v]; -1 for the source, unreachable vertices and rows with none.
  std::vector<int32_t> want(g.n, -1);
  for (size_t i = 0; i < g.src.size(); ++i) {
    const int64_t u = g.src[i];
    const int64_t v = g.dst[i];
    if (u == v || v == 0 || dist[v] == dyng::sssp::k_infinite_distance) continue;
    if (dist[u] + g.weights[i] == dist[v] && (want[v] < 0 || u < want[v])) {
      want[v] = static_cast<int32_t>(u);
    }
  }
  const dyng_test::device_direction_t<int32_t, int64_t> d_in(in);
  dyng::cuda::device_buffer<int64_t> d_dist(g.n);
  dyng::cuda::device_buffer<int32_t> parents(g.n);
  d_dist.copy_from_host(dist.data(), dist.size());
  parents.fill_bytes(0x5A);
  dyng::sssp::cuda::canonical_parents<int32_t, int64_t>(d_in.view, 0, 0, d_dist.data(), nullptr,
                                                        parents.data());
  std::vector<int32_t> got(g.n);
  parents.copy_to_host(got.data(), got.size());
  CHECK(got == want);
  CHECK_EQ(got[7], -1);
}

DYNG_TEST("compute rejects a bad source, objective or unweighted graph") {
  const edges_t g = diamond();
  const auto out = dyng_test::build_direction<int32_t, int32_t>(g, false, 1);
  const auto in = dyng_test::build_direction<int32_t, int32_t>(g, true, 2);
  const dyng_test::device_direction_t<int32_t, int32_t> d_out(out), d_in(in);
  dyng::cuda::device_buffer<int64_t> dist(g.n);
  dyng::cuda::device_buffer<int32_t> parents(g.n);
  dyng::sssp::stats_t stats;
  auto run = [&](int32_t source, int objective, dyng::adjacency_view_t<int32_t, int32_t> o) {
    dyng::sssp::cuda::compute<int32_t, int32_t>(o, d_in.view, source, objective, 0, nullptr,
                                                dist.data(), parents.data(), stats);
  };
  CHECK_THROWS_AS(run(7, 0, d_out.view), dyng::invalid_argument_error);
  CHECK_THROWS_AS(run(-1, 0, d_out.view), dyng::invalid_argument_error);
  CHECK_THROWS_AS(run(0, 1, d_out.view), dyng::invalid_argument_error);
  auto unweighted = d_out.view;
  unweighted.num_weights = 0;
  CHECK_THROWS_AS(run(0, 0, unweighted), dyng::not_supported_error);
}

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
