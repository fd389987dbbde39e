// Host side of the CUDA SSSP update: sssp's steps for the shared dynamic-update policy
// (core/dynamic_update.hpp) on the GPU, the repair's workspace and budget.
//
// The repair runs three stages on the caller's stream, with one host synchronisation after each
// (its counters decide what comes next):
//   1. repair_cut_kernel (repair_cut.cuh): snapshot, cut the subtrees of changed tree edges, seed;
//   2. the seeded near-far search (near_far.cuh), stopped past the budget;
//   3. the parent repair (repair_parents.cuh and the listed parent pass of parents.cuh).
// A repair that would relax more than `repair_budget` x stored edges, or is predicted to before
// anything is cut (far-reaching lowerings, repair_cut.cuh), reports over budget; the policy then
// recomputes on the same buffers (no undo first: the compute overwrites every entry), counting
// what differs from the snapshot taken in stage 1. If a step throws, the snapshot is copied back. docs/developer/gpu-sssp.md has the method and the measurements behind the defaults.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/sssp/detail/cuda/launch.cuh"
#include "dyng/sssp/detail/cuda/repair_cut.cuh"
#include "dyng/sssp/detail/cuda/repair_parents.cuh"
#include "dyng/sssp/sssp_cuda.hpp"

namespace dyng::sssp::cuda {
namespace {

namespace kernels = ::dyng::sssp::detail::cuda;
using ::dyng::cuda::device_buffer;
using kernels::as_stream;

constexpr const char* k_fn = "sssp::cuda::update()";

constexpr int64_t k_max_delta = int64_t{1} << 61;

/// Stored edges charged for each far-reaching lowering (repair_cut.cuh, phase 2): a 64th of a
/// full search. On a 2048 x 2048 grid a uniform batch's repair took 79 M relaxations for an
/// estimated ~250 such lowerings, ~m / 53 each (gpu-sssp.md, "Update").
constexpr unsigned long long k_far_lowering_share = 64;

template <class vid_t, class eid_t>
void check_arguments(const device_adjacency_t<vid_t, eid_t>& out,
                     const device_adjacency_t<vid_t, eid_t>& in, int objective,
                     const device_state_t<vid_t>& state) {
  kernels::check_view(out, k_fn, "out-edge", objective);
  kernels::check_view(in, k_fn, "in-edge", objective);
  const long long n = out.num_vertices;
  if (in.num_vertices != out.num_vertices) {
    throw invalid_argument_error(std::string(k_fn) + ": the out-edge view has " +
                                 std::to_string(n) + " vertices but the in-edge view " +
                                 std::to_string(in.num_vertices) + "; pass views of one graph");
  }
  ::dyng::sssp::detail::check_source(state.source, static_cast<vid_t>(state.num_vertices), k_fn);
  if (static_cast<unsigned long long>(n) > kernels::k_vertex_mask) {
    throw capacity_error(std::string(k_fn) + ": " + std::to_string(n) +
                         " vertices exceed the 2^40 that work items can name; use a smaller graph");
  }
  if (state.num_vertices > 0 && (state.distances.empty() || state.parents.empty())) {
    throw invalid_argument_error(std::string(k_fn) + ": the result has no device arrays; pass "
                                 "the result of compute() or update()");
  }
}

/// What one repair attempt ended with.
enum class repair_end_t { done, over_budget };

/// The repair's scratch memory; freed before a fallback so that compute() can reuse it.
template <class vid_t>
struct repair_workspace_t {
  device_buffer<edge_change_t<vid_t>> changes;
  device_buffer<long long> change_weight;
  device_buffer<unsigned> flags;
  device_buffer<unsigned long long> words;
  device_buffer<unsigned long long> seed_pieces;
  device_buffer<int> stamps;
  device_buffer<kernels::item_t> queues;
};

template <class vid_t, class eid_t>
class repair_t {
 public:
  repair_t(const device_adjacency_t<vid_t, eid_t>& out, const device_adjacency_t<vid_t, eid_t>& in,
           vid_t source, int objective, void* stream, int64_t* d_dist, vid_t* d_parents,
           int64_t* d_old_dist, vid_t* d_old_parents,
           device_buffer<kernels::update_control_t>& control)
      : out_(out),
        in_(in),
        source_(source),
        objective_(objective),
        stream_(stream),
        dist_(reinterpret_cast<kernels::dist_t*>(d_dist)),
        parents_(d_parents),
        old_dist_(reinterpret_cast<kernels::dist_t*>(d_old_dist)),
        old_parents_(d_old_parents),
        control_(control) {}

