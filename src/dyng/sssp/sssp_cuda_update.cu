// Host side of the CUDA SSSP update: checks, the repair's workspace and budget, and the fallback.
//
// The repair runs three stages on the caller's stream, with one host synchronisation after each
// (its counters decide what comes next):
//   1. repair_cut_kernel (repair_cut.cuh): snapshot, cut the subtrees of changed tree edges, seed;
//   2. the seeded near-far search (near_far.cuh), stopped past the budget;
//   3. the parent repair (repair_parents.cuh and the listed parent pass of parents.cuh).
// A repair that would relax more than `repair_budget` x stored edges, or is predicted to before
// anything is cut (far-reaching lowerings, repair_cut.cuh), is abandoned for compute() on the same
// buffers, which overwrites every distance and parent; the snapshot taken in stage 1 then still
// gives the fallback its `affected` count. docs/developer/gpu-sssp.md has the method
// and the measurements behind the defaults.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/core/errors.hpp"
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
                     const device_adjacency_t<vid_t, eid_t>& in, const change_log_t<vid_t>& log,
                     vid_t source, int objective, const int64_t* d_dist, const vid_t* d_parents) {
  kernels::check_view(out, k_fn, "out-edge", objective);
  kernels::check_view(in, k_fn, "in-edge", objective);
  const long long n = out.num_vertices;
  if (in.num_vertices != out.num_vertices) {
    throw invalid_argument_error(std::string(k_fn) + ": the out-edge view has " +
                                 std::to_string(n) + " vertices but the in-edge view " +
                                 std::to_string(in.num_vertices) + "; pass views of one graph");
  }
  if (log.num_vertices_after != out.num_vertices || log.num_vertices_before < 0 ||
      log.num_vertices_before > log.num_vertices_after) {
    throw invalid_argument_error(std::string(k_fn) + ": the change log goes from " +
                                 std::to_string(log.num_vertices_before) + " to " +
                                 std::to_string(log.num_vertices_after) +
                                 " vertices but the graph has " + std::to_string(n) +
                                 "; pass the views of the graph after the batch and its log");
  }
  if (source < 0 || source >= out.num_vertices) {
    throw invalid_argument_error(std::string(k_fn) + ": source " + std::to_string(source) +
                                 " is not a vertex of a graph with " + std::to_string(n) +
                                 " vertices; pass 0 <= source < n");
  }
  if (static_cast<unsigned long long>(n) > kernels::k_vertex_mask) {
    throw capacity_error(std::string(k_fn) + ": " + std::to_string(n) +
                         " vertices exceed the 2^40 that work items can name; use a smaller graph");
  }
  if (d_dist == nullptr || d_parents == nullptr) {
    throw invalid_argument_error(std::string(k_fn) + ": null result pointer; pass device arrays "
                                 "of n distances and n parents, grown to the graph's size");
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
                   stats_t& stats) {
    const long long n = out_.num_vertices;
    const double mean_degree = static_cast<double>(stored_edges) / static_cast<double>(n);
    const int group_size =
        tuning.group_size > 0 ? tuning.group_size : kernels::pick_group_size(mean_degree);
    const int blocks_per_sm =
        tuning.blocks_per_sm > 0 ? tuning.blocks_per_sm : kernels::pick_blocks_per_sm(mean_degree);
    const unsigned long long capacity = static_cast<unsigned long long>(n) +
                                        stored_edges / kernels::chunk_edges_of(group_size) + 64;

    // (1) Snapshot, cut, seed.
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
    {
      auto* kernel = kernels::repair_cut_kernel<vid_t, eid_t>;
      const dim3 grid(kernels::cooperative_blocks(kernel, 8, k_fn));
      void* args[] = {&cut};
      DYNG_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid,
                                                  dim3(kernels::k_block_threads), args, 0,
                                                  as_stream(stream_)));
    }
    kernels::update_control_t host = read_control();
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
    throw invalid_argument_error(
        std::string(k_fn) + ": edge (" + std::to_string(change.src) + ", " +
        std::to_string(change.dst) + ") has weight " + std::to_string(weight) +
        " in the objective column; sssp needs weights >= 1, so validate batches with "
        "sssp.validate_batch before applying");
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

}  // namespace

