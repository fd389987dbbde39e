// What every algorithm's compute and update report (spec section 6, "common Stats fields"), and
// how an update produced its answer. Each algorithm's stats_t derives from update_stats_t and adds
// its own counters; the bindings expose this base once (UpdateStats), so every algorithm's Python
// Stats reads these fields from the same place.
#pragma once

#include <cstdint>
#include <string>

namespace dyng {

/// Which way a call produced its result (Stats.path).
enum class update_path_t {
  compute,      ///< A compute() from scratch.
  incremental,  ///< update() repaired the region the batch touched.
  recompute,    ///< update() gave the repair up (over budget) and recomputed.
};

/// The name Stats.path carries in Python.
constexpr const char* path_name(update_path_t path) noexcept {
  switch (path) {
    case update_path_t::compute: return "compute";
    case update_path_t::incremental: return "incremental";
    case update_path_t::recompute: return "recompute";
  }
  return "unknown";
}

/// What ran, in two words. `engine_used` is 0.2's vocabulary for the execution style, "operators"
/// (one step after another: the sequential kernels) or "fused" (the steps merged into one parallel
/// pass: the OpenMP team, one persistent GPU kernel); `method` names the kernel itself (per
/// algorithm, e.g. sssp's "dijkstra", "delta_stepping" and "near_far").
struct engine_t {
  const char* engine_used;
  const char* method;
};

struct update_stats_t {
  /// Result entries that changed (vertices for traversals, lengths for histograms); a compute
  /// counts the entries it produced (reached vertices, non-zero lengths).
  int64_t affected = 0;
  int64_t iterations = 0;       ///< Algorithm-defined rounds (buckets, levels, phases).
  int64_t frontier_visits = 0;  ///< Edges examined.
  bool fallback_used = false;   ///< update() recomputed (path == recompute).
  bool converged = true;
  std::string engine_used;  ///< "operators" or "fused" (engine_t), as in 0.2.0.
  std::string method;       ///< The kernel that did the search (engine_t).
  update_path_t path = update_path_t::compute;

  void record(engine_t engine) {
    engine_used = engine.engine_used;
    method = engine.method;
  }
};

}  // namespace dyng