  /// Runs the repair within `budget` relaxations. `delta` is compute()'s bucket width: the
  /// repair's (unless tuning sets one apart) and the measure of a far-reaching lowering. Throws
  /// (with the caller's arrays unchanged) when a changed edge has a weight below 1.
  repair_end_t run(const change_log_t<vid_t>& log, unsigned long long stored_edges,
                   unsigned long long budget, int64_t delta, const tuning_t& tuning,
                   stats_t& stats, bool& snapshot_taken) {
    const long long n = out_.num_vertices;
    const double mean_degree = static_cast<double>(stored_edges) / static_cast<double>(n);
    const int group_size =
        tuning.group_size > 0 ? tuning.group_size : kernels::pick_group_size(mean_degree);
    const int blocks_per_sm =
        tuning.blocks_per_sm > 0 ? tuning.blocks_per_sm : kernels::pick_blocks_per_sm(mean_degree);
    const unsigned long long capacity = static_cast<unsigned long long>(n) +
                                        stored_edges / kernels::chunk_edges_of(group_size) + 64;

    // (1) Snapshot, cut, seed.
    std::optional<stage_scope_t> stage(std::in_place, "sssp.workspace");
    const long long num_changes = static_cast<long long>(log.changes.size());
    repair_workspace_t<vid_t> w;
    w.changes = device_buffer<edge_change_t<vid_t>>(std::max<long long>(1, num_changes), stream_);
    w.changes.copy_from_host(log.changes.data(), static_cast<size_t>(num_changes));
    w.change_weight = device_buffer<long long>(std::max<long long>(1, num_changes), stream_);
    w.flags = device_buffer<unsigned>(static_cast<size_t>(n), stream_);
    w.words = device_buffer<unsigned long long>(static_cast<size_t>(n), stream_);
    const unsigned long long seed_capacity =
        static_cast<unsigned long long>(n) + stored_edges / kernels::k_seed_piece_slots + 64;
    w.seed_pieces = device_buffer<unsigned long long>(seed_capacity, stream_);
    w.stamps = device_buffer<int>(2 * static_cast<size_t>(n), stream_);
    w.queues = device_buffer<kernels::item_t>(4 * capacity, stream_);

    kernels::repair_params_t<vid_t, eid_t> cut;
    cut.out = out_;
    cut.in = in_;
    cut.objective = objective_;
    cut.changes = w.changes.data();
    cut.num_changes = num_changes;
    cut.change_weight = w.change_weight.data();
    cut.dist = dist_;
    cut.parents = parents_;
    cut.old_dist = old_dist_;
    cut.old_parents = old_parents_;
    cut.flags = w.flags.data();
    cut.words = w.words.data();
    cut.seed_pieces = w.seed_pieces.data();
    cut.seed_piece_capacity = seed_capacity;
    cut.near_stamp = w.stamps.data();
    cut.far_stamp = w.stamps.data() + n;
    cut.far_queue = w.queues.data() + 2 * capacity;
    cut.queue_capacity = capacity;
    cut.control = control_.data();
    cut.far_delta = static_cast<kernels::dist_t>(delta);
    cut.far_charge = std::max<unsigned long long>(1, stored_edges / k_far_lowering_share);
    cut.budget = budget;
    stage.emplace("sssp.identify_affected");
    {
      auto* kernel = kernels::repair_cut_kernel<vid_t, eid_t>;
      ::dyng::cuda::launch_cooperative(kernel, kernels::cooperative_blocks(kernel, 8, k_fn), cut,
                                       as_stream(stream_));
    }
    kernels::update_control_t host = read_control();
    snapshot_taken = true;  // phase 1 of the kernel has run; what follows may be undone
    if (host.repair.status == kernels::k_repair_bad_weight) throw_bad_weight(log, w, host);
    check_overflow(host);
    stats.invalidated = static_cast<int64_t>(host.repair.invalidated);
    // Predicted too large, a cycle in the parents (not a result of compute), or a cut that
    // alone costs the budget.
    if (host.repair.status == kernels::k_repair_predicted_over_budget ||
        host.repair.status == kernels::k_repair_bad_tree || host.repair.cut_in_edges > budget) {
      return repair_end_t::over_budget;
    }

    // (2) The search from the seeds.
    stage.emplace("sssp.loop");
    if (host.search.far_count[0] > 0) {
      kernels::near_far_params_t<vid_t, eid_t> params;
      params.out = out_;
      params.objective = objective_;
      params.source = source_;
      params.delta = static_cast<kernels::dist_t>(
          tuning.repair_delta > 0 ? std::min(tuning.repair_delta, k_max_delta) : delta);
      params.max_rounds = std::min<long long>(INT_MAX - 1, 8 * n + 4096);
      params.dist = dist_;
      params.near_stamp = w.stamps.data();
      params.far_stamp = w.stamps.data() + n;
      for (int q = 0; q < 2; ++q) {
        params.near_queue[q] = w.queues.data() + q * capacity;
        params.far_queue[q] = w.queues.data() + (2 + q) * capacity;
      }
      params.capacity = capacity;
      params.control = &control_.data()->search;
      params.work_budget = budget - host.repair.cut_in_edges;
      kernels::dispatch_search<true>(group_size, params, blocks_per_sm, as_stream(stream_));
      host = read_control();
      check_overflow(host);
      stats.iterations = host.search.rounds;
      stats.epochs = host.search.epochs;
      stats.pushes = static_cast<int64_t>(host.search.pushes);
      // The round limit is only reachable with weights < 1 elsewhere in the graph: compute()
      // reports it.
      if (host.search.status == kernels::k_status_budget ||
          host.search.status == kernels::k_status_round_limit) {
        return repair_end_t::over_budget;
      }
    }
    stats.frontier_visits =
        static_cast<int64_t>(host.search.relaxations + host.repair.cut_in_edges);

    // (3) Parents where they can have changed. The search's pushes are in; its queues are not
    // needed any more and lend their memory to the lists.
    stage.emplace("sssp.finalize");
    w.queues.reset();
    w.stamps.reset();
    device_buffer<vid_t> full_list(static_cast<size_t>(n), stream_);
    const unsigned long long merge_capacity =
        static_cast<unsigned long long>(n) + stored_edges / kernels::k_merge_piece_slots + 64;
    device_buffer<unsigned long long> merge_pieces(merge_capacity, stream_);
    kernels::repair_control_t* repair = &control_.data()->repair;
    const cudaStream_t s = as_stream(stream_);
    kernels::classify_kernel<vid_t, eid_t><<<kernels::stride_blocks(n, 8), kernels::k_block_threads,
                                             0, s>>>(out_, dist_, old_dist_, w.flags.data(),
                                                     full_list.data(), merge_pieces.data(),
                                                     merge_capacity, repair);
    DYNG_CUDA_CHECK(cudaGetLastError());
    device_buffer<unsigned long long> parent_pieces;
    kernels::launch_parents(in_, source_, objective_, reinterpret_cast<const int64_t*>(dist_), s,
                            parents_, stored_edges, &control_.data()->search, parent_pieces,
                            full_list.data(), &repair->full_count, n);
    kernels::merge_kernel<vid_t, eid_t><<<kernels::stride_blocks(n, 8), kernels::k_block_threads,
                                          0, s>>>(out_, objective_, source_, dist_, old_dist_,
                                                  old_parents_, w.flags.data(), parents_,
                                                  merge_pieces.data(), merge_capacity,
                                                  full_list.data(), repair);
    DYNG_CUDA_CHECK(cudaGetLastError());
    host = read_control();
    check_overflow(host);
    stats.affected = static_cast<int64_t>(host.repair.affected);
    return repair_end_t::done;
  }

