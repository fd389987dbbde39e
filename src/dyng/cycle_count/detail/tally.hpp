// cycle_count's counts as the shared whole-graph update steps see them
// (whole_graph_count/update_steps.hpp): a histogram by length, sized for the bound of the state's
// vertex count, every addition checked against wrapping; and the check every update makes
// before its steps run.
#pragma once

#include <cstdint>
#include <string>

#include "dyng/core/errors.hpp"
#include "dyng/core/update_stats.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/cycle_count/detail/histogram.hpp"
#include "dyng/whole_graph_count/counts.hpp"

namespace dyng::cycle_count::detail {

template <class vid_t>
struct tally_t {
  using vid_type = vid_t;
  using state_type = state_t<vid_t>;
  using stats_type = stats_t;
  using counts_type = whole_graph_count::histogram_t;

  static constexpr const char* k_name = "cycle_count";
  static constexpr const char* k_normalize_stage = "cycle_count.normalize";
  static constexpr const char* k_count_stage = "cycle_count.count";
  static constexpr const char* k_count_batch_stage = "cycle_count.count_batch";
  static constexpr bool k_undirected = false;
  static constexpr engine_t k_compute_engine{"operators", "rooted_paths"};
  static constexpr engine_t k_repair_engine{"operators", "edge_paths"};
  static constexpr double k_default_repair_budget = ::dyng::cycle_count::k_default_repair_budget;
  static constexpr int64_t k_default_parallel_min_edges =
      ::dyng::cycle_count::k_default_parallel_min_edges;
  static constexpr auto k_removed = &stats_t::cycles_removed;
  static constexpr auto k_added = &stats_t::cycles_added;

  static counts_type& counts(state_type& state) { return state.counts; }
  static const counts_type& counts(const state_type& state) { return state.counts; }
  /// bound + 1 entries, the new ones 0; growth stays within the storage an undo refills.
  static void fit(state_type& state) {
    state.counts.resize(static_cast<size_t>(bound_of(state.max_length, state.num_vertices)) + 1, 0);
  }
  static void add(counts_type& counts, const counts_type& added) { add_histogram(counts, added); }
};

/// An update must count the lengths its result was computed with. `fn` names the public call.
inline void check_same_length(const options_t& options, int64_t state_max_length, const char* fn) {
  if (options.max_length == state_max_length) return;
  throw invalid_argument_error(std::string(fn) + ": max_length " +
                               std::to_string(options.max_length) + " differs from the " +
                               std::to_string(state_max_length) +
                               " the result was computed with; compute a new result instead");
}

}  // namespace dyng::cycle_count::detail
