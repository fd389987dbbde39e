// Host side of PageRank's power iteration on the GPU: the vectors one compute or update iterates
// with, the out-weights, the starting vectors (uniform, or a warm start scaled to sum 1), and the
// loop of full iterations until the L1 change of one is below n * tol (the host's test,
// power_iteration.hpp), reading that change back after each. Included by pagerank_cuda.cu and
// frontier_launch.cuh only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_stop.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/pagerank/detail/cuda/iteration_kernels.cuh"
#include "dyng/pagerank/detail/cuda/row_sums.cuh"
#include "dyng/pagerank/detail/power_iteration.hpp"

namespace dyng::pagerank::detail::cuda {

using ::dyng::cuda::as_stream;
using ::dyng::cuda::device_buffer;

inline void check_launch() { DYNG_CUDA_CHECK(cudaGetLastError()); }

/// Room for `n` entries (at least one, so that an empty graph still gets a valid pointer).
template <class T>
device_buffer<T> room_for(int64_t n, void* stream) {
  return device_buffer<T>(static_cast<size_t>(std::max<int64_t>(1, n)), stream);
}

/// A device value, after the work before it on `stream`.
template <class T>
T read_value(const T* value, void* stream) {
  T host{};
  ::dyng::cuda::copy_to_host(&host, value, sizeof(T), stream);
  ::dyng::cuda::synchronize(stream);
  return host;
}

/// Grid for a grid-stride kernel over `items`.
inline unsigned grid_for(long long items) { return ::dyng::cuda::stride_blocks(items, 8); }

/// The vectors of one compute or update (n entries each, on `stream`): the ranks x and the
/// shares x / W of this iteration and the next, 1 / W, the per-tile partial sums (residual and
/// dangling mass side by side) and three device scalars (residual, dangling mass, rank sum).
struct iteration_space_t {
  int64_t n;
  int64_t tiles;
  void* stream;
  device_buffer<double> x, next, share, next_share, inverse, parts, scalars;

  iteration_space_t(int64_t vertices, void* s)
      : n(vertices),
        tiles(tiles_of(vertices)),
        stream(s),
        x(room_for<double>(vertices, s)),
        next(room_for<double>(vertices, s)),
        share(room_for<double>(vertices, s)),
        next_share(room_for<double>(vertices, s)),
        inverse(room_for<double>(vertices, s)),
        parts(room_for<double>(2 * tiles_of(vertices), s)),
        scalars(room_for<double>(3, s)) {}