 private:
  kernels::update_control_t read_control() {
    kernels::update_control_t host{};
    control_.copy_to_host(&host, 1);
    return host;
  }

  void check_overflow(const kernels::update_control_t& host) const {
    if (host.repair.overflow != 0 || host.search.status == kernels::k_status_overflow) {
      throw internal_error(std::string(k_fn) + ": a work list overflowed; the in- and out-edge "
                           "views disagree, or this is a bug in libdyng");
    }
  }

  [[noreturn]] void throw_bad_weight(const change_log_t<vid_t>& log, repair_workspace_t<vid_t>& w,
                                     const kernels::update_control_t& host) {
    const long long i = host.repair.bad_change;
    long long weight = 0;
    ::dyng::cuda::copy_to_host(&weight, w.change_weight.data() + i, sizeof weight, stream_);
    ::dyng::cuda::synchronize(stream_);
    const edge_change_t<vid_t>& change = log.changes[static_cast<size_t>(i)];
    ::dyng::sssp::detail::throw_bad_weight("sssp.update()", change.src, change.dst, weight,
                                           objective_);
  }

  device_adjacency_t<vid_t, eid_t> out_;
  device_adjacency_t<vid_t, eid_t> in_;
  vid_t source_;
  int objective_;
  void* stream_;
  kernels::dist_t* dist_;
  vid_t* parents_;
  kernels::dist_t* old_dist_;
  vid_t* old_parents_;
  device_buffer<kernels::update_control_t>& control_;
};

/// sssp's steps for run_update() on the GPU (see the file comment).
template <class vid_t, class eid_t>
class device_update_steps_t {
 public:
  using stats_type = stats_t;
  /// recompute() writes every entry and counts against its own snapshot.
  static constexpr bool k_recompute_overwrites = true;

