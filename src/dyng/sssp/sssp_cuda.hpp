// SSSP on a CUDA device: distances and canonical parents from a graph already in device memory.
//
// The host API below has no CUDA types (streams are void*), so CPU code and the bindings can
// include it; the kernels live in detail/cuda/*.cuh and sssp_cuda.cu. Results are bit-identical
// to the CPU backends: int64 distances (k_infinite_distance when unreachable) and the canonical
// parent, the lowest-id in-neighbour u != v with dist[u] + w(u, v) == dist[v] (-1 for the source
// and unreachable vertices). See docs/developer/gpu-sssp.md for the method and measurements.
#pragma once

#include <cstdint>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::sssp::cuda {

/// One direction of a graph in device memory: the same slotted-CSR arrays as adjacency_view_t
/// (rows [row_begin[v], row_end[v]) of one column array, K int32 weights per slot, slot-major),
/// except that every pointer is a device pointer.
template <class vid_t, class eid_t>
using device_adjacency_t = adjacency_view_t<vid_t, eid_t>;

/// Knobs for benchmarks and tests; the defaults (0) pick tuned values from the mean degree.
struct tuning_t {
  /// Lanes that relax one work item together: 4, 8, 16 or 32.
  int group_size = 0;
  /// Resident blocks per multiprocessor of the persistent kernel (capped by occupancy).
  int blocks_per_sm = 0;
};

/// Computes distances from `source` into `d_dist` (n int64) and canonical parents into
/// `d_parents` (n entries), both device pointers, using weight column `objective`. `out` and
/// `in` are the out- and in-edges of the same graph. `delta` is the bucket width; 0 picks one
/// from a sample of the weights. `stream` is a cudaStream_t (nullptr: default stream); the
/// call returns after the work on it has finished. Weights must be >= 1 (the caller validates,
/// as the CPU backends do). Throws invalid_argument_error for a bad source, objective or
/// mismatched views, not_supported_error for an unweighted graph, out_of_memory_error when the
/// workspace does not fit, cuda_error for a CUDA failure, convergence_error if the search
/// exceeded its round limit (only possible with invalid weights).
template <class vid_t, class eid_t>
void compute(const device_adjacency_t<vid_t, eid_t>& out, const device_adjacency_t<vid_t, eid_t>& in,
             vid_t source, int objective, int64_t delta, void* stream, int64_t* d_dist,
             vid_t* d_parents, stats_t& stats, const tuning_t& tuning = {});

/// Canonical parents for given device distances (one pass over the in-edges, as compute() does
/// after its search). Used by compute() and by the incremental path once it exists.
template <class vid_t, class eid_t>
void canonical_parents(const device_adjacency_t<vid_t, eid_t>& in, vid_t source, int objective,
                       const int64_t* d_dist, void* stream, vid_t* d_parents);

extern template void compute<int32_t, int32_t>(const device_adjacency_t<int32_t, int32_t>&,
                                               const device_adjacency_t<int32_t, int32_t>&,
                                               int32_t, int, int64_t, void*, int64_t*, int32_t*,
                                               stats_t&, const tuning_t&);
extern template void compute<int32_t, int64_t>(const device_adjacency_t<int32_t, int64_t>&,
                                               const device_adjacency_t<int32_t, int64_t>&,
                                               int32_t, int, int64_t, void*, int64_t*, int32_t*,
                                               stats_t&, const tuning_t&);
extern template void compute<int64_t, int64_t>(const device_adjacency_t<int64_t, int64_t>&,
                                               const device_adjacency_t<int64_t, int64_t>&,
                                               int64_t, int, int64_t, void*, int64_t*, int64_t*,
                                               stats_t&, const tuning_t&);
extern template void canonical_parents<int32_t, int32_t>(const device_adjacency_t<int32_t, int32_t>&,
                                                         int32_t, int, const int64_t*, void*,
                                                         int32_t*);
extern template void canonical_parents<int32_t, int64_t>(const device_adjacency_t<int32_t, int64_t>&,
                                                         int32_t, int, const int64_t*, void*,
                                                         int32_t*);
extern template void canonical_parents<int64_t, int64_t>(const device_adjacency_t<int64_t, int64_t>&,
                                                         int64_t, int, const int64_t*, void*,
                                                         int64_t*);

}  // namespace dyng::sssp::cuda
