// The update measurements of sssp_gpu_bench: dyng::sssp::cuda::update after uniform batches
// (changes.hpp), each next to a recompute of the same post-batch graph in the same run.
//
// The graph lives in a dyng graph_t (so batches go through graph_t::apply and its change log, as
// in the library) and is uploaded whole after every batch. Every batch is drawn from and applied
// to the base graph, and undone afterwards (inverse_of), so each update starts from the base
// graph's result and measures "base graph + one batch"; batch r of a size is the same for every
// configuration (its seed depends on the size and r only), so configurations compare on the same
// batches. Chaining batches instead would drift the graph: on a grid, a few thousand random
// insertions make it a small world whose recompute is twice as fast. Every update is compared
// bit for bit with the recompute (distances and parents); the base compute is checked against
// the CPU oracle by the compute section when it runs. One warm-up batch, then --update-reps timed
// ones, CUDA events around each whole call (both include their host synchronisations).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "changes.hpp"
#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/sssp/detail/cuda_views.hpp"
#include "gpu_test_util.hpp"  // uploaded_view_t: a graph_t direction uploaded whole
#include "graphs.hpp"

namespace bench {

/// One update configuration: the repair budget (negative: the library's default) and the
/// repair's bucket width (0: the library's default).
struct update_config_t {
  double budget = -1.0;
  long long repair_delta = 0;
};

struct update_row_t {
  std::string text;
  bool ok = true;
};

inline float elapsed_ms(cudaEvent_t start, cudaEvent_t stop) {
  DYNG_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  DYNG_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

template <class T>
T median_of(std::vector<T> values) {
  if (values.empty()) return T{};
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

inline const char* k_update_header =
    "graph     type      changes  budget rdelta |   update      min      max |  recomp | "
    "ratio    max | inc rec |  invalid  affected rounds      relx | check";

template <class vid_t, class eid_t>
void run_updates(const edge_list_t& edges, const std::string& type,
                 const std::vector<long long>& counts, const std::vector<update_config_t>& configs,
                 int reps, long long source, bool verbose, std::vector<update_row_t>& rows) {
  using dyng::cuda::device_buffer;
  const int64_t n = edges.n;
  dyng::graph_t<vid_t, eid_t> g = [&] {
    const std::vector<vid_t> src(edges.src.begin(), edges.src.end());
    const std::vector<vid_t> dst(edges.dst.begin(), edges.dst.end());
    dyng::graph_properties_t props;  // directed, in-edges, K = 1, sorted rows, no parallel edges
    return dyng::graph_t<vid_t, eid_t>::from_edges(static_cast<vid_t>(n), src, dst, edges.weight,
                                                   props);
  }();
  // The result update() repairs, reset from the base before every round. The buffers are made
  // in the order base, repaired, fresh, as the timings in gpu-sssp.md were taken with.
  dyng::sssp::cuda::device_state_t<vid_t> state;
  state.source = static_cast<vid_t>(source);
  state.num_vertices = n;
  device_buffer<int64_t> base_dist(n);
  state.distances = device_buffer<int64_t>(n);
  device_buffer<int64_t> fresh_dist(n);
  device_buffer<vid_t> base_parents(n);
  state.parents = device_buffer<vid_t>(n);
  device_buffer<vid_t> fresh_parents(n);
  device_buffer<int64_t>& dist = state.distances;
  device_buffer<vid_t>& parents = state.parents;
  std::vector<int64_t> got_dist(n), want_dist(n);
  std::vector<vid_t> got_parents(n), want_parents(n);
  cudaEvent_t start, stop;
  DYNG_CUDA_CHECK(cudaEventCreate(&start));
  DYNG_CUDA_CHECK(cudaEventCreate(&stop));
  {
    const dyng_test::uploaded_view_t<vid_t, eid_t> out(g.out_view()), in(g.in_view());
    dyng::sssp::stats_t stats;
    dyng::sssp::cuda::compute<vid_t, eid_t>(out.view, in.view, static_cast<vid_t>(source), 0, 0,
                                            nullptr, base_dist.data(), base_parents.data(), stats);
  }
  for (const long long count : counts) {
    for (const update_config_t& config : configs) {
      std::vector<float> update_ms, compute_ms, ratios;
      std::vector<long long> invalidated, affected, rounds, relaxations;
      int paths[2] = {0, 0};
      long long mismatches = 0;
      for (int rep = -1; rep < reps; ++rep) {
        const change_batch_t<vid_t> batch =
            uniform_changes(g, count, static_cast<uint64_t>(count * 1000 + rep + 1));
        const change_batch_t<vid_t> inverse = inverse_of(batch, g);
        dyng::change_log_t<vid_t> log;
        g.apply(batch.view(), &log);
        const dyng_test::uploaded_view_t<vid_t, eid_t> out(g.out_view()), in(g.in_view());
        DYNG_CUDA_CHECK(cudaMemcpy(dist.data(), base_dist.data(), n * sizeof(int64_t),
                                   cudaMemcpyDeviceToDevice));
        DYNG_CUDA_CHECK(cudaMemcpy(parents.data(), base_parents.data(), n * sizeof(vid_t),
                                   cudaMemcpyDeviceToDevice));
        dyng::sssp::stats_t stats;
        dyng::sssp::cuda::tuning_t tuning;
        tuning.repair_delta = config.repair_delta;
        DYNG_CUDA_CHECK(cudaEventRecord(start));
        dyng::sssp::cuda::update<vid_t, eid_t>(out.view, in.view, log, 0, 0, config.budget, nullptr,
                                               state, stats, tuning);
        DYNG_CUDA_CHECK(cudaEventRecord(stop));
        const float update = elapsed_ms(start, stop);
        dyng::sssp::stats_t fresh_stats;
        fresh_dist.fill_bytes(0xA5);
        fresh_parents.fill_bytes(0xA5);
        DYNG_CUDA_CHECK(cudaEventRecord(start));
        dyng::sssp::cuda::compute<vid_t, eid_t>(out.view, in.view, static_cast<vid_t>(source), 0, 0,
                                                nullptr, fresh_dist.data(), fresh_parents.data(),
                                                fresh_stats);
        DYNG_CUDA_CHECK(cudaEventRecord(stop));
        const float recompute = elapsed_ms(start, stop);
        dist.copy_to_host(got_dist.data(), n);
        parents.copy_to_host(got_parents.data(), n);
        fresh_dist.copy_to_host(want_dist.data(), n);
        fresh_parents.copy_to_host(want_parents.data(), n);
        long long bad = 0;
        for (int64_t v = 0; v < n; ++v) {
          bad += got_dist[v] != want_dist[v] || got_parents[v] != want_parents[v] ? 1 : 0;
        }
        if (bad > 0) {
          std::fprintf(stderr,
                       "  %s %lld changes: update differs from recompute at %lld vertices\n",
                       edges.name.c_str(), count, bad);
        }
        mismatches += bad;
        g.apply(inverse.view());
        if (verbose) {
          std::printf(
              "    rep %2d: update %8.3f ms (%s) recompute %8.3f ms, invalidated %lld, "
              "affected %lld, rounds %lld, relaxations %lld\n",
              rep, update, stats.path == dyng::update_path_t::incremental ? "inc" : "rec",
              recompute, static_cast<long long>(stats.invalidated),
              static_cast<long long>(stats.affected), static_cast<long long>(stats.iterations),
              static_cast<long long>(stats.frontier_visits));
        }
        if (rep < 0) continue;
        update_ms.push_back(update);
        compute_ms.push_back(recompute);
        ratios.push_back(update / recompute);
        ++paths[stats.path == dyng::update_path_t::incremental ? 0 : 1];
        invalidated.push_back(stats.invalidated);
        affected.push_back(stats.affected);
        rounds.push_back(stats.iterations);
        relaxations.push_back(stats.frontier_visits);
      }
      std::sort(update_ms.begin(), update_ms.end());
      char line[512];
      std::snprintf(line, sizeof line,
                    "%-9s %-7s %9lld %7.3g %6lld | %8.3f %8.3f %8.3f | %7.3f | %5.3f %6.3f | %3d "
                    "%3d | %8lld %9lld %6lld %9lld | %s",
                    edges.name.c_str(), type.c_str(), count, config.budget, config.repair_delta,
                    median_of(update_ms), update_ms.empty() ? 0.0 : update_ms.front(),
                    update_ms.empty() ? 0.0 : update_ms.back(), median_of(compute_ms),
                    median_of(ratios),
                    ratios.empty() ? 0.0 : *std::max_element(ratios.begin(), ratios.end()),
                    paths[0], paths[1], median_of(invalidated), median_of(affected),
                    median_of(rounds), median_of(relaxations), mismatches == 0 ? "ok" : "FAIL");
      std::printf("%s\n", line);
      std::fflush(stdout);
      rows.push_back({line, mismatches == 0});
    }
  }
  DYNG_CUDA_CHECK(cudaEventDestroy(start));
  DYNG_CUDA_CHECK(cudaEventDestroy(stop));
}

}  // namespace bench
