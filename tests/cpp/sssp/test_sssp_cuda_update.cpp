// dyng::sssp::cuda::update against a fresh GPU compute and the CPU oracle (reference_dijkstra),
// bit for bit in distances and parents, over random adversarial batches applied with
// graph_t::apply: tree-edge deletions (the source's own edges too), reweights up and down,
// insertions that shorten paths, vertex growth, parallel edges, undirected graphs; plus graphs
// with deep trees (many pointer-jumping passes), long rows (seeding and merge pieces) and
// batches that disconnect. Every budget path: default, 0 (always recompute), huge (always
// incremental). `affected` and `invalidated` are checked against counts made on the host.
// Each variant runs on a fresh copy of the state (whose repair memory update() must build), and
// three kept states take the batches one after another, as a result does between updates
// (repair memory kept clean, mirrored, grown; a fallback or a failure in between).
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/sssp/detail/cuda_views.hpp"
#include "dyng/sssp/sssp.hpp"
#include "gpu_test_util.hpp"
#include "random_graph_case.hpp"

namespace {

using namespace dyng;
using dyng::cuda::device_buffer;

template <class vid_t, class eid_t>
struct device_graph_t {
  dyng_test::uploaded_view_t<vid_t, eid_t> out;
  dyng_test::uploaded_view_t<vid_t, eid_t> in;
  explicit device_graph_t(const graph_t<vid_t, eid_t>& g) : out(g.out_view()), in(g.in_view()) {}
};

/// A result in device memory (what update() repairs) and its host copy.
template <class vid_t>
struct device_result_t {
  sssp::cuda::device_state_t<vid_t> state;
  device_buffer<int64_t>& dist = state.distances;
  device_buffer<vid_t>& parents = state.parents;

  explicit device_result_t(const sssp::state_t<vid_t>& host) {
    state.source = host.source;
    state.num_vertices = static_cast<int64_t>(host.distances.size());
    state.distances = device_buffer<int64_t>(std::max<size_t>(1, host.distances.size()));
    state.parents = device_buffer<vid_t>(std::max<size_t>(1, host.parents.size()));
    dist.copy_from_host(host.distances.data(), host.distances.size());
    parents.copy_from_host(host.parents.data(), host.parents.size());
  }

