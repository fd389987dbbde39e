// Host side of mosp on the GPU (mosp_cuda.hpp says what runs where): the checks, the trees by
// sssp's GPU compute and update, the combined graph's kernels (detail/cuda/combined_graph.cuh)
// with CUB's prefix sum, the MOSP tree by sssp's GPU compute and update, and the path costs
// (detail/cuda/path_costs.cuh).
#include "dyng/mosp/mosp_cuda.hpp"

#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dyng/backend/profile.hpp"
#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_stop.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/errors.hpp"
#include "dyng/core/entry_points.hpp"
#include "dyng/graph/cuda/device_update.hpp"
#include "dyng/mosp/detail/combined_edges.hpp"
#include "dyng/mosp/detail/cuda/combined_graph.cuh"
#include "dyng/mosp/detail/cuda/path_costs.cuh"
#include "dyng/mosp/detail/mosp_checks.hpp"
#include "dyng/sssp/detail/cuda_views.hpp"
#include "dyng/sssp/detail/sssp_checks.hpp"

namespace dyng::mosp::cuda {
namespace {

namespace kernels = ::dyng::mosp::detail::cuda;
using ::dyng::cuda::as_stream;
using ::dyng::cuda::device_graph_t;
using ::dyng::cuda::device_scope_t;
using ::dyng::cuda::k_block_threads;
using ::dyng::cuda::stride_blocks;

template <class vid_t>
using sssp_state_t = ::dyng::sssp::cuda::device_state_t<vid_t>;

/// The MOSP tree's sssp options (what mosp_cpu.cpp's combined_options() gives the host search).
constexpr int64_t k_combined_delta = 0;

template <class vid_t>
kernels::tree_parents_t<vid_t> parents_of(const device_state_t<vid_t>& state) {
  kernels::tree_parents_t<vid_t> trees{};
  trees.k = state.num_objectives;
  trees.full = static_cast<int32_t>(state.preference_scale * (state.num_objectives + 1));
  for (int i = 0; i < trees.k; ++i) {
    trees.parents[i] = state.trees[i].parents.data();
    trees.tree_weights[i] = static_cast<int32_t>(state.tree_weights[i]);
  }
  return trees;
}

/// The combined graph of the state's trees on `n` vertices; returns its edge count (waits).
template <class vid_t>
device_combined_graph_t<vid_t> build_combined_graph(const device_state_t<vid_t>& state, int64_t n,
                                                    void* stream, int64_t& num_edges) {
  const stage_scope_t combine_stage("mosp.combine");
  const cudaStream_t s = as_stream(stream);
  const int k = state.num_objectives;
  const auto nn = static_cast<size_t>(n > 0 ? n : 1);
  device_combined_graph_t<vid_t> g;
  g.num_vertices = n;
  g.width = k;
  g.in_begin = device_buffer<int64_t>(nn, stream);
  g.in_end = device_buffer<int64_t>(nn, stream);
  g.out_begin = device_buffer<int64_t>(nn, stream);
  g.out_end = device_buffer<int64_t>(nn, stream);
  g.in_col = device_buffer<vid_t>(nn * k, stream);
  g.out_col = device_buffer<vid_t>(nn * k, stream);
  g.in_weights = device_buffer<int32_t>(nn * k, stream);
  g.out_weights = device_buffer<int32_t>(nn * k, stream);
  num_edges = 0;
  if (n == 0) return g;
  device_buffer<unsigned long long> degree(nn + 1, stream);
  device_buffer<unsigned long long> cursor(nn, stream);
  degree.fill_bytes(0);
  const unsigned blocks = stride_blocks(n, 8);
  kernels::in_rows_kernel<vid_t>
      <<<blocks, k_block_threads, 0, s>>>(parents_of(state), n, g.in_begin.data(), g.in_end.data(),
                                          g.in_col.data(), g.in_weights.data(), degree.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  // out_begin = exclusive prefix sum of the degrees; entry n of the (n + 1)-long sum is the total.
  device_buffer<int64_t> offsets(nn + 1, stream);
  size_t temp_bytes = 0;
  DYNG_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, degree.data(), offsets.data(), n + 1, s));
  device_buffer<unsigned char> temp(std::max<size_t>(temp_bytes, 1), stream);
  DYNG_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, degree.data(),
                                                offsets.data(), n + 1, s));
  ::dyng::cuda::copy_on_device(g.out_begin.data(), offsets.data(), nn * sizeof(int64_t), stream);
  kernels::out_row_ends_kernel<<<blocks, k_block_threads, 0, s>>>(
      n, g.out_begin.data(), degree.data(), g.out_end.data(), cursor.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  kernels::scatter_out_rows_kernel<vid_t><<<blocks, k_block_threads, 0, s>>>(
      n, g.in_begin.data(), g.in_end.data(), g.in_col.data(), g.in_weights.data(), cursor.data(),
      g.out_col.data(), g.out_weights.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  ::dyng::cuda::copy_to_host(&num_edges, offsets.data() + n, sizeof(int64_t), stream);
  ::dyng::cuda::synchronize(stream);
  return g;
}

/// Path costs along the state's MOSP tree (n x K) from the graph's out-rows (`num_edges` edges).
template <class vid_t, class eid_t>
void compute_path_costs(const adjacency_view_t<vid_t, eid_t>& out, int64_t num_edges,
                        device_state_t<vid_t>& state, void* stream) {
  const stage_scope_t costs_stage("mosp.path_costs");
  const cudaStream_t s = as_stream(stream);
  const int64_t n = out.num_vertices;
  const int k = state.num_objectives;
  const auto nn = static_cast<size_t>(n > 0 ? n : 1);
  device_buffer<int64_t> costs(nn * k, stream), other(nn * k, stream);
  state.has_path_costs = true;
  if (n == 0) {
    state.path_costs = std::move(costs);
    return;
  }
  device_buffer<unsigned long long> first_slot(nn, stream);
  first_slot.fill_bytes(0xff);  // k_no_slot
  device_buffer<vid_t> ancestor(nn, stream), next_ancestor(nn, stream);
  device_buffer<int> more(1, stream);
  const auto chunk_capacity = static_cast<size_t>(kernels::row_chunk_capacity(num_edges));
  device_buffer<vid_t> chunk_rows(chunk_capacity, stream);
  device_buffer<int64_t> chunk_starts(chunk_capacity, stream);
  device_buffer<unsigned long long> chunk_count(1, stream);
  chunk_count.fill_bytes(0);
  const kernels::row_chunks_t<vid_t> chunks{chunk_rows.data(), chunk_starts.data(),
                                            chunk_count.data()};
  kernels::tree_edge_slots_kernel<vid_t, eid_t>
      <<<stride_blocks(n * 32, 16), k_block_threads, 0, s>>>(out, state.combined_parents.data(),
                                                             first_slot.data(), chunks);
  DYNG_CUDA_CHECK(cudaGetLastError());
  // As many warps as chunks could be listed; the kernel reads how many were.
  kernels::tree_edge_chunks_kernel<vid_t, eid_t>
      <<<stride_blocks(static_cast<long long>(chunk_capacity) * 32, 16), k_block_threads, 0, s>>>(
          out, state.combined_parents.data(), first_slot.data(), chunks);
  DYNG_CUDA_CHECK(cudaGetLastError());
  const unsigned blocks = stride_blocks(n, 8);
  kernels::edge_costs_kernel<vid_t, eid_t>
      <<<blocks, k_block_threads, 0, s>>>(out, k, state.source, state.combined_parents.data(),
                                          first_slot.data(), costs.data(), ancestor.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  // Each pass doubles the chain every vertex has summed; a chain is at most n - 1 edges long.
  for (int64_t span = 1; span < n; span *= 2) {
    more.fill_bytes(0);
    kernels::jump_kernel<vid_t><<<blocks, k_block_threads, 0, s>>>(
        n, k, costs.data(), ancestor.data(), other.data(), next_ancestor.data(), more.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
    std::swap(costs, other);
    std::swap(ancestor, next_ancestor);
    int open = 0;
    more.copy_to_host(&open, 1);
    if (open == 0) break;
  }
  state.path_costs = std::move(costs);
}

/// Runs `body` on the combined tree as an sssp result (the state's combined arrays, repair
/// memory and width moved in, and back out whatever `body` does).
template <class vid_t, class body_t>
void on_combined_tree(device_state_t<vid_t>& state, body_t&& body) {
  sssp_state_t<vid_t> combined;
  combined.source = state.source;
  combined.device = state.device;
  combined.num_vertices = state.num_vertices;
  combined.distances = std::move(state.combined_distances);
  combined.parents = std::move(state.combined_parents);
  combined.repair_memory = std::move(state.combined_repair);
  combined.repair_width = state.combined_width;
  auto give_back = [&] {
    state.combined_distances = std::move(combined.distances);
    state.combined_parents = std::move(combined.parents);
    state.combined_repair = std::move(combined.repair_memory);
    state.combined_width = combined.repair_width;
  };
  try {
    body(combined);
  } catch (...) {
    give_back();
    throw;
  }
  give_back();
}

/// The MOSP tree from scratch on the state's combined graph, readied for its updates as sssp's
/// entry points ready a compute (sssp::cuda::prepare_for_updates).
template <class vid_t>
sssp::stats_t compute_combined_tree(device_state_t<vid_t>& state, void* stream) {
  const stage_scope_t tree_stage("mosp.combined_sssp");
  const int64_t n = state.combined_graph.num_vertices;
  const auto nn = static_cast<size_t>(n > 0 ? n : 1);
  state.combined_distances = device_buffer<int64_t>(nn, stream);
  state.combined_parents = device_buffer<vid_t>(nn, stream);
  state.combined_repair.mirrored = -1;  // the next update mirrors the new tree whole
  state.combined_width = 0;
  sssp::stats_t stats;
  if (n == 0) return stats;
  sssp::cuda::search_report_t report;
  sssp::cuda::compute(state.combined_graph.out_view(), state.combined_graph.in_view(), state.source,
                      0, k_combined_delta, stream, state.combined_distances.data(),
                      state.combined_parents.data(), stats, {}, &report);
  on_combined_tree(state, [&](sssp_state_t<vid_t>& combined) {
    sssp::cuda::prepare_for_updates(combined, report, stream);
  });
  stats.path = update_path_t::compute;
  return stats;
}

/// Vertices the MOSP tree reaches.
template <class vid_t>
int64_t reached_vertices(const device_state_t<vid_t>& state, void* stream) {
  if (state.num_vertices == 0) return 0;
  device_buffer<unsigned long long> count(1, stream);
  count.fill_bytes(0);
  kernels::count_reached_kernel<<<stride_blocks(state.num_vertices, 8), k_block_threads, 0,
                                  as_stream(stream)>>>(
      state.num_vertices, state.combined_distances.data(), count.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  unsigned long long host = 0;
  count.copy_to_host(&host, 1);
  return static_cast<int64_t>(host);
}

/// The checks of compute (mosp.compute's prepare() on the host): graph, options, source and,
/// with validate_inputs, the objective weights, found on the device and named by the host scan.
template <class vid_t, class eid_t>
int check_inputs(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                 vid_t source, const options_t& options, void* stream, const char* fn) {
  detail::check_graph(host, fn);
  ::dyng::cuda::check_level(host, graph, fn);
  const int k = check_options(options, host.num_weights(), fn);
  sssp::detail::check_source(source, host.num_vertices(), fn);
  if (options.validate_inputs) {
    for (int i = 0; i < k; ++i) {
      if (sssp::cuda::weights_positive(graph.out_view(), i, stream)) continue;
      // Named by a scan of the device copy's rows: the host graph may be a shell of it.
      sssp::detail::checked_weight_range(graph.download().out_view(), i, fn);
      throw internal_error(std::string(fn) +
                           ": the device copy holds a weight < 1 that the host graph does not; "
                           "this is a bug in dyng");
    }
  }
  return k;
}

void add_counters(stats_t& stats, const sssp::stats_t& part) {
  stats.iterations += part.iterations;
  stats.frontier_visits += part.frontier_visits;
  stats.converged = stats.converged && part.converged;
}

/// Marks a state whose update failed part-way unusable and rethrows (as the host does).
template <class vid_t, class F>
auto all_or_poisoned(device_state_t<vid_t>& state, F&& f) {
  try {
    return f();
  } catch (...) {
    state.consistent = false;
    throw;
  }
}

/// The host change log of the combined graph's edit from `before` to the state's graph, or
/// false when it has more changes than `capacity` (the caller recomputes the MOSP tree).
template <class vid_t>
bool combined_changes(const device_combined_graph_t<vid_t>& before,
                      const device_combined_graph_t<vid_t>& after, void* stream,
                      change_log_t<vid_t>& log) {
  const int64_t n = after.num_vertices;
  // A repair that touches more than a few edges per vertex costs more than the recompute.
  const auto capacity = static_cast<unsigned long long>(std::max<int64_t>(1 << 16, n / 4));
  device_buffer<kernels::combined_change_t<vid_t>> changes(capacity, stream);
  device_buffer<unsigned long long> count(1, stream);
  count.fill_bytes(0);
  const kernels::in_rows_t<vid_t> old_rows{before.num_vertices, before.in_begin.data(),
                                           before.in_end.data(), before.in_col.data(),
                                           before.in_weights.data()};
  const kernels::in_rows_t<vid_t> new_rows{n, after.in_begin.data(), after.in_end.data(),
                                           after.in_col.data(), after.in_weights.data()};
  if (n > 0) {
    kernels::diff_rows_kernel<vid_t>
        <<<stride_blocks(n, 8), k_block_threads, 0, as_stream(stream)>>>(
            n, old_rows, new_rows, changes.data(), capacity, count.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
  }
  unsigned long long total = 0;
  count.copy_to_host(&total, 1);
  if (total > capacity) return false;
  std::vector<kernels::combined_change_t<vid_t>> host(static_cast<size_t>(total));
  changes.copy_to_host(host.data(), host.size());
  log.changes.reserve(host.size());
  for (const auto& c : host) {
    log.changes.push_back({c.src, c.dst, static_cast<edge_change_kind_t>(c.kind)});
  }
  return true;
}

/// Update step 1, the trees: each by sssp's GPU update, its stats added to `stats`. Returns
/// whether one of them fell back to a compute.
template <class vid_t, class eid_t>
bool update_trees_on_device(const device_graph_t<vid_t, eid_t>& graph,
                            const change_log_t<vid_t>& log, const options_t& options, int k,
                            void* stream, device_state_t<vid_t>& state, stats_t& stats) {
  bool recomputed = false;
  for (int i = 0; i < k; ++i) {
    const stage_scope_t objective_stage("mosp.objective");
    sssp::stats_t part;
    sssp::cuda::update(graph.out_view(), graph.in_view(), log, i, options.delta,
                       options.repair_budget, stream, state.trees[i], part, {},
                       static_cast<int64_t>(graph.num_edges()));
    add_counters(stats, part);
    recomputed = recomputed || part.fallback_used;
    stats.objectives.push_back(part);
  }
  return recomputed;
}

/// What update step 2 changed in the combined graph: the change log of its edges, and whether
/// sssp's update can repair from it (combined_changes(): not when the changes are too many).
template <class vid_t>
struct combined_edit_t {
  change_log_t<vid_t> log;
  bool repairable;
};

/// Update step 2: the combined graph of the new trees replaces the state's.
template <class vid_t>
combined_edit_t<vid_t> replace_combined_graph(device_state_t<vid_t>& state, int64_t n_after,
                                              void* stream) {
  int64_t edges = 0;
  device_combined_graph_t<vid_t> next = build_combined_graph(state, n_after, stream, edges);
  combined_edit_t<vid_t> edit;
  edit.log.num_vertices_before = static_cast<vid_t>(state.num_vertices);
  edit.log.num_vertices_after = static_cast<vid_t>(n_after);
  edit.repairable = combined_changes(state.combined_graph, next, stream, edit.log);
  state.combined_graph = std::move(next);
  state.combined_edges = edges;
  return edit;
}

/// Update step 3, the MOSP tree: sssp's GPU update from the combined graph's changes (on the
/// state's combined arrays, moved in and out), or a compute when they are too many.
template <class vid_t>
sssp::stats_t update_combined_tree_on_device(const combined_edit_t<vid_t>& edit,
                                             const options_t& options, void* stream,
                                             device_state_t<vid_t>& state) {
  sssp::stats_t c;
  if (!edit.repairable) {
    c = compute_combined_tree(state, stream);
    c.fallback_used = true;
    c.path = update_path_t::recompute;
    return c;
  }
  on_combined_tree(state, [&](sssp_state_t<vid_t>& combined) {
    sssp::cuda::update(state.combined_graph.out_view(), state.combined_graph.in_view(), edit.log, 0,
                       k_combined_delta, options.repair_budget, stream, combined, c, {},
                       state.combined_edges);
  });
  return c;
}

}  // namespace

template <class vid_t>
device_state_t<vid_t> device_state_t<vid_t>::deep_copy(void* stream) const {
  device_scope_t scope(this->device);
  device_state_t copy;
  copy.source = this->source;
  copy.device = this->device;
  copy.num_vertices = this->num_vertices;
  copy.num_objectives = num_objectives;
  copy.preference_scale = preference_scale;
  copy.tree_weights = tree_weights;
  copy.has_path_costs = has_path_costs;
  copy.consistent = consistent;
  copy.combined_width = combined_width;
  for (const auto& tree : trees) copy.trees.push_back(::dyng::cuda::clone(tree, stream));
  copy.combined_graph =
      build_combined_graph(copy, combined_graph.num_vertices, stream, copy.combined_edges);
  const auto n = static_cast<size_t>(this->num_vertices > 0 ? this->num_vertices : 1);
  copy.combined_distances = device_buffer<int64_t>(n, stream);
  copy.combined_parents = device_buffer<vid_t>(n, stream);
  ::dyng::cuda::copy_on_device(copy.combined_distances.data(), combined_distances.data(),
                               n * sizeof(int64_t), stream);
  ::dyng::cuda::copy_on_device(copy.combined_parents.data(), combined_parents.data(),
                               n * sizeof(vid_t), stream);
  if (has_path_costs) {
    copy.path_costs = device_buffer<int64_t>(path_costs.size(), stream);
    ::dyng::cuda::copy_on_device(copy.path_costs.data(), path_costs.data(),
                                 path_costs.size() * sizeof(int64_t), stream);
  }
  ::dyng::cuda::synchronize(stream);
  return copy;
}

template <class vid_t>
state_t<vid_t> device_state_t<vid_t>::copy_to_host(void* stream) const {
  device_scope_t scope(this->device);
  state_t<vid_t> host;
  host.source = this->source;
  host.num_objectives = num_objectives;
  host.preference_scale = preference_scale;
  host.tree_weights = tree_weights;
  host.consistent = consistent;
  for (const auto& tree : trees) host.trees.push_back(::dyng::cuda::to_host(tree, stream));
  const auto n = static_cast<size_t>(this->num_vertices);
  host.combined_distances.resize(n);
  host.combined_parents.resize(n);
  ::dyng::cuda::copy_to_host(host.combined_distances.data(), combined_distances.data(),
                             n * sizeof(int64_t), stream);
  ::dyng::cuda::copy_to_host(host.combined_parents.data(), combined_parents.data(),
                             n * sizeof(vid_t), stream);
  host.has_path_costs = has_path_costs;
  if (has_path_costs) {
    host.path_costs.resize(n * static_cast<size_t>(num_objectives));
    ::dyng::cuda::copy_to_host(host.path_costs.data(), path_costs.data(),
                               host.path_costs.size() * sizeof(int64_t), stream);
  }
  ::dyng::cuda::synchronize(stream);
  std::vector<const vid_t*> parents;
  for (const auto& tree : host.trees) parents.push_back(tree.parents.data());
  host.combined_graph = detail::combined_store_t<vid_t>(detail::build_combined_csrs(
      parents, static_cast<int64_t>(n), tree_weights, preference_scale));
  return host;
}

template <class vid_t>
device_state_t<vid_t> device_state_t<vid_t>::copy_from_host(const state_t<vid_t>& host, int device,
                                                            void* stream) {
  device_scope_t scope(device);
  device_state_t copy;
  copy.source = host.source;
  copy.device = device;
  copy.num_vertices = static_cast<int64_t>(host.combined_distances.size());
  copy.num_objectives = host.num_objectives;
  copy.preference_scale = host.preference_scale;
  copy.tree_weights = host.tree_weights;
  copy.consistent = host.consistent;
  copy.has_path_costs = host.has_path_costs;
  for (const auto& tree : host.trees) {
    copy.trees.push_back(::dyng::cuda::to_device<sssp_state_t<vid_t>>(tree, device, stream));
  }
  copy.combined_graph = build_combined_graph(copy, copy.num_vertices, stream, copy.combined_edges);
  const auto n = static_cast<size_t>(copy.num_vertices > 0 ? copy.num_vertices : 1);
  copy.combined_distances = device_buffer<int64_t>(n, stream);
  copy.combined_parents = device_buffer<vid_t>(n, stream);
  ::dyng::cuda::copy_to_device(copy.combined_distances.data(), host.combined_distances.data(),
                               host.combined_distances.size() * sizeof(int64_t), stream);
  ::dyng::cuda::copy_to_device(copy.combined_parents.data(), host.combined_parents.data(),
                               host.combined_parents.size() * sizeof(vid_t), stream);
  if (host.has_path_costs) {
    copy.path_costs = device_buffer<int64_t>(std::max<size_t>(host.path_costs.size(), 1), stream);
    ::dyng::cuda::copy_to_device(copy.path_costs.data(), host.path_costs.data(),
                                 host.path_costs.size() * sizeof(int64_t), stream);
  }
  ::dyng::cuda::synchronize(stream);
  return copy;
}

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                vid_t source, const options_t& options, void* stream,
                device_state_t<vid_t>& state) {
  constexpr const char* fn = "mosp.compute()";
  device_scope_t scope(graph.device());
  const int k = check_inputs(host, graph, source, options, stream, fn);
  const int64_t n = host.num_vertices();
  device_state_t<vid_t> fresh;
  fresh.source = source;
  fresh.device = graph.device();
  fresh.num_vertices = n;
  fresh.num_objectives = k;
  fresh.preference_scale = detail::preference_scale_of(options.preferences);
  fresh.tree_weights = detail::tree_weights_of(options.preferences, k, fresh.preference_scale);
  stats_t stats;
  // 1. The K trees in one joint search, then split into sssp results (update repairs each).
  const auto nn = static_cast<size_t>(n > 0 ? n : 1);
  device_buffer<int64_t> dist(nn * k, stream);
  device_buffer<vid_t> parents(nn * k, stream);
  sssp::stats_t joint;
  std::optional<stage_scope_t> objectives_stage(std::in_place, "mosp.objectives");
  sssp::cuda::search_report_t report;
  if (n > 0) {
    sssp::cuda::compute_joint(graph.out_view(), graph.in_view(), source, 0, k, options.delta,
                              stream, dist.data(), parents.data(), joint, {}, &report);
  }
  joint.path = update_path_t::compute;
  for (int i = 0; i < k; ++i) {
    auto tree = ::dyng::cuda::allocate_result<sssp_state_t<vid_t>>(source, graph.device(), n);
    ::dyng::cuda::copy_on_device(tree.distances.data(), dist.data() + i * n, n * sizeof(int64_t),
                                 stream);
    ::dyng::cuda::copy_on_device(tree.parents.data(), parents.data() + i * n, n * sizeof(vid_t),
                                 stream);
    // The joint search sampled column 0 only, so its width is tree 0's pick; the other trees
    // get their own column's now, where their first update would otherwise pay for it.
    sssp::cuda::search_report_t tree_report = report;
    if (options.delta > 0) {
      tree_report.width = 0;
    } else if (i > 0 && n > 0) {
      tree_report = sssp::cuda::survey(graph.out_view(), i, true, stream);
    }
    sssp::cuda::prepare_for_updates(tree, tree_report, stream);
    fresh.trees.push_back(std::move(tree));
    stats.objectives.push_back(joint);
  }
  objectives_stage.reset();
  add_counters(stats, joint);
  // 2. The combined graph, 3. the MOSP tree, 4. the path costs; a stop between them.
  ::dyng::cuda::throw_if_cancelled_on(stream, fn);
  fresh.combined_graph = build_combined_graph(fresh, n, stream, fresh.combined_edges);
  ::dyng::cuda::throw_if_cancelled_on(stream, fn);
  const sssp::stats_t c = compute_combined_tree(fresh, stream);
  ::dyng::cuda::throw_if_cancelled_on(stream, fn);
  add_counters(stats, c);
  stats.engine_used = c.engine_used;
  stats.method = c.method;
  if (options.compute_path_costs) {
    compute_path_costs(graph.out_view(), static_cast<int64_t>(graph.num_edges()), fresh, stream);
  }
  ::dyng::cuda::synchronize(stream);
  stats.affected = reached_vertices(fresh, stream);  // as the host counts a compute
  stats.combined_edges = fresh.combined_edges;
  stats.preference_scale = fresh.preference_scale;
  stats.path = update_path_t::compute;
  state = std::move(fresh);
  return stats;
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state) {
  constexpr const char* fn = "mosp.update()";
  detail::check_graph(host, fn);
  ::dyng::cuda::check_level(host, graph, fn);
  return ::dyng::cuda::on_graph_device(state, graph, fn, [&] {
    if (!state.consistent) {
      throw invalid_argument_error(std::string(fn) +
                                   ": an earlier update of this result failed part-way, so it "
                                   "holds no consistent answer; compute it again");
    }
    const int k = check_options(options, host.num_weights(), fn);
    if (k != state.num_objectives ||
        detail::preference_scale_of(options.preferences) != state.preference_scale) {
      throw invalid_argument_error(std::string(fn) +
                                   ": the options name other objectives or preferences than the "
                                   "result was computed with; compute a new result instead");
    }
    // This update marks its state inconsistent when a step fails part-way (all_or_poisoned), so
    // it is not stopped: the trees' sssp updates inside it see no stop flag. A stop is honoured
    // once it ends.
    const cancel_scope_t unstoppable{cancel_token_t{}};
    const stage_scope_t update_stage("mosp.repair");
    const int64_t n_after = host.num_vertices();
    return all_or_poisoned(state, [&] {
      stats_t stats;
      bool recomputed = update_trees_on_device(graph, log, options, k, stream, state, stats);
      const combined_edit_t<vid_t> edit = replace_combined_graph(state, n_after, stream);
      const sssp::stats_t c = update_combined_tree_on_device(edit, options, stream, state);
      state.num_vertices = n_after;
      add_counters(stats, c);
      recomputed = recomputed || c.fallback_used;
      stats.affected = c.affected;
      stats.engine_used = c.engine_used;
      stats.method = c.method;
      // Step 4, the path costs, again from the MOSP tree.
      if (options.compute_path_costs) {
        compute_path_costs(graph.out_view(), static_cast<int64_t>(graph.num_edges()), state,
                           stream);
      } else {
        state.path_costs = {};
        state.has_path_costs = false;
      }
      ::dyng::cuda::synchronize(stream);
      stats.combined_edges = state.combined_edges;
      stats.preference_scale = state.preference_scale;
      stats.path = recomputed ? update_path_t::recompute : update_path_t::incremental;
      stats.fallback_used = recomputed;
      return stats;
    });
  });
}

DYNG_INSTANTIATE_ENTRY_POINTS(cuda, sourced)
#define DYNG_INSTANTIATE_MOSP_CUDA_STATE(VID) template struct device_state_t<VID>;
DYNG_FOR_EACH_VERTEX_TYPE(DYNG_INSTANTIATE_MOSP_CUDA_STATE)
#undef DYNG_INSTANTIATE_MOSP_CUDA_STATE

}  // namespace dyng::mosp::cuda
