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
  double sum = 0.0;       ///< Sum of the ranks after the rounds (kept along, not summed again).
  double dangling = 0.0;  ///< Rank of the dangling vertices after the rounds (kept along).
  double dangling_error = 0.0;  ///< Bound on how far `dangling` is from the exact sum.
  /// Bound on the L1 change one more full iteration would make to the ranks (infinite when the
  /// start had none).
  double residual_bound = std::numeric_limits<double>::infinity();
};

/// The bound on one more full iteration's L1 change after the ranks a phase left (bound `bound`)
/// are multiplied by c = `inverse` (1 / their sum): r(c x) = c r(x) + (1 - c) (1 - alpha) p,
/// plus the rounding of the products (each rank off by at most eps of it, which one more full
/// iteration moves by at most (1 + alpha) eps in all) and of this expression. Infinite when c is
/// not a positive finite number.
inline double scaled_bound(double bound, double inverse, double alpha) {
  if (!(inverse > 0.0 && std::isfinite(inverse))) return std::numeric_limits<double>::infinity();
  const double eps = std::numeric_limits<double>::epsilon();
  return (bound * inverse + (1.0 - alpha) * std::fabs(1.0 - inverse)) * (1.0 + 4.0 * eps) +
         4.0 * eps;
}

}  // namespace dyng::pagerank::detail