  /// `stored_edges` < 0: counted on the device (with a wait).
  device_update_steps_t(const device_adjacency_t<vid_t, eid_t>& out,
                        const device_adjacency_t<vid_t, eid_t>& in, int objective, int64_t delta,
                        void* stream, device_state_t<vid_t>& state, const tuning_t& tuning,
                        int64_t stored_edges)
      : out_(out),
        in_(in),
        objective_(objective),
        delta_(delta),
        stream_(stream),
        state_(state),
        tuning_(tuning) {
    if (stored_edges >= 0) {
      stored_edges_ = static_cast<unsigned long long>(stored_edges);
    } else {
      count_and_sample(needs_width());
    }
  }

  int64_t result_vertices() const { return state_.num_vertices; }
  int64_t work_scale() const { return static_cast<int64_t>(stored_edges_); }
  double default_budget() const { return k_default_gpu_repair_budget; }

  /// New vertices start unreached; the repair then finds the ones the batch connected.
  void grow(int64_t n) { ::dyng::cuda::grow(state_, n, stream_); }
  /// The grown buffers stay: they only need to hold at least num_vertices entries.
  void shrink(int64_t n) noexcept { state_.num_vertices = n; }

  bool repair(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    stats.record(k_engine);
    if (log.changes.empty()) return true;  // new vertices stay unreached; nothing else moves
    if (needs_width()) {
      const stage_scope_t sample_stage("sssp.sample_weights");
      count_and_sample(true);
    }
    const int64_t width = delta_ > 0 ? std::min(k_max_delta, delta_) : state_.repair_width;
    allocate_snapshot();
    control_ = device_buffer<kernels::update_control_t>(1, stream_);
    control_.fill_bytes(0);
    repair_t<vid_t, eid_t> repair(out_, in_, state_.source, objective_, stream_,
                                  state_.distances.data(), state_.parents.data(),
                                  old_dist_.data(), old_parents_.data(), control_);
    return repair.run(log, stored_edges_, static_cast<unsigned long long>(budget), width, tuning_,
                      stats, snapshot_taken_) == repair_end_t::done;
  }

  /// Copies the snapshot back. A CUDA failure here leaves nothing to restore from, so it is
  /// swallowed: the error that made the policy undo is the one the caller sees.
  void undo() noexcept {
    if (!snapshot_taken_) return;
    try {
      restore_snapshot();
    } catch (...) {
    }
  }

  /// A full compute on the state's arrays, then what differs from the snapshot.
  void recompute(stats_t& stats) {
    if (!snapshot_taken_) {  // no repair ran (budget 0): take the snapshot here
      allocate_snapshot();
      const auto n = static_cast<size_t>(state_.num_vertices);
      ::dyng::cuda::copy_on_device(old_dist_.data(), state_.distances.data(), n * sizeof(int64_t),
                                   stream_);
      ::dyng::cuda::copy_on_device(old_parents_.data(), state_.parents.data(), n * sizeof(vid_t),
                                   stream_);
      snapshot_taken_ = true;
    }
    const int64_t invalidated = stats.invalidated;
    try {
      compute(out_, in_, state_.source, objective_, delta_, stream_, state_.distances.data(),
              state_.parents.data(), stats, tuning_);
      stats.affected = count_changed();
    } catch (...) {
      undo();
      throw;
    }
    stats.invalidated = invalidated;
  }

