// sssp on device adjacency views: the GPU algorithms that the entry points of sssp_cuda.hpp,
// mosp's GPU code, the tests and the benchmarks call with a graph already in device memory.
//
// No CUDA types here (streams are void*), so host code can include it; the kernels live in
// detail/cuda/*.cuh, their host sides in sssp_cuda.cu (compute) and sssp_cuda_update.cu (update).
// Results are bit-identical to the CPU backends: int64 distances (k_infinite_distance when
// unreachable) and the canonical parent, the lowest-id in-neighbour u != v with
// dist[u] + w(u, v) == dist[v] (-1 for the source and unreachable vertices). update() repairs them
// after a batch, with the CPU's scheme (cut the subtrees of changed tree edges, seed, search, redo
// the parents that can change) and a GPU recompute when the repair grows too large. See
// docs/developer/gpu-sssp.md for the method and measurements.
#pragma once

#include <cstdint>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/sssp/sssp.hpp"
#include "dyng/sssp/sssp_cuda.hpp"

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
  /// update(): bucket width of the repair search; 0 uses compute()'s (the call's delta, or the
  /// one compute() would pick). For experiments (docs/developer/gpu-sssp.md, "Update").
  int64_t repair_delta = 0;
};

/// What a compute() found out that its result's updates reuse (prepare_for_updates): the
/// bucket width the search ran with and the graph's stored edges (-1: not counted).
struct search_report_t {
  int64_t width = 0;
  int64_t stored_edges = -1;
};

/// Computes distances from `source` into `d_dist` (n int64) and canonical parents into
/// `d_parents` (n entries), both device pointers, using weight column `objective`. `out` and
/// `in` are the out- and in-edges of the same graph. `delta` is the bucket width; 0 picks one
/// from a sample of the weights. `stream` is a cudaStream_t (nullptr: default stream); the
/// call returns after the work on it has finished. Weights must be >= 1 (the caller validates,
/// as the CPU backends do). Throws invalid_argument_error for a bad source, objective or
/// mismatched views, not_supported_error for an unweighted graph, out_of_memory_error when the
/// workspace does not fit, cuda_error for a CUDA failure, convergence_error if the search
/// exceeded its round limit (only possible with invalid weights). `report`, when given,
/// receives the bucket width the search ran with and the stored edges it counted.
template <class vid_t, class eid_t>
void compute(const device_adjacency_t<vid_t, eid_t>& out,
             const device_adjacency_t<vid_t, eid_t>& in, vid_t source, int objective, int64_t delta,
             void* stream, int64_t* d_dist, vid_t* d_parents, stats_t& stats,
             const tuning_t& tuning = {}, search_report_t* report = nullptr);

/// compute() for `num_objectives` weight columns at once (mosp's trees): column first_objective
/// + o gets its n distances at d_dist + o*n and its parents at d_parents + o*n. One joint search
/// over vertex-objective items (near_far.cuh), so the K searches share rounds and barriers
/// instead of running one after another; then one parent pass per column. `stats` holds the
/// joint search's counters. Each column's results equal a compute() of that column alone.
template <class vid_t, class eid_t>
void compute_joint(const device_adjacency_t<vid_t, eid_t>& out,
                   const device_adjacency_t<vid_t, eid_t>& in, vid_t source, int first_objective,
                   int num_objectives, int64_t delta, void* stream, int64_t* d_dist,
                   vid_t* d_parents, stats_t& stats, const tuning_t& tuning = {},
                   search_report_t* report = nullptr);

/// Repairs `state` (the result of compute() or update() for the graph before the batch, on the
/// current device) after a batch, through the shared dynamic-update policy
/// (core/dynamic_update.hpp): vertices the batch added join as unreached, the GPU repair runs
/// within its budget, else the state is put back and recomputed on the GPU. `out`/`in` are
/// device views of the graph AFTER the batch; `log` (host memory) is what graph_t::apply()
/// recorded. `repair_budget` is the fraction of stored edges the repair may relax (seeding scans
/// included) before it gives up; 0 always recomputes, negative picks
/// k_default_gpu_repair_budget. Changed edges that lower their head by more than a bucket width
/// are charged part of the budget up front, so a batch that moves most of the graph goes straight
/// to the recompute. `delta` is the bucket width of the repair and the fallback compute; 0 picks
/// compute()'s from a sample of the weights. Fills stats (path incremental or recompute,
/// fallback_used, affected, invalidated, iterations, frontier_visits, pushes, engine_used);
/// returns after the work on `stream` has finished. Results are bit-identical to a fresh
/// compute(). Throws invalid_argument_error for bad arguments or a changed edge whose weight is
/// below 1, and what compute() throws; `state` is then as it was.
template <class vid_t, class eid_t>
void update(const device_adjacency_t<vid_t, eid_t>& out, const device_adjacency_t<vid_t, eid_t>& in,
            const change_log_t<vid_t>& log, int objective, int64_t delta, double repair_budget,
            void* stream, device_state_t<vid_t>& state, stats_t& stats, const tuning_t& tuning = {},
            int64_t stored_edges = -1);

/// Readies a fresh compute's `state` for update(), so that its first update costs what the
/// later ones do: the repair memory allocated and mirrored now, the report's width (0: none to
/// keep, as when the caller set delta) kept as the repair width, and, when the report counted
/// the stored edges, the first repair's workspace made once so that the pool holds it.
/// compute() through the entry points calls it; a state that skipped it, or for which the
/// memory did not fit (no error then: the result stands), gets the same done by its first
/// update.
template <class vid_t>
void prepare_for_updates(device_state_t<vid_t>& state, const search_report_t& report, void* stream);

/// One pass over `out`'s rows (with a wait): the stored edges and, with `pick_width`, the bucket
/// width compute() would pick for weight column `objective` (0 without).
template <class vid_t, class eid_t>
search_report_t survey(const device_adjacency_t<vid_t, eid_t>& out, int objective, bool pick_width,
                       void* stream);

/// True when every used slot of `out` holds a weight >= 1 in column `objective` (one pass over
/// the device weights; the host scan would cost more than the whole GPU search).
template <class vid_t, class eid_t>
bool weights_positive(const device_adjacency_t<vid_t, eid_t>& out, int objective, void* stream);

/// Canonical parents for given device distances (one pass over the in-edges, as compute() does
/// after its search).
template <class vid_t, class eid_t>
void canonical_parents(const device_adjacency_t<vid_t, eid_t>& in, vid_t source, int objective,
                       const int64_t* d_dist, void* stream, vid_t* d_parents);

}  // namespace dyng::sssp::cuda
