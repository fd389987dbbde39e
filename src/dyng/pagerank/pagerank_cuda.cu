// Host side of pagerank on the GPU: the entry points, with update() as the shared policy over the
// ready-made snapshot steps (backend/cuda/snapshot_steps.hpp). compute is the power iteration from
// the uniform vector (detail/cuda/power_launch.cuh). The repair starts from the previous ranks
// (after vertex growth: new vertices at their teleport share, scaled to sum 1, and no bound to
// start from), runs the frontier rounds (detail/cuda/frontier_launch.cuh) within the budget, and
// commits the ranks divided by their sum when the rounds' residual bound already meets a
// compute's convergence test; otherwise warm full iterations run until the test holds, also when
// the rounds ran past the budget or the first round would read too much to be run (its limit,
// k_gpu_first_round_share, is checked before the seed plan for large batches). Only ranks that do
// not converge within max_iter give the repair up for the cold compute.
#include "dyng/pagerank/pagerank_cuda.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/backend/cuda/snapshot_steps.hpp"
#include "dyng/core/entry_points.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/stage_scope.hpp"
#include "dyng/graph/cuda/device_update.hpp"
#include "dyng/pagerank/detail/call_checks.hpp"
#include "dyng/pagerank/detail/cuda/frontier_launch.cuh"
#include "dyng/pagerank/detail/cuda/power_launch.cuh"
#include "dyng/pagerank/detail/teleport.hpp"

namespace dyng::pagerank::cuda {
namespace {

namespace kernels = ::dyng::pagerank::detail::cuda;
using ::dyng::cuda::device_buffer;
using ::dyng::cuda::device_graph_t;

template <class vid_t, class eid_t>
void check_call(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                const options_t& options, const char* fn) {
  detail::check_options(options, fn);
  require_in_edges(host, fn, "pagerank");
  detail::require_weight_column(graph.num_weights(), options, fn);
  ::dyng::cuda::check_level(host, graph, fn);
}

/// The teleport (personalization) and dangling vectors of one call in device memory, n entries
/// each, normalised by the caller; an empty one is uniform, and an empty dangling vector
/// follows the teleport vector (NetworkX's rule).
struct jump_vectors_t {
  device_buffer<double> personalization, dangling;
  double uniform = 0.0;

  /// The normalised vectors of detail::prepare_teleport(), on the device.
  jump_vectors_t(const detail::teleport_t& teleport, int64_t n, void* stream)
      : uniform(n > 0 ? 1.0 / static_cast<double>(n) : 0.0) {
    if (!teleport.personalization.empty()) {
      personalization = upload(teleport.personalization, stream);
    }
    if (!teleport.dangling.empty()) dangling = upload(teleport.dangling, stream);
  }
  kernels::jump_t jump() const {
    const double* p = personalization.empty() ? nullptr : personalization.data();
    const double* d = dangling.empty() ? p : dangling.data();
    return kernels::jump_t{p, d, uniform};
  }

