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

struct update_stats_t {
  /// Result entries that changed (vertices for traversals, lengths for histograms); a compute
  /// counts the entries it produced (reached vertices, non-zero lengths).
  int64_t affected = 0;
  int64_t iterations = 0;       ///< Algorithm-defined rounds (buckets, levels, phases).
  int64_t frontier_visits = 0;  ///< Edges examined.
  bool fallback_used = false;   ///< update() recomputed (path == recompute).
  bool converged = true;
  std::string engine_used;      ///< "operators" (sequential) or "fused" (parallel), as in 0.2.0.
  update_path_t path = update_path_t::compute;
};

}  // namespace dyng
