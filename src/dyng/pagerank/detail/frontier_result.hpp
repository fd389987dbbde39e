// What the frontier phase of an update reports (detail/frontier_iteration.hpp on the host,
// detail/cuda/frontier_launch.cuh on the GPU), apart from the phase itself so that the CUDA
// sources, which are not built with OpenMP, can include it.
#pragma once

#include <cmath>
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
  /// Bound on the L1 change one more full iteration would make to the ranks (infinite when the
  /// start had none).
  double residual_bound = std::numeric_limits<double>::infinity();
};

/// The bound on one more full iteration's L1 change after the ranks that a phase left (bound
/// `bound`, summing to `total`) are divided by their sum: r(x / s) = r(x) / s + (1 - 1 / s) *
/// teleport, plus the rounding of the division. Infinite when the sum is not positive.
inline double scaled_bound(double bound, double total, double alpha) {
  if (!(total > 0.0)) return std::numeric_limits<double>::infinity();
  return bound / total + (1.0 - alpha) * std::fabs(1.0 - 1.0 / total) +
         4.0 * std::numeric_limits<double>::epsilon();
}

}  // namespace dyng::pagerank::detail
