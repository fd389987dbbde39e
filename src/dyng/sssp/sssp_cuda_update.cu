// Host side of the CUDA SSSP update: sssp's steps for the shared dynamic-update policy
// (core/dynamic_update.hpp) on the GPU, the repair's memory and budget.
//
// The repair runs three stages on the caller's stream and waits once, at the end:
//   1. repair_cut_kernel (repair_cut.cuh): cut the subtrees of changed tree edges, seed;
//   2. the seeded near-far search (near_far.cuh), stopped past the budget;
//   3. the parent repair (repair_parents.cuh and the listed parent pass of parents.cuh), then the
//      clean-up of every vertex the update touched (settle_kernel).
// Each stage reads the verdicts of the ones before it on the device (a bad weight, a budget
// passed) and does nothing when one gave up, so the host queues them all without waiting.
// Between updates the state keeps a mirror of itself and clean per-vertex flags and stamps
// (repair_memory_t, sssp_cuda.hpp), so none of the stages is O(n) for a small batch; the first
// update of a state, or the first after a fallback or a failure, mirrors it whole first. A repair
// that would relax more than `repair_budget` x stored edges, or is predicted to before anything
// is cut (far-reaching lowerings, repair_cut.cuh), reports over budget; the policy then
// recomputes on the same buffers (no undo first: the compute overwrites every entry), counting
// what differs from the mirror. If a step throws, the state is copied back from the mirror.
// docs/developer/gpu-sssp.md has the method and the measurements behind the defaults.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_stop.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/sssp/detail/cuda/launch.cuh"
#include "dyng/sssp/detail/cuda/repair_cut.cuh"
#include "dyng/sssp/detail/cuda/repair_parents.cuh"
#include "dyng/sssp/detail/cuda_views.hpp"

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
    throw invalid_argument_error(std::string(k_fn) +
                                 ": the result has no device arrays; pass "
                                 "the result of compute() or update()");
  }
}

/// What one repair attempt ended with.
enum class repair_end_t { done, over_budget };

/// The repair's scratch memory for one update (the per-vertex memory it keeps between updates
/// is the state's repair_memory_t); freed before a fallback so that compute() can reuse it.
template <class vid_t>
struct repair_workspace_t {
  device_buffer<edge_change_t<vid_t>> changes;
  device_buffer<long long> change_weight;
  device_buffer<unsigned long long> tree_pieces;
  device_buffer<unsigned long long> words;
  device_buffer<unsigned long long> seed_pieces;
  device_buffer<kernels::item_t> queues;
};

/// The repair workspace's capacities for a graph of `n` vertices and `stored_edges` stored
/// edges searched with `group_size` lanes per row: search queues of `queue` items each (every
/// vertex once plus the chunk items of long rows), and the cut kernel's piece lists.
struct workspace_capacity_t {
  unsigned long long queue;
  unsigned long long tree_pieces;
  unsigned long long seed_pieces;
};

inline workspace_capacity_t workspace_capacity(long long n, unsigned long long stored_edges,
                                               int group_size) {
  const auto vertices = static_cast<unsigned long long>(n);
  return {vertices + stored_edges / kernels::chunk_edges_of(group_size) + 64,
          vertices + stored_edges / kernels::k_tree_piece_slots + 64,
          vertices + stored_edges / kernels::k_seed_piece_slots + 64};
}

/// Allocates `w` for `num_changes` changes on `stream` (from the pool: device_allocator.cu keeps
/// what is freed, so a workspace of the same sizes later maps no new memory).
template <class vid_t>
void allocate_workspace(repair_workspace_t<vid_t>& w, long long n, long long num_changes,
                        const workspace_capacity_t& capacity, void* stream) {
  const auto changes = static_cast<size_t>(std::max<long long>(1, num_changes));
  w.changes = device_buffer<edge_change_t<vid_t>>(changes, stream);
  w.change_weight = device_buffer<long long>(changes, stream);
  w.tree_pieces = device_buffer<unsigned long long>(capacity.tree_pieces, stream);
  w.words =
      device_buffer<unsigned long long>(static_cast<size_t>(std::max<long long>(1, n)), stream);
  w.seed_pieces = device_buffer<unsigned long long>(capacity.seed_pieces, stream);
  w.queues = device_buffer<kernels::item_t>(4 * capacity.queue, stream);
}

