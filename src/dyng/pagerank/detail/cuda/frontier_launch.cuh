// Host side of an update's frontier rounds on the GPU (frontier_kernels.cuh), the host phase's
// method (frontier_iteration.hpp) with its residual bound: the seeds are planned on the host
// (frontier_seeds.hpp) from the ranks and out-degrees of the batch's tails, gathered from the
// device; then each round collects the frontier into a list, reads back its size and in-slots
// (the round's cost, which the budget counts) with the sums of the round before (which lower the
// bound), recomputes the listed ranks, and flags the next frontier. The rounds stop when the
// frontier empties, after max_iter rounds, or before a round that would take the edges read past
// the budget. Included by pagerank_cuda.cu only.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "dyng/core/errors.hpp"
#include "dyng/core/stage_scope.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/pagerank/detail/cuda/frontier_kernels.cuh"
#include "dyng/pagerank/detail/cuda/power_launch.cuh"
#include "dyng/pagerank/detail/frontier_result.hpp"
#include "dyng/pagerank/detail/frontier_seeds.hpp"
#include "dyng/pagerank/detail/teleport.hpp"

namespace dyng::pagerank::detail::cuda {

/// The frontier's flags and lists (n entries each, on `stream`).
template <class vid_t>
struct frontier_space_t {
  long long collect_tiles;
  device_buffer<unsigned char> flags;
  device_buffer<vid_t> list, moved;
  device_buffer<double> next, parts;
  device_buffer<unsigned> tile_counts, degrees;
  device_buffer<unsigned long long> tile_starts, slot_starts, slot_total;
  device_buffer<round_report_t> report;

