// Host side of an update's frontier rounds on the GPU (frontier_kernels.cuh): seeds the frontier
// from the batch, then per round collects it into a vertex list, reads back its size and
// in-slots (the round's cost, which the budget counts), computes the dangling mass of the
// current ranks, recomputes the listed ranks and flags the next frontier. It stops when the
// frontier empties, after max_iter rounds, or before a round that would take the edges read past
// the budget; the caller then runs warm full iterations either way (power_launch.cuh). Included by
// pagerank_cuda.cu only.
#pragma once

#include <cstdint>

#include "dyng/core/errors.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/pagerank/detail/cuda/frontier_kernels.cuh"
#include "dyng/pagerank/detail/cuda/power_launch.cuh"
#include "dyng/pagerank/detail/frontier_result.hpp"

namespace dyng::pagerank::detail::cuda {

/// The frontier's flags and lists (n entries each, on `stream`).
template <class vid_t>
struct frontier_space_t {
  device_buffer<unsigned char> flags, expand;
  device_buffer<vid_t> list, moved;
  device_buffer<double> next;
  device_buffer<round_counters_t> counters;

  frontier_space_t(int64_t n, void* stream)
      : flags(room_for<unsigned char>(n, stream)),
        expand(room_for<unsigned char>(n, stream)),
        list(room_for<vid_t>(n, stream)),
        moved(room_for<vid_t>(n, stream)),
        next(room_for<double>(n, stream)),
        counters(room_for<round_counters_t>(1, stream)) {
    flags.fill_bytes(0);
    expand.fill_bytes(0);
  }
};

/// What the rounds read besides the iteration's vectors.
template <class vid_t, class eid_t>
struct frontier_setup_t {
  const iteration_setup_t<vid_t, eid_t>& iteration;
  adjacency_view_t<vid_t, eid_t> out;  ///< Device out-rows.
  bool directed = true;
  double threshold = 0.0;
};

/// Reads the round's counters; throws internal_error when a list overflowed.
inline round_counters_t read_counters(const round_counters_t* counters, void* stream) {
  const round_counters_t found = read_value(counters, stream);
  if (found.status != 0) {
    throw internal_error("pagerank (CUDA): a frontier list overflowed; this is a bug in dyng");
  }
  return found;
}

/// Flags the batch's seeds in fs.flags: the changes (device memory), the new vertices from
/// `old_vertices` on, and the out-neighbours of the changed tails and the new vertices.
template <class vid_t, class eid_t>
void seed_frontier(const frontier_setup_t<vid_t, eid_t>& setup,
                   const edge_change_t<vid_t>* changes, int64_t num_changes,
                   int64_t old_vertices, int64_t n, frontier_space_t<vid_t>& fs, void* stream) {
  fs.counters.fill_bytes(0);
  if (num_changes > 0) {
    seed_changes<<<grid_for(num_changes), k_block_threads, 0, as_stream(stream)>>>(
        changes, num_changes, setup.directed, fs.flags.data(), fs.expand.data());
    check_launch();
  }
  if (old_vertices < n) {
    seed_new_vertices<<<grid_for(n - old_vertices), k_block_threads, 0, as_stream(stream)>>>(
        old_vertices, n, fs.flags.data(), fs.expand.data());
    check_launch();
  }
  collect_flagged<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(
      fs.expand.data(), n, setup.iteration.in, false, fs.moved.data(), fs.counters.data());
  check_launch();
  flag_out_neighbours<<<grid_for(32 * n), k_block_threads, 0, as_stream(stream)>>>(
      setup.out, fs.moved.data(), &fs.counters.data()->listed, fs.flags.data());
  check_launch();
}

/// One round on the `listed` vertices of fs.list (fs.counters as collect_flagged left them).
template <class vid_t, class eid_t>
void run_round(const frontier_setup_t<vid_t, eid_t>& setup, int64_t listed,
               iteration_space_t& space, frontier_space_t<vid_t>& fs) {
  void* stream = space.stream;
  start_shares(space, false);  // the dangling mass of the ranks before the round
  const iteration_setup_t<vid_t, eid_t>& it = setup.iteration;
  const round_args_t<vid_t, eid_t> args{it.in,          fs.list.data(),     listed,
                                        it.alpha,       it.jump,            space.inverse.data(),
                                        space.dangling_mass(), space.x.data(), space.share.data(),
                                        fs.next.data()};
  const unsigned grid = tile_grid(tiles_of(listed));
  if (it.weighted) {
    frontier_round<true><<<grid, k_block_threads, 0, as_stream(stream)>>>(args);
  } else {
    frontier_round<false><<<grid, k_block_threads, 0, as_stream(stream)>>>(args);
  }
  check_launch();
  apply_round<<<grid_for(listed), k_block_threads, 0, as_stream(stream)>>>(
      args, setup.threshold, fs.flags.data(), fs.moved.data(),
      static_cast<unsigned long long>(space.n), fs.counters.data());
  check_launch();
  flag_out_neighbours<<<grid_for(32 * listed), k_block_threads, 0, as_stream(stream)>>>(
      setup.out, fs.moved.data(), &fs.counters.data()->moved, fs.flags.data());
  check_launch();
}

/// The frontier rounds on space.x (the warm start, its shares not yet made) after the batch whose
/// effective changes are `changes`; space.share holds the shares of space.x when it returns.
template <class vid_t, class eid_t>
frontier_result_t<vid_t> run_frontier(const frontier_setup_t<vid_t, eid_t>& setup,
                               const edge_change_t<vid_t>* changes, int64_t num_changes,
                               int64_t old_vertices, int64_t edge_budget,
                               iteration_space_t& space, const char* fn) {
  frontier_result_t<vid_t> result;
  const int64_t n = space.n;
  if (n == 0) return result;
  frontier_space_t<vid_t> fs(n, space.stream);
  seed_frontier(setup, changes, num_changes, old_vertices, n, fs, space.stream);
  start_shares(space);
  while (result.rounds < setup.iteration.max_iter) {
    ::dyng::cuda::throw_if_cancelled_on(space.stream, fn);
    fs.counters.fill_bytes(0);
    collect_flagged<<<grid_for(n), k_block_threads, 0, as_stream(space.stream)>>>(
        fs.flags.data(), n, setup.iteration.in, true, fs.list.data(), fs.counters.data());
    check_launch();
    const round_counters_t found = read_counters(fs.counters.data(), space.stream);
    const auto listed = static_cast<int64_t>(found.listed);
    if (result.rounds == 0) result.seeds = listed;
    if (listed == 0) break;
    // The round's cost is known before it runs, and the full iterations that follow start from
    // wherever the rounds stopped: a round that would pass the budget is not run at all.
    if (result.edges_read + static_cast<int64_t>(found.slots) > edge_budget) {
      result.within_budget = false;
      break;
    }
    run_round(setup, listed, space, fs);
    result.edges_read += static_cast<int64_t>(found.slots);
    result.vertices_touched += listed;
    result.touched_per_round.push_back(listed);
    ++result.rounds;
  }
  read_counters(fs.counters.data(), space.stream);  // the last round's lists did not overflow
  return result;
}

}  // namespace dyng::pagerank::detail::cuda