/// The views of a state's repair memory that the kernels take.
template <class vid_t>
struct memory_view_t {
  kernels::dist_t* old_dist;
  vid_t* old_parents;
  unsigned* flags;
  int* near_stamp;
  int* far_stamp;
  vid_t* touched;
  vid_t* cut;
  unsigned long long capacity;
};

template <class vid_t>
memory_view_t<vid_t> view_of(repair_memory_t<vid_t>& memory) {
  return {reinterpret_cast<kernels::dist_t*>(memory.distances.data()),
          memory.parents.data(),
          memory.flags.data(),
          memory.stamps.data(),
          memory.stamps.data() + memory.capacity,
          memory.touched.data(),
          memory.cut.data(),
          static_cast<unsigned long long>(memory.capacity)};
}

/// mirror_kernel over [from, to) of `state` into its repair memory (flags and stamps cleaned);
/// returns the vertices that differed when `count` is set (with a wait).
template <class vid_t>
int64_t mirror_into(device_state_t<vid_t>& state, int64_t from, int64_t to, bool count,
                    void* stream) {
  repair_memory_t<vid_t>& memory = state.repair_memory;
  const memory_view_t<vid_t> m = view_of(memory);
  device_buffer<unsigned long long> differ;
  if (count) {
    differ = device_buffer<unsigned long long>(1, stream);
    differ.fill_bytes(0);
  }
  if (to > from) {
    kernels::mirror_kernel<vid_t>
        <<<kernels::stride_blocks(to - from, 8), kernels::k_block_threads, 0, as_stream(stream)>>>(
            from, to, reinterpret_cast<const kernels::dist_t*>(state.distances.data()),
            state.parents.data(), m.old_dist, m.old_parents, m.flags, m.near_stamp, m.far_stamp,
            count ? differ.data() : nullptr);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }
  memory.mirrored = to;
  if (!count) return 0;
  unsigned long long differing = 0;
  differ.copy_to_host(&differing, 1);
  return static_cast<int64_t>(differing);
}

/// Makes the state's repair memory cover every vertex, mirrored and clean: allocated (with an
/// eighth to spare for vertex growth) and mirrored whole when it is new or too small, only the
/// vertices a batch added when it is clean, whole again after a failure.
template <class vid_t>
void ready_repair_memory(device_state_t<vid_t>& state, void* stream) {
  const int64_t n = state.num_vertices;
  repair_memory_t<vid_t>& memory = state.repair_memory;
  if (memory.capacity < n) {
    const stage_scope_t memory_stage("sssp.repair_memory");
    memory = repair_memory_t<vid_t>{};
    const int64_t capacity = n + n / 8 + 64;
    const auto c = static_cast<size_t>(capacity);
    // Long-lived, so from the default stream (as the state's own arrays); waited for once.
    memory.distances = device_buffer<int64_t>(c);
    memory.parents = device_buffer<vid_t>(c);
    memory.flags = device_buffer<unsigned>(c);
    memory.stamps = device_buffer<int>(2 * c);
    memory.touched = device_buffer<vid_t>(c);
    memory.cut = device_buffer<vid_t>(c);
    memory.capacity = capacity;
    ::dyng::cuda::synchronize(nullptr);
  }
  if (memory.mirrored < 0) {
    const stage_scope_t mirror_stage("sssp.mirror");
    mirror_into(state, 0, n, false, stream);
  } else if (memory.mirrored < n) {
    mirror_into(state, memory.mirrored, n, false, stream);
  }
}