  sssp::state_t<vid_t> download(vid_t source, size_t n) const {
    sssp::state_t<vid_t> host;
    host.source = source;
    host.distances.resize(n);
    host.parents.resize(n);
    state.distances.copy_to_host(host.distances.data(), n);
    state.parents.copy_to_host(host.parents.data(), n);
    return host;
  }
};

template <class vid_t, class eid_t>
sssp::state_t<vid_t> gpu_compute(const device_graph_t<vid_t, eid_t>& d, vid_t source,
                                 int objective) {
  const size_t n = static_cast<size_t>(d.out.view.num_vertices);
  sssp::state_t<vid_t> poison;
  poison.distances.assign(n, 77);
  poison.parents.assign(n, 5);
  device_result_t<vid_t> r(poison);
  sssp::stats_t stats;
  sssp::cuda::compute<vid_t, eid_t>(d.out.view, d.in.view, source, objective, 0, nullptr,
                                    r.dist.data(), r.parents.data(), stats);
  return r.download(source, n);
}

template <class vid_t>
bool same(const sssp::state_t<vid_t>& a, const sssp::state_t<vid_t>& b) {
  return a.distances == b.distances && a.parents == b.parents;
}

/// The state grown to `n` vertices as the caller of update() grows it.
template <class vid_t>
sssp::state_t<vid_t> grown(sssp::state_t<vid_t> state, size_t n) {
  state.distances.resize(n, sssp::k_infinite_distance);
  state.parents.resize(n, vid_t{-1});
  return state;
}

/// Vertices whose old tree path uses a deleted or reweighted tree edge: what update() cuts.
template <class vid_t>
int64_t expected_invalidated(const sssp::state_t<vid_t>& old, const change_log_t<vid_t>& log) {
  const size_t n = old.distances.size();
  std::vector<char> root(n, 0);
  for (const auto& c : log.changes) {
    const auto v = static_cast<size_t>(c.dst);
    if (c.kind != edge_change_kind_t::inserted && old.parents[v] == c.src &&
        old.distances[v] != sssp::k_infinite_distance) {
      root[v] = 1;
    }
  }
  int64_t count = 0;
  for (size_t v = 0; v < n; ++v) {
    for (vid_t x = static_cast<vid_t>(v); x >= 0; x = old.parents[static_cast<size_t>(x)]) {
      if (root[static_cast<size_t>(x)]) {
        ++count;
        break;
      }
    }
  }
  return count;
}

template <class vid_t>
int64_t count_differences(const sssp::state_t<vid_t>& a, const sssp::state_t<vid_t>& b) {
  int64_t count = 0;
  for (size_t v = 0; v < a.distances.size(); ++v) {
    count += a.distances[v] != b.distances[v] || a.parents[v] != b.parents[v] ? 1 : 0;
  }
  return count;
}

struct variant_t {
  double budget;
  int64_t delta;
  sssp::cuda::tuning_t tuning;
};

std::vector<variant_t> variants() {
  return {
      {-1.0, 0, {}},         // defaults
      {0.0, 0, {}},          // always recompute
      {1e9, 0, {}},          // always incremental, one bucket
      {1e9, 1, {4, 1, 0}},   // delta 1: a bucket per distance, seeds filtered over epochs
      {1e9, 0, {32, 0, 7}},  // repair buckets of 7, widest groups
      {1e9, 0, {8, 0, 0}},
  };
}

/// Runs every variant of update() from `before` (valid for the graph before the batch) and
/// checks each against `fresh` (GPU compute) and `oracle` (CPU). Returns the default variant's
/// result. `paths` counts incremental and recompute outcomes.
/// Results that take every batch in turn: budget -1 (default), 1e9 (always incremental) and
/// one that alternates with budget 0 (a fallback between incremental repairs).
template <class vid_t>
struct kept_results_t {
  std::vector<std::unique_ptr<device_result_t<vid_t>>> results;
  int batches = 0;
  explicit kept_results_t(const sssp::state_t<vid_t>& start) {
    for (int i = 0; i < 3; ++i) results.push_back(std::make_unique<device_result_t<vid_t>>(start));
  }
};

template <class vid_t, class eid_t>
sssp::state_t<vid_t> check_updates(const std::string& name, const graph_t<vid_t, eid_t>& g,
                                   const change_log_t<vid_t>& log,
                                   const sssp::state_t<vid_t>& before, int objective, int paths[2],
                                   kept_results_t<vid_t>* kept = nullptr) {
  const device_graph_t<vid_t, eid_t> d(g);
  const size_t n = static_cast<size_t>(g.num_vertices());
  const vid_t source = before.source;
  const sssp::state_t<vid_t> oracle = sssp::reference_dijkstra(g, source, objective);
  const sssp::state_t<vid_t> fresh = gpu_compute(d, source, objective);
  CHECK(same(fresh, oracle));
  const sssp::state_t<vid_t> start = grown(before, n);
  const int64_t affected = count_differences(start, oracle);
  const int64_t invalidated = expected_invalidated(start, log);
  sssp::state_t<vid_t> result;
  bool first = true;
  for (const variant_t& v : variants()) {
    device_result_t<vid_t> r(before);  // update() grows it to the graph's size
    sssp::stats_t stats;
    sssp::cuda::update<vid_t, eid_t>(d.out.view, d.in.view, log, objective, v.delta, v.budget,
                                     nullptr, r.state, stats, v.tuning);
    CHECK_EQ(r.state.num_vertices, static_cast<int64_t>(n));
    const sssp::state_t<vid_t> got = r.download(source, n);
    const bool ok = same(got, oracle);
    if (!ok) {
      std::fprintf(stderr,
                   "  %s: budget %g delta %lld group %d repair delta %lld: %lld vertices "
                   "differ from the oracle (path %s)\n",
                   name.c_str(), v.budget, static_cast<long long>(v.delta), v.tuning.group_size,
                   static_cast<long long>(v.tuning.repair_delta),
                   static_cast<long long>(count_differences(got, oracle)),
                   stats.path == dyng::update_path_t::incremental ? "incremental" : "recompute");
    }
    CHECK(ok);
    CHECK_EQ(stats.affected, affected);
    CHECK(stats.path != dyng::update_path_t::compute);
    CHECK_EQ(stats.fallback_used, stats.path == dyng::update_path_t::recompute);
    if (v.budget == 0.0) CHECK(stats.path == dyng::update_path_t::recompute);
    if (v.budget >= 1e9) {
      CHECK(stats.path == dyng::update_path_t::incremental);
      CHECK_EQ(stats.invalidated, invalidated);
    }
    ++paths[stats.path == dyng::update_path_t::incremental ? 0 : 1];
    if (first) result = got;
    first = false;
  }
  if (kept != nullptr) {
    const int batch = kept->batches++;
    for (size_t i = 0; i < kept->results.size(); ++i) {
      device_result_t<vid_t>& r = *kept->results[i];
      // Kept up to date so far.
      CHECK(same(r.download(source, static_cast<size_t>(r.state.num_vertices)), before));
      const double budget = i == 0 ? -1.0 : i == 1 || batch % 3 != 1 ? 1e9 : 0.0;
      sssp::stats_t stats;
      sssp::cuda::update<vid_t, eid_t>(d.out.view, d.in.view, log, objective, 0, budget, nullptr,
                                       r.state, stats);
      const bool ok = same(r.download(source, n), oracle);
      if (!ok) {
        std::fprintf(stderr,
                     "  %s: kept result %zu, batch %d (budget %g): %lld vertices differ "
                     "from the oracle\n",
                     name.c_str(), i, batch, budget,
                     static_cast<long long>(count_differences(r.download(source, n), oracle)));
      }
      CHECK(ok);
      CHECK_EQ(stats.affected, affected);
      if (budget >= 1e9) {
        CHECK(stats.path == dyng::update_path_t::incremental);
        CHECK_EQ(stats.invalidated, invalidated);
      }
    }
  }
  return result;
}

/// Random graphs and batches in the style of sssp_graph_test's, aimed at the repair's cases.
template <class vid_t, class eid_t>
void random_rounds(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int paths[2] = {0, 0};
  for (int trial = 0; trial < trials; ++trial) {
    auto rc = dyng_test::random_graph_case<vid_t>(rng, 60);
    const graph_properties_t& props = rc.props;
    const int k = props.num_weights;
    auto& weight = rc.weight;
    vid_t n = rc.n;
    auto g = graph_t<vid_t, eid_t>::from_edges(n, rc.src, rc.dst, rc.weights, props);
    const int objective = static_cast<int>(rng() % static_cast<uint64_t>(k));
    const vid_t source = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
    sssp::state_t<vid_t> state = gpu_compute(device_graph_t<vid_t, eid_t>(g), source, objective);
    CHECK(same(state, sssp::reference_dijkstra(g, source, objective)));
    kept_results_t<vid_t> kept(state);

    for (int round = 0; round < 6; ++round) {
      std::vector<vid_t> is, id, ds, dd;
      std::vector<int32_t> iw;
      auto insert = [&](vid_t u, vid_t v, bool light) {
        is.push_back(u);
        id.push_back(v);
        for (int c = 0; c < k; ++c) iw.push_back(light ? 1 : weight(rng));
      };
      const int inserts = static_cast<int>(rng() % 6);
      for (int i = 0; i < inserts; ++i) {
        // Occasionally a brand-new vertex id (vertex growth).
        const vid_t limit = static_cast<vid_t>(n + (rng() % 4 == 0 ? 2 : 0));
        insert(static_cast<vid_t>(rng() % static_cast<uint64_t>(limit)),
               static_cast<vid_t>(rng() % static_cast<uint64_t>(limit)), rng() % 3 == 0);
      }
      // Reweights of tree edges, up or down (an existing edge inserted again is an upsert; with
      // parallel edges allowed it adds a parallel slot instead).
      for (int i = static_cast<int>(rng() % 3); i > 0; --i) {
        const vid_t v = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
        const vid_t p = state.parents[static_cast<size_t>(v)];
        if (p >= 0) insert(p, v, rng() % 2 == 0);
      }
      // A shortcut from the source.
      if (rng() % 3 == 0)
        insert(source, static_cast<vid_t>(rng() % static_cast<uint64_t>(n)), true);
      // Deletions favour tree edges and the source's edges, which is where the repair works.
      const int deletes = static_cast<int>(rng() % 8);
      for (int i = 0; i < deletes; ++i) {
        const vid_t v = static_cast<vid_t>(rng() % static_cast<uint64_t>(n));
        const vid_t p = state.parents[static_cast<size_t>(v)];
        const uint64_t pick = rng() % 4;
        ds.push_back(pick == 0             ? source
                     : p >= 0 && pick != 1 ? p
                                           : static_cast<vid_t>(rng() % static_cast<uint64_t>(n)));
        dd.push_back(v);
      }
      edge_batch_t<vid_t> batch{is, id, iw, k, ds, dd};
      change_log_t<vid_t> log;
      g.apply(batch, &log);
      n = g.num_vertices();
      state = check_updates("random trial " + std::to_string(trial), g, log, state, objective,
                            paths, &kept);
    }
  }
  CHECK(paths[0] > 0);
  CHECK(paths[1] > 0);
}

/// Builds g from an edge list with weights in column 0 (K = 1), sorted rows, in-edges.
template <class vid_t, class eid_t>
graph_t<vid_t, eid_t> build(vid_t n, const std::vector<vid_t>& src, const std::vector<vid_t>& dst,
                            const std::vector<int32_t>& w, bool directed = true) {
  graph_properties_t props;
  props.directed = directed;
  return graph_t<vid_t, eid_t>::from_edges(n, src, dst, w, props);
}

/// Applies `batch` and checks every update variant from `state`; returns the new state.
template <class vid_t, class eid_t>
sssp::state_t<vid_t> apply_and_check(const std::string& name, graph_t<vid_t, eid_t>& g,
                                     const edge_batch_t<vid_t>& batch,
                                     const sssp::state_t<vid_t>& state, int paths[2],
                                     kept_results_t<vid_t>* kept = nullptr) {
  change_log_t<vid_t> log;
  g.apply(batch, &log);
  return check_updates(name, g, log, state, 0, paths, kept);
}

/// Long shortest paths, hubs and disconnection: the pointer jumping needs many passes on a path
/// and a grid, the hubs' rows are cut into many seeding and merge pieces.
template <class vid_t, class eid_t>
void structured_graphs() {
  int paths[2] = {0, 0};
  std::mt19937 rng(5);
  {  // A path of 3000: cutting near the source invalidates a 2990-deep subtree.
    const vid_t n = 3000;
    std::vector<vid_t> src, dst;
    std::vector<int32_t> w;
    for (vid_t v = 0; v + 1 < n; ++v)
      src.push_back(v), dst.push_back(v + 1), w.push_back(1 + v % 3);
    src.push_back(0), dst.push_back(1500), w.push_back(100000);  // a long bypass
    auto g = build<vid_t, eid_t>(n, src, dst, w);
    auto state = gpu_compute(device_graph_t<vid_t, eid_t>(g), vid_t{0}, 0);
    kept_results_t<vid_t> kept(state);
    const std::vector<vid_t> ds{5}, dd{6};
    state =
        apply_and_check<vid_t, eid_t>("path cut", g, {{}, {}, {}, 1, ds, dd}, state, paths, &kept);
    const std::vector<vid_t> is{5}, id{6};
    const std::vector<int32_t> iw{7};
    state = apply_and_check<vid_t, eid_t>("path rejoined", g, {is, id, iw, 1, {}, {}}, state, paths,
                                          &kept);
    // A cut 20 levels deep: walked top down, below the switch to pointer jumping.
    const std::vector<vid_t> ds1{2979}, dd1{2980};
    state = apply_and_check<vid_t, eid_t>("short cut", g, {{}, {}, {}, 1, ds1, dd1}, state, paths,
                                          &kept);
    const std::vector<vid_t> ds2{0}, dd2{1500};
    state = apply_and_check<vid_t, eid_t>("bypass gone", g, {{}, {}, {}, 1, ds2, dd2}, state, paths,
                                          &kept);
    const std::vector<vid_t> ds3{0}, dd3{1};
    state = apply_and_check<vid_t, eid_t>("source cut off", g, {{}, {}, {}, 1, ds3, dd3}, state,
                                          paths, &kept);
  }
  {  // Shortcuts along a path of unit weights, each lowering a long stretch by far more than a
     // bucket width (64): the default budget predicts a recompute before cutting anything,
     // every other variant still repairs (all checked against the oracle).
    const vid_t n = 2000;
    std::vector<vid_t> src, dst;
    std::vector<int32_t> w;
    for (vid_t v = 0; v + 1 < n; ++v) src.push_back(v), dst.push_back(v + 1), w.push_back(1);
    auto g = build<vid_t, eid_t>(n, src, dst, w);
    const auto state = gpu_compute(device_graph_t<vid_t, eid_t>(g), vid_t{0}, 0);
    std::vector<vid_t> is, id;
    std::vector<int32_t> iw;
    for (vid_t k = 1; k < 20; ++k) is.push_back(0), id.push_back(100 * k), iw.push_back(1);
    change_log_t<vid_t> log;
    g.apply({is, id, iw, 1, {}, {}}, &log);
    check_updates("path shortcuts", g, log, state, 0, paths);
    const device_graph_t<vid_t, eid_t> d(g);
    device_result_t<vid_t> r(state);
    sssp::stats_t stats;
    sssp::cuda::update<vid_t, eid_t>(d.out.view, d.in.view, log, 0, 0, -1.0, nullptr, r.state,
                                     stats);
    CHECK(stats.path == dyng::update_path_t::recompute);
    CHECK_EQ(stats.invalidated, 0);
    CHECK(same(r.download(0, static_cast<size_t>(n)), sssp::reference_dijkstra(g, vid_t{0}, 0)));
  }
  {  // An undirected 40 x 40 grid: random tree edges deleted, shortcuts inserted, reweights.
    const vid_t side = 40;
    std::vector<vid_t> src, dst;
    std::vector<int32_t> w;
    for (vid_t r = 0; r < side; ++r) {
      for (vid_t c = 0; c < side; ++c) {
        const vid_t v = r * side + c;
        if (c + 1 < side) src.push_back(v), dst.push_back(v + 1), w.push_back(1 + rng() % 100);
        if (r + 1 < side) src.push_back(v), dst.push_back(v + side), w.push_back(1 + rng() % 100);
      }
    }
    auto g = build<vid_t, eid_t>(side * side, src, dst, w, false);
    auto state = gpu_compute(device_graph_t<vid_t, eid_t>(g), vid_t{0}, 0);
    kept_results_t<vid_t> kept(state);
    for (int round = 0; round < 5; ++round) {
      std::vector<vid_t> is, id, ds, dd;
      std::vector<int32_t> iw;
      for (int i = 0; i < 20; ++i) {
        const vid_t v = static_cast<vid_t>(rng() % (side * side));
        const vid_t p = state.parents[static_cast<size_t>(v)];
        if (p < 0) continue;
        if (i % 3 == 0) {
          is.push_back(p), id.push_back(v), iw.push_back(1 + rng() % 200);  // reweight
        } else {
          ds.push_back(p), dd.push_back(v);
        }
      }
      for (int i = 0; i < 5; ++i) {
        is.push_back(static_cast<vid_t>(rng() % (side * side)));
        id.push_back(static_cast<vid_t>(rng() % (side * side)));
        iw.push_back(1 + rng() % 30);
      }
      state = apply_and_check<vid_t, eid_t>("grid round " + std::to_string(round), g,
                                            {is, id, iw, 1, ds, dd}, state, paths, &kept);
    }
  }
  {  // Hubs: vertex 0 reaches everyone expensively, odd vertices cheaply, and 7 has an in-row
     // of every vertex (a long row for seeding, merging and the parent pieces).
    const vid_t n = 5000;
    std::vector<vid_t> src, dst;
    std::vector<int32_t> w;
    for (vid_t v = 1; v < n; ++v) src.push_back(0), dst.push_back(v), w.push_back(1000 + v % 7);
    for (vid_t v = 1; v + 1 < n; v += 2) src.push_back(v), dst.push_back(v + 1), w.push_back(1);
    for (vid_t v = 0; v < n; ++v) {
      if (v != 7) src.push_back(v), dst.push_back(7), w.push_back(1 + v % 5);
    }
    auto g = build<vid_t, eid_t>(n, src, dst, w);
    auto state = gpu_compute(device_graph_t<vid_t, eid_t>(g), vid_t{0}, 0);
    kept_results_t<vid_t> kept(state);
    // Cut 7 (its parent edge) and lower many vertices at once through a cheap edge to a hub.
    const vid_t p7 = state.parents[7];
    const std::vector<vid_t> ds{p7}, dd{7};
    state =
        apply_and_check<vid_t, eid_t>("hub cut", g, {{}, {}, {}, 1, ds, dd}, state, paths, &kept);
    std::vector<vid_t> is{0}, id{3};
    std::vector<int32_t> iw{1};
    for (vid_t v = 3; v < 400; v += 2) is.push_back(3), id.push_back(v), iw.push_back(2);
    state = apply_and_check<vid_t, eid_t>("hub shortcut", g, {is, id, iw, 1, {}, {}}, state, paths,
                                          &kept);
    // Grow: new vertices reached through the hub 7 and a new hub.
    const std::vector<vid_t> is2{7, n, n + 1, 0}, id2{n, n + 1, 7, n + 2};
    const std::vector<int32_t> iw2{3, 4, 1, 9};
    state =
        apply_and_check<vid_t, eid_t>("growth", g, {is2, id2, iw2, 1, {}, {}}, state, paths, &kept);
    // Cut the hub 0's edge to 1 (a subtree below a hub row of 5000) after the growth.
    const std::vector<vid_t> ds4{0}, dd4{1};
    state = apply_and_check<vid_t, eid_t>("hub edge cut", g, {{}, {}, {}, 1, ds4, dd4}, state,
                                          paths, &kept);
  }
  CHECK(paths[0] > 0);
}

/// A refused update between good ones: the state is put back, update() rebuilds its repair
/// memory, and the next updates are exact again.
template <class vid_t, class eid_t>
void failure_in_a_chain() {
  const vid_t n = 60;
  std::vector<vid_t> src, dst;
  std::vector<int32_t> w;
  for (vid_t v = 0; v + 1 < n; ++v) src.push_back(v), dst.push_back(v + 1), w.push_back(1 + v % 3);
  for (vid_t v = 0; v + 7 < n; ++v) src.push_back(v), dst.push_back(v + 7), w.push_back(10);
  auto g = build<vid_t, eid_t>(n, src, dst, w);
  const sssp::state_t<vid_t> start = gpu_compute(device_graph_t<vid_t, eid_t>(g), vid_t{0}, 0);
  device_result_t<vid_t> r(start);
  sssp::stats_t stats;
  auto update = [&](const change_log_t<vid_t>& log) {
    const device_graph_t<vid_t, eid_t> d(g);
    sssp::cuda::update<vid_t, eid_t>(d.out.view, d.in.view, log, 0, 0, 1e9, nullptr, r.state,
                                     stats);
  };
  auto exact = [&] {
    return same(r.download(0, static_cast<size_t>(g.num_vertices())),
                sssp::reference_dijkstra(g, vid_t{0}, 0));
  };
  // A good batch: the repair memory is built and left clean.
  change_log_t<vid_t> first;
  const vid_t p20 = start.parents[20];
  const std::vector<vid_t> ds{p20}, dd{20};
  g.apply({{}, {}, {}, 1, ds, dd}, &first);
  update(first);
  CHECK(exact());
  const sssp::state_t<vid_t> good = r.download(0, static_cast<size_t>(n));
  // A refused one (weight 0 on an edge that lowers a subtree): nothing changes.
  change_log_t<vid_t> refused;
  const std::vector<vid_t> bs{3, 30}, bd{40, 31};
  const std::vector<int32_t> bw{1, 0};
  g.apply({bs, bd, bw, 1, {}, {}}, &refused);
  CHECK_THROWS_AS(update(refused), invalid_argument_error);
  CHECK(same(r.download(0, static_cast<size_t>(n)), good));
  // The graph drops the refused edges again; both logs together take the state's graph there.
  change_log_t<vid_t> undo;
  g.apply({{}, {}, {}, 1, bs, bd}, &undo);
  change_log_t<vid_t> both = refused;
  both.changes.insert(both.changes.end(), undo.changes.begin(), undo.changes.end());
  update(both);
  CHECK(exact());
  // And on: a cut, a lowering and a new vertex.
  change_log_t<vid_t> more;
  const std::vector<vid_t> is{0, 59}, id{45, n};
  const std::vector<int32_t> iw{2, 1};
  const std::vector<vid_t> ds2{9}, dd2{10};
  g.apply({is, id, iw, 1, ds2, dd2}, &more);
  update(more);
  CHECK(exact());
  CHECK(stats.path == dyng::update_path_t::incremental);
}

template <class vid_t, class eid_t>
void rejects_bad_input() {
  const std::vector<vid_t> src{0, 1}, dst{1, 2};
  const std::vector<int32_t> w{3, 4};
  auto g = build<vid_t, eid_t>(3, src, dst, w);
  auto state = gpu_compute(device_graph_t<vid_t, eid_t>(g), vid_t{0}, 0);
  // A batch that validate_batch would refuse, applied anyway: weight 0 on a new edge.
  const std::vector<vid_t> is{0}, id{2};
  const std::vector<int32_t> iw{0};
  change_log_t<vid_t> log;
  g.apply({is, id, iw, 1, {}, {}}, &log);
  const device_graph_t<vid_t, eid_t> d(g);
  device_result_t<vid_t> r(state);
  sssp::stats_t stats;
  bool threw = false;
  try {
    sssp::cuda::update<vid_t, eid_t>(d.out.view, d.in.view, log, 0, 0, -1.0, nullptr, r.state,
                                     stats);
  } catch (const invalid_argument_error& e) {
    threw = std::string(e.what()).find("edge (0, 2) has weight 0") != std::string::npos;
    if (!threw) std::fprintf(stderr, "  message: %s\n", e.what());
  }
  CHECK(threw);
  CHECK(same(r.download(0, 3), state));  // nothing written
  CHECK_EQ(r.state.num_vertices, 3);
  // A log that does not describe this graph, and a source outside it.
  change_log_t<vid_t> wrong = log;
  wrong.num_vertices_after = 4;
  auto run = [&](const change_log_t<vid_t>& l, vid_t source) {
    r.state.source = source;
    sssp::cuda::update<vid_t, eid_t>(d.out.view, d.in.view, l, 0, 0, -1.0, nullptr, r.state, stats);
  };
  CHECK_THROWS_AS(run(wrong, 0), invalid_argument_error);
  CHECK_THROWS_AS(run(log, 3), invalid_argument_error);
  // A repair that throws after growing the result puts the old size back.
  const std::vector<vid_t> gs{2}, gd{5};
  const std::vector<int32_t> gw{0};
  change_log_t<vid_t> grow_log;
  g.apply({gs, gd, gw, 1, {}, {}}, &grow_log);
  const device_graph_t<vid_t, eid_t> grown_graph(g);
  device_result_t<vid_t> r2(state);
  auto grow_and_fail = [&] {
    sssp::cuda::update<vid_t, eid_t>(grown_graph.out.view, grown_graph.in.view, grow_log, 0, 0,
                                     -1.0, nullptr, r2.state, stats);
  };
  CHECK_THROWS_AS(grow_and_fail(), invalid_argument_error);
  CHECK_EQ(r2.state.num_vertices, 3);
  CHECK(same(r2.download(0, 3), state));
  failure_in_a_chain<vid_t, eid_t>();
}

}  // namespace

DYNG_TEST("update matches compute and the oracle on random batches, i32/i32") {
  random_rounds<int32_t, int32_t>(41, 40);
}
DYNG_TEST("update matches compute and the oracle on random batches, i32/i64") {
  random_rounds<int32_t, int64_t>(42, 25);
}
DYNG_TEST("update matches compute and the oracle on random batches, i64/i64") {
  random_rounds<int64_t, int64_t>(43, 25);
}
DYNG_TEST("update on paths, grids and hubs, i32/i32") { structured_graphs<int32_t, int32_t>(); }
DYNG_TEST("update on paths, grids and hubs, i32/i64") { structured_graphs<int32_t, int64_t>(); }
DYNG_TEST("update on paths, grids and hubs, i64/i64") { structured_graphs<int64_t, int64_t>(); }
DYNG_TEST("update rejects weights below 1 without writing, and bad arguments") {
  rejects_bad_input<int32_t, int32_t>();
  rejects_bad_input<int64_t, int64_t>();
}

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