  frontier_space_t(int64_t n, void* stream)
      : collect_tiles((n + k_collect_tile - 1) / k_collect_tile),
        flags(room_for<unsigned char>(n, stream)),
        list(room_for<vid_t>(n, stream)),
        moved(room_for<vid_t>(n, stream)),
        next(room_for<double>(n, stream)),
        parts(room_for<double>(4 * tiles_of(n), stream)),
        tile_counts(room_for<unsigned>(collect_tiles, stream)),
        degrees(room_for<unsigned>(n, stream)),
        tile_starts(room_for<unsigned long long>(collect_tiles, stream)),
        slot_starts(room_for<unsigned long long>(n, stream)),
        slot_total(room_for<unsigned long long>(1, stream)),
        report(room_for<round_report_t>(1, stream)) {
    flags.fill_bytes(0);
    report.fill_bytes(0);
  }
};

/// What the rounds read besides the iteration's vectors.
template <class vid_t, class eid_t>
struct frontier_setup_t {
  const iteration_setup_t<vid_t, eid_t>& iteration;
  adjacency_view_t<vid_t, eid_t> out;  ///< Device out-rows.
  const teleport_t& teleport;          ///< p and d on the host (the dangling seeds).
  double threshold = 0.0;
  /// A first round that would read more in-edges than this is not run (pagerank_cuda.hpp's
  /// k_gpu_first_round_share), nor, for a batch of head_check_changes changes or more, planned.
  int64_t first_round_limit = std::numeric_limits<int64_t>::max();
  int64_t head_check_changes = std::numeric_limits<int64_t>::max();
};

/// Reads the report; throws internal_error when a list overflowed.
inline round_report_t read_report(const round_report_t* report, void* stream) {
  const round_report_t found = read_value(report, stream);
  if (found.status != 0) {
    throw internal_error("pagerank (CUDA): a frontier list overflowed; this is a bug in dyng");
  }
  return found;
}

/// Flags the out-neighbours of list[0 .. count) (count from *count_at when not nullptr): their
/// degrees, where each one's slots start, then a grid over all the slots.
template <class vid_t, class eid_t>
void flag_out_neighbours(const adjacency_view_t<vid_t, eid_t>& out, const vid_t* list,
                         const unsigned long long* count_at, long long count,
                         frontier_space_t<vid_t>& fs, void* stream) {
  const unsigned grid = grid_for(std::max<long long>(count, fs.degrees.size()));
  list_out_degrees<<<grid, k_block_threads, 0, as_stream(stream)>>>(out, list, count_at, count,
                                                                    fs.degrees.data());
  check_launch();
  scan_counts<<<1, k_block_threads, 0, as_stream(stream)>>>(
      fs.degrees.data(), count_at, count, fs.slot_starts.data(), fs.slot_total.data());
  check_launch();
  flag_out_slots<<<grid, k_block_threads, 0, as_stream(stream)>>>(
      out, list, count_at, count, fs.slot_starts.data(), fs.slot_total.data(), fs.flags.data());
  check_launch();
}

/// `values` in a device buffer of its own (at least one entry).
template <class T>
device_buffer<T> upload_list(const std::vector<T>& values, void* stream) {
  auto buffer = room_for<T>(static_cast<int64_t>(values.size()), stream);
  if (!values.empty()) buffer.copy_from_host(values.data(), values.size());
  return buffer;
}

/// flags[v] = 1 for each v of `vertices` (host memory).
template <class vid_t>
void flag_vertices(const std::vector<vid_t>& vertices, unsigned char* flags, void* stream) {
  if (vertices.empty()) return;
  const auto list = upload_list(vertices, stream);
  const auto count = static_cast<long long>(vertices.size());
  flag_listed<<<grid_for(count), k_block_threads, 0, as_stream(stream)>>>(list.data(), count,
                                                                          flags);
  check_launch();
  // No wait: `list` goes back to the stream-ordered pool behind the kernel that reads it.
}

/// Flags the batch's seeds (frontier_seeds.hpp) in fs.flags: the heads of `changes` (device
/// memory), the new vertices, the planned tails' out-neighbours and the dangling targets.
/// Returns the L1 change the batch made to one full iteration of space.x.
template <class vid_t, class eid_t>
double seed_frontier(const frontier_setup_t<vid_t, eid_t>& setup, const change_log_t<vid_t>& log,
                     const edge_change_t<vid_t>* changes, iteration_space_t& space,
                     frontier_space_t<vid_t>& fs) {
  void* stream = space.stream;
  const iteration_setup_t<vid_t, eid_t>& it = setup.iteration;
  // The device holds the rows: a graph that its device copy applies to keeps no host rows.
  const seed_tails_t<vid_t> seeds(log);
  const auto& inputs = seeds.inputs;
  std::vector<double> gathered(3 * inputs.size());
  if (!inputs.empty()) {
    const auto list = upload_list(inputs, stream);
    auto values = room_for<double>(static_cast<int64_t>(gathered.size()), stream);
    const auto count = static_cast<long long>(inputs.size());
    gather_seed_inputs<<<grid_for(count), k_block_threads, 0, as_stream(stream)>>>(
        list.data(), count, space.x.data(), space.inverse.data(), setup.out, values.data());
    check_launch();
    ::dyng::cuda::copy_to_host(gathered.data(), values.data(), gathered.size() * sizeof(double),
                               stream);
    ::dyng::cuda::synchronize(stream);
  }
  const auto plan = plan_seeds(
      seeds, log, it.weighted, it.alpha, setup.threshold,
      [&](vid_t, size_t at) { return gathered[3 * at]; },
      [&](vid_t, size_t at) { return gathered[3 * at + 1] == 0.0; },
      [&](vid_t, size_t at) { return static_cast<int64_t>(gathered[3 * at + 2]); });
  const auto num_changes = static_cast<long long>(log.changes.size());
  if (num_changes > 0) {
    flag_heads<<<grid_for(num_changes), k_block_threads, 0, as_stream(stream)>>>(
        changes, num_changes, fs.flags.data());
    check_launch();
  }
  std::vector<vid_t> marked;
  for (vid_t v = log.num_vertices_before; v < log.num_vertices_after; ++v) marked.push_back(v);
  if (dangling_targets_are_all(setup.teleport, it.alpha, plan.dangling_mass, setup.threshold)) {
    fs.flags.fill_bytes(1);
  } else {
    mark_dangling_targets(setup.teleport, space.n, it.alpha, plan.dangling_mass, setup.threshold,
                          [&](int64_t v) { marked.push_back(static_cast<vid_t>(v)); });
  }
  flag_vertices(marked, fs.flags.data(), stream);
  if (!plan.expand.empty()) {
    const auto expand = upload_list(plan.expand, stream);
    flag_out_neighbours(setup.out, expand.data(), nullptr,
                        static_cast<long long>(plan.expand.size()), fs, stream);
  }
  return plan.shift;
}

/// Collects fs.flags into fs.list (increasing vertex order; flags cleared) with their count
/// and in-slots in fs.report (its counters zeroed first).
template <class vid_t, class eid_t>
void collect_frontier(const adjacency_view_t<vid_t, eid_t>& in, int64_t n,
                      frontier_space_t<vid_t>& fs, void* stream);

/// Whether the heads of `changes` (device memory), every one of them in the first round, have
/// more in-edges than setup.first_round_limit: counted by a collect of their flags (which it
/// clears again) and one wait, before anything of the seed plan is paid for.
template <class vid_t, class eid_t>
bool heads_pass_limit(const frontier_setup_t<vid_t, eid_t>& setup,
                      const edge_change_t<vid_t>* changes, long long num_changes, int64_t n,
                      frontier_space_t<vid_t>& fs, void* stream) {
  flag_heads<<<grid_for(num_changes), k_block_threads, 0, as_stream(stream)>>>(changes, num_changes,
                                                                               fs.flags.data());
  check_launch();
  collect_frontier(setup.iteration.in, n, fs, stream);
  const auto slots = read_report(fs.report.data(), stream).slots;
  return static_cast<int64_t>(slots) > setup.first_round_limit;
}

template <class vid_t, class eid_t>
void collect_frontier(const adjacency_view_t<vid_t, eid_t>& in, int64_t n,
                      frontier_space_t<vid_t>& fs, void* stream) {
  // Not the status (an overflow stays reported) nor the sums of the round before (not read yet).
  DYNG_CUDA_CHECK(
      cudaMemsetAsync(fs.report.data(), 0, offsetof(round_report_t, status), as_stream(stream)));
  const unsigned grid = ::dyng::cuda::stride_blocks(fs.collect_tiles * k_block_threads, 8);
  count_flagged<<<grid, k_block_threads, 0, as_stream(stream)>>>(fs.flags.data(), n,
                                                                 fs.tile_counts.data());
  check_launch();
  scan_counts<<<1, k_block_threads, 0, as_stream(stream)>>>(fs.tile_counts.data(), nullptr,
                                                            fs.collect_tiles, fs.tile_starts.data(),
                                                            &fs.report.data()->listed);
  check_launch();
  list_flagged<<<grid, k_block_threads, 0, as_stream(stream)>>>(
      fs.flags.data(), n, fs.tile_starts.data(), in, fs.list.data(), fs.report.data());
  check_launch();
}

/// One round on the `listed` vertices of fs.list: their new ranks, the round's sums (into
/// fs.report's sums, the dangling mass and rank sum moved by them), then the ranks written and
/// the next frontier flagged.
template <class vid_t, class eid_t>
void run_round(const frontier_setup_t<vid_t, eid_t>& setup, int64_t listed,
               iteration_space_t& space, frontier_space_t<vid_t>& fs) {
  void* stream = space.stream;
  const iteration_setup_t<vid_t, eid_t>& it = setup.iteration;
  const round_args_t<vid_t, eid_t> args{it.in,
                                        fs.list.data(),
                                        listed,
                                        it.alpha,
                                        it.jump,
                                        space.inverse.data(),
                                        space.dangling_mass(),
                                        space.x.data(),
                                        space.share.data(),
                                        fs.next.data()};
  const long long tiles = tiles_of(listed);
  const unsigned grid = tile_grid(tiles);
  const long long per_tile = rows_per_tile(listed, ::dyng::cuda::multiprocessor_count());
  const unsigned round_grid = tile_grid((listed + per_tile - 1) / per_tile);
  if (it.weighted) {
    frontier_round<true><<<round_grid, k_block_threads, 0, as_stream(stream)>>>(args, per_tile);
  } else {
    frontier_round<false><<<round_grid, k_block_threads, 0, as_stream(stream)>>>(args, per_tile);
  }
  check_launch();
  round_sums<<<grid, k_block_threads, 0, as_stream(stream)>>>(args, fs.parts.data(), tiles);
  check_launch();
  double* sums = fs.report.data()->sums;
  sum_partials<<<1, k_block_threads, 0, as_stream(stream)>>>(fs.parts.data(), tiles, tiles, 4,
                                                             sums);
  check_launch();
  advance_masses<<<1, 1, 0, as_stream(stream)>>>(sums, space.scalars.data());
  check_launch();
  apply_round<<<grid_for(listed), k_block_threads, 0, as_stream(stream)>>>(
      args, setup.threshold, fs.moved.data(), static_cast<unsigned long long>(space.n),
      fs.report.data());
  check_launch();
  flag_out_neighbours(setup.out, fs.moved.data(), &fs.report.data()->moved, listed, fs, stream);
}

/// The residual bound's bookkeeping on the host (frontier_iteration.hpp's, same formulas): the
/// dangling mass as the rounds move it and the rounding error it has gathered.
struct bound_keeper_t {
  double alpha;
  double dangling;
  double dangling_error;