template <class vid_t, class eid_t>
class repair_t {
 public:
  repair_t(const device_adjacency_t<vid_t, eid_t>& out, const device_adjacency_t<vid_t, eid_t>& in,
           vid_t source, int objective, void* stream, int64_t* d_dist, vid_t* d_parents,
           const memory_view_t<vid_t>& memory, device_buffer<kernels::update_control_t>& control)
      : out_(out),
        in_(in),
        source_(source),
        objective_(objective),
        stream_(stream),
        dist_(reinterpret_cast<kernels::dist_t*>(d_dist)),
        parents_(d_parents),
        memory_(memory),
        control_(control) {}

  /// Runs the repair within `budget` relaxations. `delta` is compute()'s bucket width: the
  /// repair's (unless tuning sets one apart) and the measure of a far-reaching lowering. Throws
  /// (with the caller's arrays unchanged) when a changed edge has a weight below 1.
  repair_end_t run(const change_log_t<vid_t>& log, unsigned long long stored_edges,
                   unsigned long long budget, int64_t delta, const tuning_t& tuning,
                   stats_t& stats) {
    const long long n = out_.num_vertices;
    const double mean_degree = static_cast<double>(stored_edges) / static_cast<double>(n);
    const int group_size =
        tuning.group_size > 0 ? tuning.group_size : kernels::pick_group_size(mean_degree);
    const int blocks_per_sm =
        tuning.blocks_per_sm > 0 ? tuning.blocks_per_sm : kernels::pick_blocks_per_sm(mean_degree);
    const workspace_capacity_t capacity = workspace_capacity(n, stored_edges, group_size);
    std::optional<stage_scope_t> stage(std::in_place, "sssp.workspace");
    repair_workspace_t<vid_t> w;
    cut_and_seed(log, stored_edges, budget, delta, capacity, w, stage);
    stage.emplace("sssp.loop");
    search_from_seeds(budget,
                      tuning.repair_delta > 0 ? std::min(tuning.repair_delta, k_max_delta) : delta,
                      capacity.queue, group_size, blocks_per_sm, w);
    stage.emplace("sssp.finalize");
    repair_parents(stored_edges, w);

    // The one wait: every verdict comes back together. A stop is honoured here (the policy's
    // undo then puts the state back).
    const kernels::update_control_t host = read_control();
    ::dyng::cuda::throw_if_cancelled_on(stream_, k_fn);
    if (host.repair.status == kernels::k_repair_bad_weight) throw_bad_weight(log, w, host);
    check_overflow(host);
    stats.invalidated = static_cast<int64_t>(host.repair.invalidated);
    stats.iterations = host.search.rounds;
    stats.epochs = host.search.epochs;
    stats.pushes = static_cast<int64_t>(host.search.pushes);
    // Predicted too large, a cycle in the parents (not a result of compute), a cut that alone
    // costs the budget, or a search past it. The round limit is only reachable with weights
    // < 1 elsewhere in the graph: compute() reports it.
    if (host.repair.status != kernels::k_repair_ok ||
        host.search.status == kernels::k_status_budget ||
        host.search.status == kernels::k_status_round_limit) {
      return repair_end_t::over_budget;
    }
    stats.frontier_visits =
        static_cast<int64_t>(host.search.relaxations + host.repair.cut_in_edges);
    stats.affected = static_cast<int64_t>(host.repair.affected);
    return repair_end_t::done;
  }

