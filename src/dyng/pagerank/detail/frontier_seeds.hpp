// Where an update's frontier starts, planned on the host from the change log, for both the host
// phase (frontier_iteration.hpp) and the GPU's (cuda/frontier_launch.cuh): which vertices'
// out-neighbours join the first round, how far the batch moved one full iteration of the ranks
// (the first term of the residual bound), and the rank of the vertices whose dangling state may
// have changed (which moves the dangling mass D). The heads of the changed edges join the first
// round too (their in-rows changed); each backend flags those itself. See frontier_iteration.hpp's
// header for the reasoning.
//
// The plan reads the rank, the dangling state (no out-weight now) and the out-degree now of the
// vertices that seed_tails_t lists only, so a device backend gathers those few ranks instead of
// downloading the vector. Sums run in increasing vertex order: the same bits on every backend.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "dyng/core/radix_sort.hpp"
#include "dyng/graph/change_log.hpp"

namespace dyng::pagerank::detail {

/// The change of one tail's transition column: slots inserted and deleted (reweighted ones only
/// matter when weighted).
struct column_change_t {
  int64_t inserted = 0;
  int64_t deleted = 0;
  int64_t reweighted = 0;
};

/// (L1 change of a tail's transition column, largest change of its share to one out-neighbour)
/// for `change`, the tail having `degree_now` out-edges; 2 and 1, their largest values, where the
/// old column is not known from the counts (weighted, or the tail had or has no out-edges and
/// jumped uniformly).
inline std::pair<double, double> column_shift(bool weighted, int64_t degree_now,
                                              const column_change_t& change) {
  if (weighted) {
    return change.inserted + change.deleted + change.reweighted > 0 ? std::pair{2.0, 1.0}
                                                                    : std::pair{0.0, 0.0};
  }
  if (change.inserted + change.deleted == 0) return {0.0, 0.0};
  const auto now = static_cast<double>(degree_now);
  const double before = now - static_cast<double>(change.inserted - change.deleted);
  if (now <= 0.0 || before <= 0.0) return {2.0, 1.0};
  const double kept = before - static_cast<double>(change.deleted);
  const double column = kept * std::fabs(1.0 / now - 1.0 / before) +
                        static_cast<double>(change.inserted) / now +
                        static_cast<double>(change.deleted) / before;
  return {std::min(2.0, column), std::fabs(1.0 / now - 1.0 / before)};
}

/// The batch's changed-edge tails sorted by vertex (a stable radix sort, the same order on every
/// backend), and the vertices whose rank, dangling state and out-degree plan_seeds() reads
/// (`inputs`): the distinct tails that existed before the batch, increasing, then the batch's new
/// vertices, each once. Sorting the log once, in linear time, matters: a batch of 100,000 changes
/// spent most of a GPU update in comparison sorts and binary searches here.
template <class vid_t>
struct seed_tails_t {
  std::vector<std::pair<vid_t, edge_change_kind_t>> tails;
  std::vector<vid_t> inputs;
  size_t old_inputs = 0;  ///< Entries of `inputs` before the new vertices.

  explicit seed_tails_t(const change_log_t<vid_t>& log) {
    tails.reserve(log.changes.size());
    for (const auto& change : log.changes) tails.emplace_back(change.src, change.kind);
    std::vector<std::pair<vid_t, edge_change_kind_t>> scratch;
    radix_sort_vector(
        tails, scratch, key_bits_below(static_cast<int64_t>(log.num_vertices_after)),
        [](const auto& tail) { return static_cast<uint64_t>(tail.first); }, 1);
    for (const auto& [u, kind] : tails) {
      if (u >= log.num_vertices_before) break;  // sorted: the rest are new vertices
      if (inputs.empty() || inputs.back() != u) inputs.push_back(u);
    }
    old_inputs = inputs.size();
    for (vid_t v = log.num_vertices_before; v < log.num_vertices_after; ++v) inputs.push_back(v);
  }

  /// The position in `inputs` of new vertex v.
  size_t new_input(const change_log_t<vid_t>& log, vid_t v) const {
    return old_inputs + static_cast<size_t>(v - log.num_vertices_before);
  }
};

/// What plan_seeds() found.
template <class vid_t>
struct seed_plan_t {
  /// Vertices whose out-neighbours join the first round: tails whose share to each out-neighbour
  /// moved past the threshold, and the batch's new vertices (which join it themselves too),
  /// increasing, each once.
  std::vector<vid_t> expand;
  double shift = 0.0;          ///< L1 change the batch made to one full iteration of the ranks.
  double dangling_mass = 0.0;  ///< Rank of the vertices whose dangling state may have changed.
};

/// The plan for `log` (see the header), whose tails `seeds` sorted: rank(u, at), dangling(u, at)
/// and degree(u, at) are asked for the vertices of seeds.inputs only, `at` being u's position
/// there (a backend that gathered them reads by position, one that holds them by vertex).
template <class vid_t, class rank_f, class dangling_f, class degree_f>
seed_plan_t<vid_t> plan_seeds(const seed_tails_t<vid_t>& seeds, const change_log_t<vid_t>& log,
                              bool weighted, double alpha, double threshold, rank_f rank,
                              dangling_f dangling, degree_f degree) {
  seed_plan_t<vid_t> plan;
  const auto& tails = seeds.tails;
  size_t old_at = 0;  // the position of the next old tail in seeds.inputs
  for (size_t i = 0; i < tails.size();) {
    const vid_t u = tails[i].first;
    column_change_t change;
    bool may_have_switched = false;  // dangling now, or an out-edge inserted or reweighted
    for (; i < tails.size() && tails[i].first == u; ++i) {
      const edge_change_kind_t kind = tails[i].second;
      change.inserted += kind == edge_change_kind_t::inserted ? 1 : 0;
      change.deleted += kind == edge_change_kind_t::deleted ? 1 : 0;
      change.reweighted += kind == edge_change_kind_t::reweighted ? 1 : 0;
      may_have_switched = may_have_switched || kind != edge_change_kind_t::deleted;
    }
    const bool is_new = u >= log.num_vertices_before;
    const size_t at = is_new ? seeds.new_input(log, u) : old_at++;
    const double x = rank(u, at);
    const auto [column, share] = column_shift(weighted, degree(u, at), change);
    plan.shift += alpha * x * column;
    // A new vertex joins below with all the others.
    if (!is_new && alpha * x * share > threshold) plan.expand.push_back(u);
    if (!is_new && (may_have_switched || dangling(u, at))) plan.dangling_mass += x;
  }
  // New vertices: each joins, with its out-neighbours, and counts towards the dangling mass; in
  // increasing order after the old tails, as the tails' loop left them out.
  for (vid_t v = log.num_vertices_before; v < log.num_vertices_after; ++v) {
    plan.expand.push_back(v);
    plan.dangling_mass += rank(v, seeds.new_input(log, v));
  }
  return plan;
}

}  // namespace dyng::pagerank::detail