  /// Lowers `bound` by a round over `listed` vertices with the given sums.
  void account(const double* sums, int64_t listed, double& bound) {
    const double moved = sums[0];
    bound -= (1.0 - alpha) * moved - sums[3] - 2.0 * dangling_error;
    dangling += sums[2];
    dangling_error += DBL_EPSILON * static_cast<double>(listed + 8) * (std::fabs(dangling) + moved);
  }
};

/// The frontier rounds on space.x (ranks on the graph after the batch whose effective changes
/// are `log`, `changes` their device copy) and its inverse out-weights; `start_bound` bounds one
/// more full iteration's L1 change on the graph before the batch. space.share, the dangling mass
/// and space.rank_sum() hold those of space.x when it returns, and the result the bound.
template <class vid_t, class eid_t>
frontier_result_t<vid_t> run_frontier(const frontier_setup_t<vid_t, eid_t>& setup,
                                      const change_log_t<vid_t>& log,
                                      const edge_change_t<vid_t>* changes, int64_t edge_budget,
                                      double start_bound, iteration_space_t& space,
                                      const char* fn) {
  frontier_result_t<vid_t> result;
  const int64_t n = space.n;
  if (n == 0) return result;
  std::optional<stage_scope_t> stage(std::in_place, "pagerank.seed");
  frontier_space_t<vid_t> fs(n, space.stream);
  const auto num_changes = static_cast<long long>(log.changes.size());
  if (num_changes >= setup.head_check_changes &&
      heads_pass_limit(setup, changes, num_changes, n, fs, space.stream)) {
    result.within_budget = false;  // nothing planned, nothing of space.x written
    return result;
  }
  result.residual_bound = start_bound + seed_frontier(setup, log, changes, space, fs);
  start_shares(space, true);
  double masses[3];
  ::dyng::cuda::copy_to_host(masses, space.scalars.data(), sizeof(masses), space.stream);
  ::dyng::cuda::synchronize(space.stream);
  // Tile sums, then one block over the tiles: a generous bound on the sum's rounding.
  bound_keeper_t keeper{
      setup.iteration.alpha, masses[1],
      DBL_EPSILON * static_cast<double>(k_block_threads + space.tiles + 8) * masses[1]};
  int64_t pending = -1;  // the size of a round whose sums are not accounted yet
  stage.emplace("pagerank.rounds");
  while (true) {
    ::dyng::cuda::throw_if_cancelled_on(space.stream, fn);
    collect_frontier(setup.iteration.in, n, fs, space.stream);
    const round_report_t found = read_report(fs.report.data(), space.stream);
    if (pending >= 0) keeper.account(found.sums, pending, result.residual_bound);
    pending = -1;
    const auto listed = static_cast<int64_t>(found.listed);
    if (result.rounds == 0) result.seeds = listed;
    if (listed == 0 || result.rounds >= setup.iteration.max_iter) break;
    // The round's cost is known before it runs: a round that would pass the budget (or a first
    // round past its own limit) is not run.
    const auto slots = static_cast<int64_t>(found.slots);
    if (result.edges_read + slots > edge_budget ||
        (result.rounds == 0 && slots > setup.first_round_limit)) {
      result.within_budget = false;
      break;
    }
    run_round(setup, listed, space, fs);
    pending = listed;
    result.edges_read += static_cast<int64_t>(found.slots);
    result.vertices_touched += listed;
    result.touched_per_round.push_back(listed);
    ++result.rounds;
  }
  ::dyng::cuda::copy_to_host(masses, space.scalars.data(), sizeof(masses), space.stream);
  ::dyng::cuda::synchronize(space.stream);
  result.sum = masses[2];
  return result;
}

}  // namespace dyng::pagerank::detail::cuda
