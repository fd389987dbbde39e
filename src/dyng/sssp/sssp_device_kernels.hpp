// Small device helpers of sssp_device.cpp, declared without CUDA types so that file stays C++.
#pragma once

#include <cstdint>

#include "dyng/graph/adjacency_view.hpp"

namespace dyng::sssp::cuda::detail {

/// Sets d_dist[first, last) to k_infinite_distance and d_parents[first, last) to -1.
template <class vid_t>
void fill_unreached(int64_t* d_dist, vid_t* d_parents, int64_t first, int64_t last, void* stream);

/// True when every used slot of `out` holds a weight >= 1 in column `objective` (one pass over
/// the device weights; the host scan would cost more than the whole GPU search).
template <class vid_t, class eid_t>
bool weights_positive(const adjacency_view_t<vid_t, eid_t>& out, int objective, void* stream);

}  // namespace dyng::sssp::cuda::detail
