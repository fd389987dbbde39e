// What the frontier phase of an update reports (detail/frontier_iteration.hpp on the host,
// detail/cuda/frontier_launch.cuh on the GPU), apart from the phase itself so that the CUDA
// sources, which are not built with OpenMP, can include it.
#pragma once

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace dyng::pagerank::detail {

/// What the frontier phase did.
template <class vid_t>
struct frontier_result_t {
  int64_t rounds = 0;
  int64_t edges_read = 0;
  int64_t vertices_touched = 0;
  int64_t seeds = 0;
  bool within_budget = true;
  std::vector<int64_t> touched_per_round;  ///< The frontier's size, round by round.
  double sum = 0.0;  ///< Sum of the ranks after the rounds (kept along, not summed again).
  double dangling = 0.0;        ///< Rank of the dangling vertices after the rounds (kept along).
  double dangling_error = 0.0;  ///< Bound on how far `dangling` is from the exact sum.
  /// Bound on the L1 change one more full iteration would make to the ranks (infinite when the
  /// start had none).
  double residual_bound = std::numeric_limits<double>::infinity();
};

}  // namespace dyng::pagerank::detail