  double* residual() { return scalars.data(); }
  double* dangling_mass() { return scalars.data() + 1; }
  double* rank_sum() { return scalars.data() + 2; }
};

/// space.inverse from the out-rows; returns false when a weight is negative (the caller names
/// the edge: the rows are on the device).
template <class vid_t, class eid_t>
bool build_inverse(const adjacency_view_t<vid_t, eid_t>& out, bool weighted,
                   iteration_space_t& space) {
  if (space.n == 0) return true;
  auto negative = room_for<int>(1, space.stream);
  negative.fill_bytes(0);
  const unsigned grid = tile_grid(space.tiles);
  if (weighted) {
    inverse_out_weights<true><<<grid, k_block_threads, 0, as_stream(space.stream)>>>(
        out, space.n, space.inverse.data(), negative.data());
  } else {
    inverse_out_weights<false><<<grid, k_block_threads, 0, as_stream(space.stream)>>>(
        out, space.n, space.inverse.data(), negative.data());
  }
  check_launch();
  return read_value(negative.data(), space.stream) == 0;
}

/// space.share of space.x, and its dangling mass into space.dangling_mass(); with `sum_too`,
/// also the sum of the ranks into space.rank_sum() (the frontier rounds keep both along).
inline void start_shares(iteration_space_t& space, bool sum_too = false) {
  if (space.n == 0) return;
  shares_of<<<tile_grid(space.tiles), k_block_threads, 0, as_stream(space.stream)>>>(
      space.x.data(), space.inverse.data(), space.n, space.share.data(), space.parts.data(),
      sum_too ? space.parts.data() + space.tiles : nullptr);
  check_launch();
  // dangling_mass() and rank_sum() are side by side.
  sum_partials<<<1, k_block_threads, 0, as_stream(space.stream)>>>(
      space.parts.data(), space.tiles, space.tiles, sum_too ? 2 : 1, space.dangling_mass());
  check_launch();
}

/// space.x = 1 / n everywhere: a compute's start.
inline void start_uniform(iteration_space_t& space) {
  if (space.n == 0) return;
  scale_ranks<<<grid_for(space.n), k_block_threads, 0, as_stream(space.stream)>>>(
      space.x.data(), space.n, nullptr, 1.0 / static_cast<double>(space.n));
  check_launch();
}

/// Scales space.x to sum 1 (uniform when it sums to 0): a frontier round moves some ranks only,
/// and a warm start with new vertices sums to more than 1.
inline void scale_to_one(iteration_space_t& space) {
  if (space.n == 0) return;
  rank_sums<<<tile_grid(space.tiles), k_block_threads, 0, as_stream(space.stream)>>>(
      space.x.data(), space.n, space.parts.data());
  check_launch();
  sum_partials<<<1, k_block_threads, 0, as_stream(space.stream)>>>(
      space.parts.data(), space.tiles, space.tiles, 1, space.rank_sum());
  check_launch();
  scale_ranks<<<grid_for(space.n), k_block_threads, 0, as_stream(space.stream)>>>(
      space.x.data(), space.n, space.rank_sum(), 1.0 / static_cast<double>(space.n));
  check_launch();
}

/// What power_iterate() iterates with besides its vectors.
template <class vid_t, class eid_t>
struct iteration_setup_t {
  adjacency_view_t<vid_t, eid_t> in;  ///< Device in-rows (the out-rows of an undirected graph).
  bool weighted = false;
  double alpha = 0.85;
  double tol = 1e-6;
  int64_t max_iter = 100;
  int64_t in_slots = 0;  ///< Slots of the in-rows, read by every iteration.
  jump_t jump;
};

/// Full iterations from space.x until converged or max_iter; space.x holds the last iterate.
/// Polls the stop flag between iterations (`fn` names the call in the error).
template <class vid_t, class eid_t>
run_result_t power_iterate(const iteration_setup_t<vid_t, eid_t>& setup, iteration_space_t& space,
                           const char* fn) {
  run_result_t run;
  if (space.n == 0) {
    run.converged = true;
    return run;
  }
  start_shares(space);
  const unsigned grid = tile_grid(space.tiles);
  const double limit = static_cast<double>(space.n) * setup.tol;
  while (run.iterations < setup.max_iter) {
    ::dyng::cuda::throw_if_cancelled_on(space.stream, fn);
    const iteration_args_t<vid_t, eid_t> args{setup.in,
                                              space.n,
                                              setup.alpha,
                                              setup.jump,
                                              space.inverse.data(),
                                              space.x.data(),
                                              space.share.data(),
                                              space.dangling_mass(),
                                              space.next.data(),
                                              space.next_share.data(),
                                              space.parts.data(),
                                              space.parts.data() + space.tiles};
    if (setup.weighted) {
      full_iteration<true><<<grid, k_block_threads, 0, as_stream(space.stream)>>>(args);
    } else {
      full_iteration<false><<<grid, k_block_threads, 0, as_stream(space.stream)>>>(args);
    }
    check_launch();
    // Residual and the next dangling mass, which the next iteration reads on the device.
    sum_partials<<<1, k_block_threads, 0, as_stream(space.stream)>>>(
        space.parts.data(), space.tiles, space.tiles, 2, space.scalars.data());
    check_launch();
    std::swap(space.x, space.next);
    std::swap(space.share, space.next_share);
    ++run.iterations;
    run.edges_read += setup.in_slots + space.n;
    run.residual = read_value(space.residual(), space.stream);
    if (run.residual < limit) {
      run.converged = true;
      return run;
    }
  }
  return run;
}

}  // namespace dyng::pagerank::detail::cuda
