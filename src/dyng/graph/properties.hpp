// Graph properties and batch semantics (spec sections 2-3), as plain values.
#pragma once

#include <cstdint>
#include <string>

namespace dyng {

enum class on_existing_insert_t { upsert, error, ignore };
enum class on_missing_delete_t { ignore, error };
enum class on_self_loop_t { keep, drop, error };

/// How Graph::apply resolves a batch. Defaults are "upsert_last_wins".
struct batch_semantics_t {
  on_existing_insert_t on_existing_insert = on_existing_insert_t::upsert;
  on_missing_delete_t on_missing_delete = on_missing_delete_t::ignore;
  on_self_loop_t on_self_loop = on_self_loop_t::keep;
  bool deletions_first = true;
  bool allow_vertex_growth = true;
  /// Treat each list as a set: repeated insertions keep the first weight, and an edge both
  /// deleted and inserted counts one cancelled pair.
  bool as_sets = false;

  static batch_semantics_t upsert_last_wins() { return {}; }
  static batch_semantics_t set() {
    return {on_existing_insert_t::ignore,
            on_missing_delete_t::ignore,
            on_self_loop_t::drop,
            true,
            true,
            true};
  }
};

enum class edge_order_t { sorted, append };

/// Storage choices of a graph. `num_weights` is K (0 = unweighted, at most k_max_weights).
struct graph_properties_t {
  bool directed = true;
  bool store_transposed = true;
  int num_weights = 1;
  /// Spare slots kept per row, as a fraction of its degree (at least one slot per non-empty row).
  double headroom = 0.125;
  edge_order_t order = edge_order_t::sorted;
  bool allow_parallel_edges = false;
  batch_semantics_t semantics{};
};

inline constexpr int k_max_weights = 64;

/// Counters of one Graph::apply (spec: ApplySummary).
struct apply_summary_t {
  int64_t inserted_edges = 0;
  int64_t updated_edges = 0;
  int64_t deleted_edges = 0;
  int64_t ignored_deletions = 0;
  int64_t dropped_self_loops = 0;
  int64_t cancelled_pairs = 0;
  int64_t inserted_vertices = 0;
  int64_t deleted_vertices = 0;
  int64_t num_vertices_after = 0;
  int64_t ignored_insertions = 0;
};

}  // namespace dyng