 private:
  static constexpr engine_t k_engine{"fused", "near_far"};

  /// The repair width is compute()'s pick, kept in the state (device_state_t::repair_width).
  bool needs_width() const { return delta_ <= 0 && state_.repair_width <= 0; }

  /// Counts the stored edges on the device (waits) and, with `sample`, keeps compute()'s bucket
  /// width for the sampled weights in the state.
  void count_and_sample(bool sample) {
    device_buffer<kernels::control_t> control(1, stream_);
    control.fill_bytes(0);
    const kernels::control_t counts = kernels::count_edges(out_, objective_, sample, control);
    stored_edges_ = counts.stored_edges;
    if (!sample) return;
    const double mean_weight = counts.sampled_weight_count > 0
                                   ? static_cast<double>(counts.sampled_weight_sum) /
                                         static_cast<double>(counts.sampled_weight_count)
                                   : 1.0;
    state_.repair_width = std::min(k_max_delta, kernels::pick_delta(mean_weight));
  }

  void allocate_snapshot() {
    if (!old_dist_.empty() || state_.num_vertices == 0) return;
    old_dist_ = device_buffer<int64_t>(static_cast<size_t>(state_.num_vertices), stream_);
    old_parents_ = device_buffer<vid_t>(static_cast<size_t>(state_.num_vertices), stream_);
  }

  void restore_snapshot() {
    const auto n = static_cast<size_t>(state_.num_vertices);
    ::dyng::cuda::copy_on_device(state_.distances.data(), old_dist_.data(), n * sizeof(int64_t),
                                 stream_);
    ::dyng::cuda::copy_on_device(state_.parents.data(), old_parents_.data(), n * sizeof(vid_t),
                                 stream_);
    ::dyng::cuda::synchronize(stream_);
  }

  int64_t count_changed() {
    const long long n = state_.num_vertices;
    device_buffer<unsigned long long> differ(1, stream_);
    differ.fill_bytes(0);
    kernels::count_differences_kernel<vid_t>
        <<<kernels::stride_blocks(n, 8), kernels::k_block_threads, 0, as_stream(stream_)>>>(
            n, reinterpret_cast<const kernels::dist_t*>(state_.distances.data()),
            state_.parents.data(), reinterpret_cast<const kernels::dist_t*>(old_dist_.data()),
            old_parents_.data(), differ.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
    unsigned long long affected = 0;
    differ.copy_to_host(&affected, 1);
    return static_cast<int64_t>(affected);
  }

  device_adjacency_t<vid_t, eid_t> out_;
  device_adjacency_t<vid_t, eid_t> in_;
  int objective_;
  int64_t delta_;
  void* stream_;
  device_state_t<vid_t>& state_;
  tuning_t tuning_;
  unsigned long long stored_edges_ = 0;
  device_buffer<kernels::update_control_t> control_;
  // The state before the batch (grown), written by the repair's first kernel or by recompute().
  device_buffer<int64_t> old_dist_;
  device_buffer<vid_t> old_parents_;
  bool snapshot_taken_ = false;
};

}  // namespace

template <class vid_t, class eid_t>
void update(const device_adjacency_t<vid_t, eid_t>& out, const device_adjacency_t<vid_t, eid_t>& in,
            const change_log_t<vid_t>& log, int objective, int64_t delta, double repair_budget,
            void* stream, device_state_t<vid_t>& state, stats_t& stats, const tuning_t& tuning,
            int64_t stored_edges) {
  check_arguments(out, in, objective, state);
  device_update_steps_t<vid_t, eid_t> steps(out, in, objective, delta, stream, state, tuning,
                                            stored_edges);
  stats = run_update(steps, log, static_cast<int64_t>(out.num_vertices), repair_budget, k_fn);
}

#define DYNG_INSTANTIATE_SSSP_CUDA_UPDATE(vid_t, eid_t)                                        \
  template void update<vid_t, eid_t>(const device_adjacency_t<vid_t, eid_t>&,                 \
                                     const device_adjacency_t<vid_t, eid_t>&,                 \
                                     const change_log_t<vid_t>&, int, int64_t, double, void*,  \
                                     device_state_t<vid_t>&, stats_t&, const tuning_t&,  \
                                     int64_t);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_SSSP_CUDA_UPDATE)
#undef DYNG_INSTANTIATE_SSSP_CUDA_UPDATE

}  // namespace dyng::sssp::cuda
