// triangle_delta's count as the shared whole-graph update steps see it
// (whole_graph_count/update_steps.hpp): one number, each undirected change counted once.
#pragma once

#include <cstdint>

#include "dyng/core/update_stats.hpp"
#include "dyng/triangle_delta/triangle_delta.hpp"

namespace dyng::triangle_delta::detail {

template <class vid_t>
struct tally_t {
  using vid_type = vid_t;
  using state_type = state_t<vid_t>;
  using stats_type = stats_t;
  using counts_type = uint64_t;

  static constexpr const char* k_name = "triangle_delta";
  static constexpr const char* k_normalize_stage = "triangle_delta.normalize";
  static constexpr const char* k_count_stage = "triangle_delta.count";
  static constexpr const char* k_count_batch_stage = "triangle_delta.count_batch";
  static constexpr bool k_undirected = true;
  static constexpr engine_t k_compute_engine{"operators", "row_intersection"};
  static constexpr engine_t k_repair_engine{"operators", "edge_intersection"};
  static constexpr double k_default_repair_budget = ::dyng::triangle_delta::k_default_repair_budget;
  static constexpr int64_t k_default_parallel_min_edges =
      ::dyng::triangle_delta::k_default_parallel_min_edges;
  static constexpr auto k_removed = &stats_t::triangles_removed;
  static constexpr auto k_added = &stats_t::triangles_added;

  static counts_type& counts(state_type& state) { return state.count; }
  static counts_type counts(const state_type& state) { return state.count; }
  static void fit(state_type&) {}
  /// A graph's triangles fit in 64 bits (at most m^1.5 / 3 of them for m stored edges).
  static void add(counts_type& count, counts_type added) { count += added; }
};

}  // namespace dyng::triangle_delta::detail
