// The tuning knobs every algorithm's options_t carries (it derives from tuning_knobs_t, so
// `options.repair_budget` reads as before). Each algorithm picks its own defaults, as
// k_default_repair_budget and k_default_parallel_min_edges next to its options; the bindings
// expose the knobs once for every options class that offers them (the tests set them).
#pragma once

#include <cstdint>

namespace dyng {

struct tuning_knobs_t {
  /// update() gives its repair up for a full compute once the repair's work passes this fraction
  /// of the algorithm's scale (the stored edges for a traversal, the last compute's work for a
  /// count). Negative picks the algorithm's k_default_repair_budget; 0 always recomputes.
  double repair_budget = -1.0;
  /// The OpenMP backend runs its team (or parallel kernel) on graphs with at least this many
  /// stored edges, and a machine with fewer than two CPUs free never does (host_team_size).
  /// -1 picks the algorithm's k_default_parallel_min_edges; 0 always runs it (tests on small
  /// graphs). Results are the same either way.
  int64_t parallel_min_edges = -1;

  /// parallel_min_edges, or `default_min_edges` where it asks for the default.
  int64_t min_parallel_edges(int64_t default_min_edges) const {
    return parallel_min_edges < 0 ? default_min_edges : parallel_min_edges;
  }
};

}  // namespace dyng
