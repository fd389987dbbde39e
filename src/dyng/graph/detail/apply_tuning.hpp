// Internal knobs of Graph.apply(): when a batch is large relative to the graph, rebuilding each
// direction compactly beats editing rows one by one (fewer tail moves, sequential memory), and
// from which size an OpenMP apply runs on a team. Both paths produce the same rows (they share
// compose_row), on any team; tests flip the knobs to prove it.
#pragma once

#include <cstdint>

namespace dyng::detail {

struct apply_tuning_t {
  /// Rebuild a direction when its row operations exceed this fraction of its stored edges...
  /// bench/cpp/graph_apply.cpp (1M vertices, 16M edges, random batches): in-place editing is
  /// faster up to m/4 and ties at m/2, where the rebuild also leaves a compact layout.
  double rebuild_fraction = 0.5;
  /// ...and number at least this many (tiny graphs are always edited in place).
  int64_t rebuild_min_ops = 4096;
  /// Batch entries from which an OpenMP apply() asks host_team_size() for a team (below, waking
  /// a team costs more than resolving and writing the batch); 0 forces the full team (tests).
  int64_t parallel_min_changes = 4096;
};

/// The process-wide setting. Meant for tests and benchmarks; change it only while no graph is
/// being modified.
apply_tuning_t& apply_tuning();

}  // namespace dyng::detail
