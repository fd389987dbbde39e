// Change-batch generators of the original tools, reproduced draw for draw.
//
// Benchmarks of the original tools were run on batches that these generators produce from a seed;
// to compare against published numbers a batch must be the same edge for edge. So each generator
// replays its original's random stream exactly: the same engine (std::mt19937 for mospPrep's
// `changes`, std::mt19937_64 for CycleEnumeration-GPU's batch generator), the same standard
// distributions in the same order, and candidate lists built in the same order. libstdc++'s
// distribution and shuffle algorithms are part of that contract: core/stdlib_random.hpp replays
// them whatever C++ library dyng is built with (the wheels use libc++).
//
// Both read the graph's out-edge rows in CSR order (Graph.to_csr()), as the tools read their CSR.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace dyng::generators {

/// How mospPrep's `changes` draws a batch (MOSP-OpenMP changeGenerator.h).
enum class change_mode_t {
  uniform,   ///< random insertions; deletions of existing edges, with replacement
  targeted,  ///< insertions lighter than the average weight; deletions of distinct tree edges
  reweight,  ///< new random weights on existing edges, with replacement
  increase,  ///< raised weights on distinct shortest-path-tree edges
};

/// Options of mosp_changes(), with the original tool's defaults.
struct mosp_change_options_t {
  int64_t num_changes = 0;
  double insertion_percentage = 50.0;  ///< uniform/targeted: share of insertions in percent
  change_mode_t mode = change_mode_t::uniform;
  int32_t weight_min = 1;
  int32_t weight_max = 100;
  uint32_t seed = 1;
  int64_t local_hops = 0;       ///< > 0: every endpoint within this many hops of a random centre
  bool safe_deletions = false;  ///< drop deletions that cut a vertex off from `source`
  int64_t source = 0;
};

/// A generated MOSP batch and what the tool reports about it. Re-weighted edges come after the
/// plain insertions among the insertions; weights are K per insertion, insertion-major.
template <class vid_t>
struct mosp_change_batch_t {
  std::vector<vid_t> insert_src;
  std::vector<vid_t> insert_dst;
  std::vector<int32_t> insert_weights;
  std::vector<vid_t> delete_src;
  std::vector<vid_t> delete_dst;
  int64_t inserts = 0;            ///< insertions of new edges
  int64_t reweights = 0;          ///< insertions that overwrite an existing edge's weights
  int64_t deletes = 0;            ///< deletions kept
  int64_t requested_deletes = 0;  ///< deletions drawn, before the safety filter
  int64_t safe_rounds = 0;        ///< rounds of the safety filter (0 without it)
  int64_t centre = -1;            ///< centre of the local region, -1 without one
  int64_t region = 0;             ///< vertices in the local region, 0 without one
  std::string summary;            ///< the tool's one-line report
};

/// mospPrep's `changes` on `graph` (K >= 1 weights). Throws invalid_argument_error for options
/// the tool refuses, a local region of fewer than 2 vertices, or no edge to delete or re-weight.
template <class vid_t, class eid_t>
mosp_change_batch_t<vid_t> mosp_changes(const graph_t<vid_t, eid_t>& graph,
                                        const mosp_change_options_t& options);

/// Options of cycle_enum_batch() (CycleEnumeration-GPU BatchParams).
struct cycle_enum_batch_options_t {
  int64_t num_deletions = 0;
  int64_t num_insertions = 0;
  uint64_t seed = 0;
  /// Both endpoints of every change within a seeded window of this many consecutive ids; none
  /// (or a negative value) for the whole vertex range.
  std::optional<int64_t> locality_window;
};

/// Deletions and insertions, each sorted by (src, dst) without repeats.
template <class vid_t>
struct edge_changes_t {
  std::vector<vid_t> delete_src;
  std::vector<vid_t> delete_dst;
  std::vector<vid_t> insert_src;
  std::vector<vid_t> insert_dst;
};

/// CycleEnumeration-GPU's generate_batch(): deletions drawn from the existing edges, insertions
/// from the non-edges without self-loops. Throws invalid_argument_error for negative counts,
/// fewer than 2 vertices, or too few candidates.
template <class vid_t, class eid_t>
edge_changes_t<vid_t> cycle_enum_batch(const graph_t<vid_t, eid_t>& graph,
                                       const cycle_enum_batch_options_t& options);

}  // namespace dyng::generators