 private:
  static device_buffer<double> upload(const std::vector<double>& values, void* stream) {
    device_buffer<double> buffer(values.size(), stream);
    buffer.copy_from_host(values.data(), values.size());
    return buffer;
  }
};

/// What every iteration of a call on `graph` reads (checks done).
template <class vid_t, class eid_t>
kernels::iteration_setup_t<vid_t, eid_t> setup_of(const graph_t<vid_t, eid_t>& host,
                                                  const device_graph_t<vid_t, eid_t>& graph,
                                                  const options_t& options,
                                                  const jump_vectors_t& jump) {
  kernels::iteration_setup_t<vid_t, eid_t> setup;
  setup.in = in_edges_view(graph, host.properties().directed);
  setup.weighted = options.weighted;
  setup.alpha = options.alpha;
  setup.tol = options.tol;
  setup.max_iter = options.max_iter;
  setup.in_slots = static_cast<int64_t>(host.num_edges());
  setup.jump = jump.jump();
  return setup;
}

/// space.inverse for `graph`; a negative weight is named from the downloaded rows, with the
/// host's message.
template <class vid_t, class eid_t>
void build_inverse(const device_graph_t<vid_t, eid_t>& graph, const options_t& options,
                   kernels::iteration_space_t& space, const char* fn) {
  if (kernels::build_inverse(graph.out_view(), options.weighted, space)) return;
  detail::check_weights(graph.download(), options, fn);
  throw internal_error(std::string(fn) + ": the device saw a negative weight that its rows do " +
                       "not hold; this is a bug in dyng");
}

/// Full iterations on space.x, added to what `stats` reports.
template <class vid_t, class eid_t>
detail::run_result_t iterate(const kernels::iteration_setup_t<vid_t, eid_t>& setup,
                             kernels::iteration_space_t& space, const char* fn, stats_t& stats) {
  const stage_scope_t stage("pagerank.iterate");
  const detail::run_result_t run = kernels::power_iterate(setup, space, fn);
  stats.iterations += run.iterations;
  stats.residual = run.residual;
  stats.frontier_visits += run.edges_read;
  stats.vertices_touched += run.iterations * space.n;
  stats.touched_per_iteration.insert(stats.touched_per_iteration.end(),
                                     static_cast<size_t>(run.iterations), space.n);
  stats.converged = run.converged;
  return run;
}

/// Copies space.x into `state` with the run's summary, and waits for the stream.
template <class vid_t>
void commit(kernels::iteration_space_t& space, const stats_t& stats, device_state_t<vid_t>& state) {
  ::dyng::cuda::copy_on_device(state.ranks.data(), space.x.data(),
                               static_cast<size_t>(space.n) * sizeof(double), space.stream);
  ::dyng::cuda::synchronize(space.stream);
  state.iterations = stats.iterations;
  state.residual = stats.residual;
}

/// The cold compute into `state` (grown to the graph, checks done), from `start` (n entries
/// summing to 1) or, when empty, from the uniform vector.
template <class vid_t, class eid_t>
stats_t compute_into(const device_graph_t<vid_t, eid_t>& graph,
                     const kernels::iteration_setup_t<vid_t, eid_t>& setup,
                     const options_t& options, void* stream, const char* fn,
                     device_state_t<vid_t>& state, const std::vector<double>& start = {}) {
  kernels::iteration_space_t space(state.num_vertices, stream);
  {
    const stage_scope_t stage("pagerank.inverse");
    build_inverse(graph, options, space, fn);
  }
  if (start.empty()) {
    kernels::start_uniform(space);
  } else {
    space.x.copy_from_host(start.data(), start.size());
  }
  stats_t stats;
  iterate(setup, space, fn, stats);
  stats.record(engine_t{"operators", "pull_power_iteration"});
  stats.frontier_size = space.n;
  stats.affected = space.n;
  commit(space, stats, state);
  return stats;
}

/// The entries where `a` and `b` (n each) differ.
inline int64_t count_changed(const double* a, const double* b, int64_t n, void* stream) {
  if (n == 0) return 0;
  auto count = kernels::room_for<unsigned long long>(1, stream);
  count.fill_bytes(0);
  kernels::count_changed<<<kernels::grid_for(n), kernels::k_block_threads, 0,
                           kernels::as_stream(stream)>>>(a, b, n, count.data());
  kernels::check_launch();
  return static_cast<int64_t>(kernels::read_value(count.data(), stream));
}

/// space.x = the previous ranks, the batch's new vertices (from `old_vertices` on) at their
/// teleport share, scaled to sum 1.
template <class vid_t, class eid_t>
void warm_start(const kernels::iteration_setup_t<vid_t, eid_t>& setup,
                const device_state_t<vid_t>& state, int64_t old_vertices,
                kernels::iteration_space_t& space) {
  if (space.n == 0) return;
  ::dyng::cuda::copy_on_device(space.x.data(), state.ranks.data(),
                               static_cast<size_t>(space.n) * sizeof(double), space.stream);
  if (old_vertices < space.n) {
    kernels::start_new_vertices<<<kernels::grid_for(space.n - old_vertices),
                                  kernels::k_block_threads, 0, kernels::as_stream(space.stream)>>>(
        space.x.data(), old_vertices, space.n, setup.alpha, setup.jump);
    kernels::check_launch();
  }
  kernels::scale_to_one(space);
}

}  // namespace

template <class vid_t, class eid_t>
stats_t compute_from(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                     const std::vector<double>& start, const options_t& options, void* stream,
                     device_state_t<vid_t>& state) {
  constexpr const char* fn = "pagerank.compute()";
  check_call(host, graph, options, fn);
  const ::dyng::cuda::device_scope_t scope(graph.device());
  const auto n = static_cast<int64_t>(host.num_vertices());
  const jump_vectors_t jump(detail::prepare_teleport(options, n, fn), n, stream);
  const auto x = detail::normalised_vector(start, n, "nstart", fn);
  auto fresh = ::dyng::cuda::allocate_result<device_state_t<vid_t>>(graph.device(), n);
  stats_t stats =
      compute_into(graph, setup_of(host, graph, options, jump), options, stream, fn, fresh, x);
  ::dyng::cuda::reserve_snapshot(fresh);
  state = std::move(fresh);
  return stats;
}

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                const options_t& options, void* stream, device_state_t<vid_t>& state) {
  return compute_from(host, graph, {}, options, stream, state);
}

