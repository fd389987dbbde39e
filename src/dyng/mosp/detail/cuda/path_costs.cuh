// Path costs along the MOSP tree on the device (path_costs.hpp is the host's, with the rules):
// each vertex first takes the K weights of its tree edge, the first (p, v) slot of its parent
// p's out-row (a pass over every slot keeps the lowest matching one; rows longer than a chunk
// are read a chunk a warp), then pointer jumping adds
// the costs of ever longer ancestor chains until every chain has reached the source: log2(depth)
// passes over n*K entries, with no per-level bookkeeping. Included by mosp_cuda.cu only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::mosp::detail::cuda {

inline constexpr unsigned long long k_no_slot = ~0ull;

/// A row's slots are read in chunks of this many: the warp that owns a row reads its first chunk
/// and lists the rest for tree_edge_chunks_kernel, so no warp walks a hub's whole row alone (one
/// warp reading a row of tens of thousands of slots was most of the pass; bench/README.md).
inline constexpr int64_t k_row_chunk = 256;

/// The chunks after the first of the rows longer than k_row_chunk: row and first slot of each.
template <class vid_t>
struct row_chunks_t {
  vid_t* rows;
  int64_t* starts;
  unsigned long long* count;  ///< chunks listed so far
};

/// At most this many chunks are listed for a graph of `num_edges` edges (every listed chunk but
/// a row's last holds k_row_chunk edges, and each listed row has one more unlisted).
inline int64_t row_chunk_capacity(int64_t num_edges) { return num_edges / k_row_chunk + 1; }

/// Lowers first_slot[v] to s for each slot s in [from, to) of u's out-row that holds (u, v) with
/// parents[v] == u. A warp's lanes read consecutive slots.
template <class vid_t, class eid_t>
__device__ void lower_tree_slots(const adjacency_view_t<vid_t, eid_t>& out, const vid_t* parents,
                                 unsigned long long* first_slot, int64_t u, int64_t from,
                                 int64_t to, int lane) {
  for (int64_t s = from + lane; s < to; s += 32) {
    const vid_t v = out.col[s];
    if (parents[v] == static_cast<vid_t>(u)) {
      atomicMin(first_slot + v, static_cast<unsigned long long>(s));
    }
  }
}

/// first_slot[v] (k_no_slot on entry) = the lowest slot of (parents[v], v) in the out-rows, from
/// the first k_row_chunk slots of each row; the rest of a longer row is listed in `chunks`. One
/// warp per row, so rows are read coalesced.
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(::dyng::cuda::k_block_threads)
    tree_edge_slots_kernel(adjacency_view_t<vid_t, eid_t> out, const vid_t* parents,
                           unsigned long long* first_slot, row_chunks_t<vid_t> chunks) {
  ::dyng::cuda::for_each_item_by_warp(out.num_vertices, [&](int64_t u, int lane) {
    const int64_t begin = out.row_begin[u];
    const int64_t end = out.row_end[u];
    const int64_t first_end = end - begin > k_row_chunk ? begin + k_row_chunk : end;
    if (first_end < end) {  // the same on every lane of the warp
      const int64_t more = (end - first_end + k_row_chunk - 1) / k_row_chunk;
      unsigned long long base = 0;
      if (lane == 0) base = atomicAdd(chunks.count, static_cast<unsigned long long>(more));
      base = __shfl_sync(0xffffffffu, base, 0);
      for (int64_t i = lane; i < more; i += 32) {
        chunks.rows[base + i] = static_cast<vid_t>(u);
        chunks.starts[base + i] = first_end + i * k_row_chunk;
      }
    }
    lower_tree_slots(out, parents, first_slot, u, begin, first_end, lane);
  });
}

/// The listed chunks of tree_edge_slots_kernel, a warp a chunk.
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(::dyng::cuda::k_block_threads)
    tree_edge_chunks_kernel(adjacency_view_t<vid_t, eid_t> out, const vid_t* parents,
                            unsigned long long* first_slot, row_chunks_t<vid_t> chunks) {
  ::dyng::cuda::for_each_item_by_warp(
      static_cast<int64_t>(*chunks.count), [&](int64_t c, int lane) {
        const vid_t u = chunks.rows[c];
        const int64_t from = chunks.starts[c];
        const int64_t row_end = out.row_end[u];
        lower_tree_slots(out, parents, first_slot, u, from,
                         from + k_row_chunk < row_end ? from + k_row_chunk : row_end, lane);
      });
}

/// Each vertex's own tree-edge weights (0 at the source, infinite where unreachable) and the
/// ancestor its chain continues from (-1 once it has reached the source).
template <class vid_t, class eid_t>
__global__ void __launch_bounds__(::dyng::cuda::k_block_threads)
    edge_costs_kernel(adjacency_view_t<vid_t, eid_t> out, int k, vid_t source, const vid_t* parents,
                      const unsigned long long* first_slot, int64_t* costs, vid_t* ancestor) {
  const int64_t n = out.num_vertices;
  for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const unsigned long long slot = first_slot[v];
    const bool reached = v == source || (parents[v] >= 0 && slot != k_no_slot);
    for (int i = 0; i < k; ++i) {
      costs[v * k + i] = v == source ? 0
                         : reached   ? out.weights[static_cast<int64_t>(slot) * out.num_weights + i]
                                     : sssp::k_infinite_distance;
    }
    ancestor[v] = v == source || !reached ? vid_t{-1} : parents[v];
  }
}

/// One doubling step: v adds its ancestor's chain cost and jumps to that ancestor's ancestor.
/// Sets *more when some chain is still open.
template <class vid_t>
__global__ void __launch_bounds__(::dyng::cuda::k_block_threads)
    jump_kernel(int64_t n, int k, const int64_t* costs_in, const vid_t* ancestor_in,
                int64_t* costs_out, vid_t* ancestor_out, int* more) {
  bool open = false;
  for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const vid_t a = ancestor_in[v];
    if (a < 0) {
      for (int i = 0; i < k; ++i) costs_out[v * k + i] = costs_in[v * k + i];
      ancestor_out[v] = a;
      continue;
    }
    // An unreachable ancestor (a chain that does not end at the source) leaves v unreachable.
    const bool dead = costs_in[static_cast<int64_t>(a) * k] == sssp::k_infinite_distance;
    for (int i = 0; i < k; ++i) {
      costs_out[v * k + i] = dead ? sssp::k_infinite_distance
                                  : costs_in[v * k + i] + costs_in[static_cast<int64_t>(a) * k + i];
    }
    const vid_t next = dead ? vid_t{-1} : ancestor_in[a];
    ancestor_out[v] = next;
    open = open || next >= 0;
  }
  if (open) *more = 1;
}

}  // namespace dyng::mosp::detail::cuda