 private:
  /// Step 1, cut and seed: uploads the changes, sizes the workspace `w` (search queues of
  /// `capacity` items each) and launches the cut kernel (repair_cut.cuh), which invalidates the
  /// subtrees below changed tree edges and seeds the search. Ends `stage` on the kernel's launch.
  void cut_and_seed(const change_log_t<vid_t>& log, unsigned long long stored_edges,
                    unsigned long long budget, int64_t delta, const workspace_capacity_t& capacity,
                    repair_workspace_t<vid_t>& w, std::optional<stage_scope_t>& stage) {
    const long long num_changes = static_cast<long long>(log.changes.size());
    allocate_workspace(w, out_.num_vertices, num_changes, capacity, stream_);
    w.changes.copy_from_host(log.changes.data(), static_cast<size_t>(num_changes));

    kernels::repair_params_t<vid_t, eid_t> cut;
    cut.out = out_;
    cut.in = in_;
    cut.objective = objective_;
    cut.changes = w.changes.data();
    cut.num_changes = num_changes;
    cut.change_weight = w.change_weight.data();
    cut.dist = dist_;
    cut.parents = parents_;
    cut.touched = touched_list();
    cut.cut = memory_.cut;
    cut.tree_pieces = w.tree_pieces.data();
    cut.tree_piece_capacity = capacity.tree_pieces;
    cut.words = w.words.data();
    cut.seed_pieces = w.seed_pieces.data();
    cut.seed_piece_capacity = capacity.seed_pieces;
    cut.far_stamp = memory_.far_stamp;
    cut.far_queue = w.queues.data() + 2 * capacity.queue;
    cut.queue_capacity = capacity.queue;
    cut.control = control_.data();
    cut.far_delta = static_cast<kernels::dist_t>(delta);
    cut.far_charge = std::max<unsigned long long>(1, stored_edges / k_far_lowering_share);
    cut.budget = budget;
    stage.emplace("sssp.identify_affected");
    auto* kernel = kernels::repair_cut_kernel<vid_t, eid_t>;
    ::dyng::cuda::launch_cooperative(kernel, kernels::cooperative_blocks(kernel, 8, k_fn), cut,
                                     as_stream(stream_));
  }

  /// Step 2, the search from the seeds with bucket width `width`; nothing when the cut kernel
  /// gave up or seeded nothing.
  void search_from_seeds(unsigned long long budget, int64_t width, unsigned long long capacity,
                         int group_size, int blocks_per_sm, repair_workspace_t<vid_t>& w) {
    const long long n = out_.num_vertices;
    kernels::near_far_params_t<vid_t, eid_t> params;
    params.out = out_;
    params.objective = objective_;
    params.source = source_;
    params.delta = static_cast<kernels::dist_t>(width);
    params.max_rounds = std::min<long long>(INT_MAX - 1, 8 * n + 4096);
    params.dist = dist_;
    params.near_stamp = memory_.near_stamp;
    params.far_stamp = memory_.far_stamp;
    for (int q = 0; q < 2; ++q) {
      params.near_queue[q] = w.queues.data() + q * capacity;
      params.far_queue[q] = w.queues.data() + (2 + q) * capacity;
    }
    params.capacity = capacity;
    params.control = &control_.data()->search;
    params.work_budget = budget;  // the cut kernel leaves its own work in control->work
    params.touched = touched_list();
    params.gate = &control_.data()->repair.status;
    kernels::dispatch_search<true>(group_size, params, blocks_per_sm, as_stream(stream_));
  }