namespace {

/// The repair (see the file's header); writes `state` only in its last step, when converged
/// (settle_ranks), so it needs no snapshot and a repair that gives up leaves nothing to take back.
template <class vid_t, class eid_t>
bool repair_ranks(const device_graph_t<vid_t, eid_t>& graph,
                  const kernels::frontier_setup_t<vid_t, eid_t>& frontier,
                  const change_log_t<vid_t>& log, int64_t budget, const options_t& options,
                  void* stream, const char* fn, device_state_t<vid_t>& state, stats_t& stats) {
  const auto& setup = frontier.iteration;
  kernels::iteration_space_t space(state.num_vertices, stream);
  {
    const stage_scope_t stage("pagerank.inverse");
    build_inverse(graph, options, space, fn);
  }
  const auto old_vertices = static_cast<int64_t>(log.num_vertices_before);
  // The previous result's residual bounds one more full iteration's change on the old graph;
  // growth changes every vertex's teleport share, so an update that adds vertices iterates fully
  // (as on the host).
  const bool grew = old_vertices < space.n;
  const double start_bound = grew ? std::numeric_limits<double>::infinity() : state.residual;
  if (grew) {
    warm_start(setup, state, old_vertices, space);
  } else {
    ::dyng::cuda::copy_on_device(space.x.data(), state.ranks.data(),
                                 static_cast<size_t>(space.n) * sizeof(double), stream);
  }
  stats.record(engine_t{"operators", "frontier_power_iteration"});
  const auto num_changes = static_cast<int64_t>(log.changes.size());
  auto changes = kernels::room_for<edge_change_t<vid_t>>(num_changes, stream);
  if (num_changes > 0) changes.copy_from_host(log.changes.data(), log.changes.size());
  detail::frontier_result_t<vid_t> phase;
  {
    const stage_scope_t stage("pagerank.frontier");
    phase = kernels::run_frontier(frontier, log, changes.data(), budget, start_bound, space, fn);
  }
  stats.iterations = phase.rounds;
  stats.frontier_visits = phase.edges_read;
  stats.vertices_touched = phase.vertices_touched;
  stats.touched_per_iteration = phase.touched_per_round;
  stats.frontier_size = phase.seeds;
  if (!phase.within_budget && phase.rounds == 0) {
    // The first round was too large to run: full iterations from the previous ranks, as on the
    // host (which names them alike).
    stats.record(engine_t{"operators", "warm_power_iteration"});
  }
  const double inverse = 1.0 / phase.sum;
  const double bound = detail::scaled_bound(phase.residual_bound, inverse, options.alpha);
  const double limit = static_cast<double>(space.n) * options.tol * k_certified_fraction;
  double factor = 1.0;
  if (phase.within_budget && bound < limit) {
    // The bound meets a compute's convergence test: scale by the kept sum (in settle_ranks), no
    // full iteration.
    factor = inverse;
    stats.residual = bound;
    stats.converged = true;
  } else {
    kernels::scale_to_one(space);
    if (!iterate(setup, space, fn, stats).converged) return false;
  }
  // The last step, and the only write to `state`: scaled, counted and committed in one pass.
  auto changed = kernels::room_for<unsigned long long>(1, stream);
  changed.fill_bytes(0);
  if (space.n > 0) {
    kernels::settle_ranks<<<kernels::grid_for(space.n), kernels::k_block_threads, 0,
                            kernels::as_stream(stream)>>>(space.x.data(), factor, space.n,
                                                          state.ranks.data(), changed.data());
    kernels::check_launch();
  }
  stats.affected = static_cast<int64_t>(kernels::read_value(changed.data(), stream));
  state.iterations = stats.iterations;
  state.residual = stats.residual;
  return true;
}

}  // namespace

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state) {
  constexpr const char* fn = "pagerank.update()";
  check_call(host, graph, options, fn);
  const ::dyng::cuda::device_scope_t scope(graph.device());  // the vectors below live there
  const auto n = static_cast<int64_t>(host.num_vertices());
  const auto teleport = detail::prepare_teleport(options, n, fn);
  const jump_vectors_t jump(teleport, n, stream);
  const auto setup = setup_of(host, graph, options, jump);
  // One iteration reads every in-edge and every vertex.
  const auto scale = static_cast<int64_t>(host.num_edges()) + n;
  const kernels::frontier_setup_t<vid_t, eid_t> frontier{
      setup,
      graph.out_view(),
      teleport,
      options.tol * k_frontier_threshold,
      first_round_limit(k_gpu_first_round_share, static_cast<double>(scale)),
      k_gpu_head_check_changes};
  // The repair iterates in a space of its own and writes the ranks in its last step (commit),
  // counting `affected` against them first: no snapshot (snapshot_t::for_recompute).
  auto repair = [&](const change_log_t<vid_t>& l, int64_t budget, stats_t& stats,
                    const device_state_t<vid_t>&) {
    return repair_ranks(graph, frontier, l, budget, options, stream, fn, state, stats);
  };
  auto recompute = [&](device_state_t<vid_t>& s, const device_state_t<vid_t>& snapshot,
                       const stats_t&) {
    stats_t fresh = compute_into(graph, setup, options, stream, fn, s);
    fresh.affected = count_changed(s.ranks.data(), snapshot.ranks.data(), s.num_vertices, stream);
    return fresh;
  };
  using steps_t = ::dyng::cuda::snapshot_steps_t<device_state_t<vid_t>, stats_t, decltype(repair),
                                                 decltype(recompute)>;
  return ::dyng::cuda::update_on_device<steps_t>(
      state, graph, log, n, options.repair_budget, fn, state, stream, scale,
      k_default_gpu_repair_budget, engine_t{"operators", "frontier_power_iteration"}, repair,
      recompute, ::dyng::cuda::snapshot_t::for_recompute);
}

DYNG_INSTANTIATE_ENTRY_POINTS(cuda, whole)

#define DYNG_PAGERANK_CUDA_COMPUTE_FROM(V, E)                                        \
  template stats_t compute_from(const graph_t<V, E>&, const device_graph_t<V, E>&,   \
                                const std::vector<double>&, const options_t&, void*, \
                                device_state_t<V>&);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_PAGERANK_CUDA_COMPUTE_FROM)

}  // namespace dyng::pagerank::cuda
