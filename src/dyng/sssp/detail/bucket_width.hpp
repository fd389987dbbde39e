// The CUDA near-far search's bucket width from what its prepare pass measures (launch.cuh calls
// it; gpu-sssp.md, "The bucket width"). Host-only arithmetic, so that the rule is tested on the
// CPU (tests/cpp/sssp/test_sssp_bucket_width.cpp).
#pragma once

#include <algorithm>
#include <cstdint>

namespace dyng::sssp::detail {

/// Width for a graph whose sampled weights average `mean_weight`, with `mean_degree` stored
/// edges per vertex and `max_degree` in its longest row: 64x the mean weight where the search
/// is bound by its rounds (few edges per vertex and many hops, or hubs that settle most vertices
/// in a few rounds), and 2x on a flat graph of mean degree 8 or more (no row above 4x the mean),
/// where a wide bucket relaxes nearly every edge twice over a tree a handful of hops deep.
/// At least 1.
inline int64_t pick_bucket_width(double mean_weight, double mean_degree, double max_degree) {
  const bool flat = max_degree <= 4.0 * mean_degree;
  const double factor = flat && mean_degree >= 8.0 ? 2.0 : 64.0;
  return std::max<int64_t>(1, static_cast<int64_t>(mean_weight * factor));
}

}  // namespace dyng::sssp::detail
