// Where an update's frontier starts, planned on the host from the change log, for both the host
// phase (frontier_iteration.hpp) and the GPU's (cuda/frontier_launch.cuh): which vertices'
// out-neighbours join the first round, how far the batch moved one full iteration of the ranks
// (the first term of the residual bound), and the rank of the vertices whose dangling state may
// have changed (which moves the dangling mass D). The heads of the changed edges join the first
// round too (their in-rows changed); each backend flags those itself. See frontier_iteration.hpp's
// header for the reasoning.
//
// The plan reads the rank, the dangling state (no out-weight now) and the out-degree now of the
// vertices that seed_inputs() lists only, so a device backend gathers those few ranks instead of
// downloading the vector. Sums run in increasing vertex order: the same bits on every backend.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

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

/// The vertices whose rank, dangling state and out-degree plan_seeds() reads: the tails of the
/// changed edges and the batch's new vertices, increasing, each once.
template <class vid_t>
std::vector<vid_t> seed_inputs(const change_log_t<vid_t>& log) {
  std::vector<vid_t> inputs;
  inputs.reserve(log.changes.size());
  for (const auto& change : log.changes) inputs.push_back(change.src);
  for (vid_t v = log.num_vertices_before; v < log.num_vertices_after; ++v) inputs.push_back(v);
  std::sort(inputs.begin(), inputs.end());
  inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
  return inputs;
}

/// What plan_seeds() found.
template <class vid_t>
struct seed_plan_t {
  /// Vertices whose out-neighbours join the first round: tails whose share to each out-neighbour
  /// moved past the threshold, and the batch's new vertices (which join it themselves too).
  std::vector<vid_t> expand;
  double shift = 0.0;          ///< L1 change the batch made to one full iteration of the ranks.
  double dangling_mass = 0.0;  ///< Rank of the vertices whose dangling state may have changed.
};

/// The plan for `log` (see the header): rank(u), dangling(u) and degree(u) are asked for the
/// vertices of seed_inputs(log) only.
template <class vid_t, class rank_f, class dangling_f, class degree_f>
seed_plan_t<vid_t> plan_seeds(const change_log_t<vid_t>& log, bool weighted, double alpha,
                              double threshold, rank_f rank, dangling_f dangling, degree_f degree) {
  seed_plan_t<vid_t> plan;
  std::vector<std::pair<vid_t, edge_change_kind_t>> tails;
  tails.reserve(log.changes.size());
  for (const auto& change : log.changes) tails.emplace_back(change.src, change.kind);
  std::sort(tails.begin(), tails.end());
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
    const double x = rank(u);
    const auto [column, share] = column_shift(weighted, degree(u), change);
    plan.shift += alpha * x * column;
    if (alpha * x * share > threshold) plan.expand.push_back(u);
    const bool is_new = u >= log.num_vertices_before;
    if (!is_new && (may_have_switched || dangling(u))) plan.dangling_mass += x;
  }
  // New vertices: each joins, with its out-neighbours, and counts towards the dangling mass; in
  // increasing order after the old tails, as the tails' loop left them out.
  for (vid_t v = log.num_vertices_before; v < log.num_vertices_after; ++v) {
    plan.expand.push_back(v);
    plan.dangling_mass += rank(v);
  }
  std::sort(plan.expand.begin(), plan.expand.end());
  plan.expand.erase(std::unique(plan.expand.begin(), plan.expand.end()), plan.expand.end());
  return plan;
}

}  // namespace dyng::pagerank::detail