template <class vid_t, class eid_t>
void update(const device_adjacency_t<vid_t, eid_t>& out, const device_adjacency_t<vid_t, eid_t>& in,
            const change_log_t<vid_t>& log, vid_t source, int objective, int64_t delta,
            double repair_budget, void* stream, int64_t* d_dist, vid_t* d_parents,
            stats_t& stats, const tuning_t& tuning) {
  check_arguments(out, in, log, source, objective, d_dist, d_parents);
  stats = stats_t{};
  stats.engine_used = "cuda_near_far";
  stats.path = update_path_t::incremental;
  // No edge changed: new vertices stay unreached. A budget of 0 still recomputes, as on the CPU.
  if (log.changes.empty() && repair_budget != 0.0) return;
  const long long n = out.num_vertices;

  device_buffer<kernels::update_control_t> control(1, stream);
  control.fill_bytes(0);
  device_buffer<kernels::control_t> counts_control(1, stream);
  counts_control.fill_bytes(0);
  const kernels::control_t counts = kernels::count_edges(out, objective, delta <= 0, counts_control);
  const unsigned long long stored_edges = counts.stored_edges;
  const double mean_weight =
      counts.sampled_weight_count > 0
          ? static_cast<double>(counts.sampled_weight_sum) /
                static_cast<double>(counts.sampled_weight_count)
          : 1.0;
  // The bucket width compute() would pick.
  const int64_t width = std::min(k_max_delta, delta > 0 ? delta : kernels::pick_delta(mean_weight));
  const double fraction = repair_budget >= 0.0 ? repair_budget : k_default_gpu_repair_budget;
  const double budget_edges = fraction * static_cast<double>(stored_edges);
  const unsigned long long budget =
      budget_edges >= 0x1p62 ? 1ull << 62 : static_cast<unsigned long long>(budget_edges);

  // The snapshot of the state before the batch: the repair's parent pass and the fallback's
  // `affected` compare against it.
  device_buffer<int64_t> old_dist(static_cast<size_t>(n), stream);
  device_buffer<vid_t> old_parents(static_cast<size_t>(n), stream);
  int64_t invalidated = 0;
  if (fraction > 0.0) {
    repair_t<vid_t, eid_t> repair(out, in, source, objective, stream, d_dist, d_parents,
                                  old_dist.data(), old_parents.data(), control);
    stats_t attempt = stats;
    if (repair.run(log, stored_edges, budget, width, tuning, attempt) == repair_end_t::done) {
      stats = attempt;
      return;
    }
    invalidated = attempt.invalidated;
  } else {
    ::dyng::cuda::copy_on_device(old_dist.data(), d_dist, static_cast<size_t>(n) * sizeof(int64_t),
                                 stream);
    ::dyng::cuda::copy_on_device(old_parents.data(), d_parents,
                                 static_cast<size_t>(n) * sizeof(vid_t), stream);
  }

  // Fallback: a full compute on the caller's arrays, then what differs from the snapshot.
  compute(out, in, source, objective, delta, stream, d_dist, d_parents, stats, tuning);
  device_buffer<unsigned long long> differ(1, stream);
  differ.fill_bytes(0);
  kernels::count_differences_kernel<vid_t>
      <<<kernels::stride_blocks(n, 8), kernels::k_block_threads, 0, as_stream(stream)>>>(
          n, reinterpret_cast<const kernels::dist_t*>(d_dist), d_parents,
          reinterpret_cast<const kernels::dist_t*>(old_dist.data()), old_parents.data(),
          differ.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  unsigned long long affected = 0;
  differ.copy_to_host(&affected, 1);
  stats.affected = static_cast<int64_t>(affected);
  stats.invalidated = invalidated;
  stats.fallback_used = true;
  stats.path = update_path_t::recompute;
}

#define DYNG_INSTANTIATE_SSSP_CUDA_UPDATE(vid_t, eid_t)                                         \
  template void update<vid_t, eid_t>(const device_adjacency_t<vid_t, eid_t>&,                  \
                                     const device_adjacency_t<vid_t, eid_t>&,                  \
                                     const change_log_t<vid_t>&, vid_t, int, int64_t, double,  \
                                     void*, int64_t*, vid_t*, stats_t&, const tuning_t&);

DYNG_INSTANTIATE_SSSP_CUDA_UPDATE(int32_t, int32_t)
DYNG_INSTANTIATE_SSSP_CUDA_UPDATE(int32_t, int64_t)
DYNG_INSTANTIATE_SSSP_CUDA_UPDATE(int64_t, int64_t)

#undef DYNG_INSTANTIATE_SSSP_CUDA_UPDATE

}  // namespace dyng::sssp::cuda