  /// Step 3, parents where they can have changed, then the clean-up; nothing when the cut kernel
  /// or the search gave up. The search's queues are not needed any more and lend their memory to
  /// the lists.
  void repair_parents(unsigned long long stored_edges, repair_workspace_t<vid_t>& w) {
    const long long n = out_.num_vertices;
    w.queues.reset();
    w.words.reset();
    w.tree_pieces.reset();
    device_buffer<vid_t> full_list(static_cast<size_t>(n), stream_);
    const unsigned long long merge_capacity =
        static_cast<unsigned long long>(n) + stored_edges / kernels::k_merge_piece_slots + 64;
    device_buffer<unsigned long long> merge_pieces(merge_capacity, stream_);
    kernels::repair_control_t* repair = &control_.data()->repair;
    const cudaStream_t s = as_stream(stream_);
    // The lists are short for a small batch: a few blocks per multiprocessor cover them.
    const unsigned list_blocks = kernels::stride_blocks(n, 2);
    kernels::classify_kernel<vid_t, eid_t><<<list_blocks, kernels::k_block_threads, 0, s>>>(
        out_, dist_, memory_.old_dist, touched_list(), full_list.data(), merge_pieces.data(),
        merge_capacity, control_.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
    device_buffer<unsigned long long> parent_pieces;
    kernels::launch_parents(in_, source_, objective_, reinterpret_cast<const int64_t*>(dist_), s,
                            parents_, stored_edges, &control_.data()->search, parent_pieces,
                            full_list.data(), &repair->full_count, n);
    kernels::merge_kernel<vid_t, eid_t>
        <<<kernels::stride_blocks(n, 8), kernels::k_block_threads, 0, s>>>(
            out_, objective_, source_, dist_, memory_.old_dist, memory_.old_parents, touched_list(),
            parents_, merge_pieces.data(), merge_capacity, full_list.data(), repair);
    DYNG_CUDA_CHECK(cudaGetLastError());
    kernels::settle_kernel<vid_t><<<list_blocks, kernels::k_block_threads, 0, s>>>(
        dist_, parents_, touched_list(), memory_.old_dist, memory_.old_parents, memory_.near_stamp,
        memory_.far_stamp, control_.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
  }

  kernels::touched_list_t<vid_t> touched_list() const {
    return {memory_.flags, memory_.touched, &control_.data()->repair.touched_count,
            memory_.capacity};
  }

  kernels::update_control_t read_control() {
    kernels::update_control_t host{};
    control_.copy_to_host(&host, 1);
    return host;
  }

  void check_overflow(const kernels::update_control_t& host) const {
    if (host.repair.overflow != 0 || host.search.status == kernels::k_status_overflow) {
      throw internal_error(std::string(k_fn) +
                           ": a work list overflowed; the in- and out-edge "
                           "views disagree, or this is a bug in libdyng");
    }
  }

  [[noreturn]] void throw_bad_weight(const change_log_t<vid_t>& log, repair_workspace_t<vid_t>& w,
                                     const kernels::update_control_t& host) {
    const auto i = static_cast<long long>(~host.repair.bad_change);
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
  memory_view_t<vid_t> memory_;
  device_buffer<kernels::update_control_t>& control_;
};

/// sssp's steps for run_update() on the GPU (see the file comment).
template <class vid_t, class eid_t>
class device_update_steps_t {
 public:
  using stats_type = stats_t;
  /// recompute() writes every entry and counts against the mirror.
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
  /// The grown buffers stay: they only need to hold at least num_vertices entries. The mirror
  /// stops at n too, so that a later growth mirrors the vertices it adds again.
  void shrink(int64_t n) noexcept {
    state_.num_vertices = n;
    state_.repair_memory.mirrored = std::min(state_.repair_memory.mirrored, n);
  }

  bool repair(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    stats.record(k_engine);
    if (log.changes.empty()) return true;  // new vertices stay unreached; nothing else moves
    if (needs_width()) {
      const stage_scope_t sample_stage("sssp.sample_weights");
      count_and_sample(true);
    }
    const int64_t width = delta_ > 0 ? std::min(k_max_delta, delta_) : state_.repair_width;
    prepare_memory();
    control_ = device_buffer<kernels::update_control_t>(1, stream_);
    control_.fill_bytes(0);
    repaired_ = true;  // from here on the state and the flags move: undo() restores
    repair_t<vid_t, eid_t> repair(out_, in_, state_.source, objective_, stream_,
                                  state_.distances.data(), state_.parents.data(),
                                  view_of(state_.repair_memory), control_);
    const bool done = repair.run(log, stored_edges_, static_cast<unsigned long long>(budget), width,
                                 tuning_, stats) == repair_end_t::done;
    if (done) state_.repair_memory.mirrored = state_.num_vertices;  // settle_kernel cleaned up
    return done;
  }

  /// Copies the mirror back over the state. A CUDA failure here leaves nothing to restore from,
  /// so it is swallowed: the error that made the policy undo is the one the caller sees.
  void undo() noexcept {
    if (!repaired_) return;
    state_.repair_memory.mirrored = -1;  // flags and stamps are left as the repair had them
    try {
      const auto n = static_cast<size_t>(state_.num_vertices);
      const repair_memory_t<vid_t>& memory = state_.repair_memory;
      ::dyng::cuda::copy_on_device(state_.distances.data(), memory.distances.data(),
                                   n * sizeof(int64_t), stream_);
      ::dyng::cuda::copy_on_device(state_.parents.data(), memory.parents.data(), n * sizeof(vid_t),
                                   stream_);
      ::dyng::cuda::synchronize(stream_);
    } catch (...) {
    }
  }

  /// A full compute on the state's arrays, then what differs from the mirror (which then takes
  /// the new values whole, with flags and stamps cleaned).
  void recompute(stats_t& stats) {
    if (!repaired_) {  // no repair ran (budget 0): the mirror must hold the state before it
      prepare_memory();
      repaired_ = true;
    }
    const int64_t invalidated = stats.invalidated;
    try {
      compute(out_, in_, state_.source, objective_, delta_, stream_, state_.distances.data(),
              state_.parents.data(), stats, tuning_);
      stats.affected = mirror(0, state_.num_vertices, true);
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
    const search_report_t report = survey(out_, objective_, sample, stream_);
    stored_edges_ = static_cast<unsigned long long>(report.stored_edges);
    if (sample) state_.repair_width = std::min(k_max_delta, report.width);
  }

  void prepare_memory() { ready_repair_memory(state_, stream_); }

  /// mirror_into() over [from, to) of the state's own memory.
  int64_t mirror(int64_t from, int64_t to, bool count) {
    return mirror_into(state_, from, to, count, stream_);
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
  /// The repair (or the recompute) has started changing the state: undo() copies the mirror back.
  bool repaired_ = false;
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

template <class vid_t>
void prepare_for_updates(device_state_t<vid_t>& state, const search_report_t& report,
                         void* stream) {
  const stage_scope_t prepare_stage("sssp.prepare_updates");
  if (report.width > 0) state.repair_width = std::min(k_max_delta, report.width);
  try {
    ready_repair_memory(state, stream);
    if (report.stored_edges >= 0) {
      // A workspace of the first repair's sizes, made and given back to the pool now, so that
      // the first update maps no new device memory (a small batch's sizes; the search queues and
      // piece lists, which dominate, do not depend on the batch).
      const long long n = state.num_vertices;
      const auto stored = static_cast<unsigned long long>(report.stored_edges);
      const double mean_degree = n > 0 ? static_cast<double>(stored) / static_cast<double>(n) : 0.0;
      repair_workspace_t<vid_t> w;
      allocate_workspace(
          w, n, 1, workspace_capacity(n, stored, kernels::pick_group_size(mean_degree)), stream);
    }
    ::dyng::cuda::synchronize(stream);
  } catch (const out_of_memory_error&) {
    // The compute's answer stands; the first update asks for the memory again (and says so
    // if it still does not fit).
    state.repair_memory = repair_memory_t<vid_t>{};
  }
}

#define DYNG_INSTANTIATE_SSSP_CUDA_UPDATE(vid_t, eid_t)                                       \
  template void update<vid_t, eid_t>(const device_adjacency_t<vid_t, eid_t>&,                 \
                                     const device_adjacency_t<vid_t, eid_t>&,                 \
                                     const change_log_t<vid_t>&, int, int64_t, double, void*, \
                                     device_state_t<vid_t>&, stats_t&, const tuning_t&, int64_t);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_SSSP_CUDA_UPDATE)
#undef DYNG_INSTANTIATE_SSSP_CUDA_UPDATE

#define DYNG_INSTANTIATE_SSSP_CUDA_PREPARE(vid_t) \
  template void prepare_for_updates<vid_t>(device_state_t<vid_t>&, const search_report_t&, void*);
DYNG_FOR_EACH_VERTEX_TYPE(DYNG_INSTANTIATE_SSSP_CUDA_PREPARE)
#undef DYNG_INSTANTIATE_SSSP_CUDA_PREPARE

}  // namespace dyng::sssp::cuda
