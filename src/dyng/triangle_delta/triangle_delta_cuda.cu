// Host side of triangle_delta on the GPU: the entry points, with update() as the shared policy
// over the whole-graph count steps (whole_graph_count/update_steps.hpp) and the kernels of
// detail/cuda/triangle_kernels.cuh as their counting engine.
#include "dyng/triangle_delta/triangle_delta_cuda.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_stop.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/entry_points.hpp"
#include "dyng/triangle_delta/detail/cuda/triangle_kernels.cuh"
#include "dyng/triangle_delta/detail/tally.hpp"
#include "dyng/whole_graph_count/device_entry.hpp"

namespace dyng::triangle_delta::cuda {
namespace {

using ::dyng::cuda::as_stream;
using ::dyng::cuda::device_buffer;
using ::dyng::cuda::device_graph_t;
using ::dyng::cuda::k_block_threads;
using ::dyng::cuda::stride_blocks;
using detail::cuda::counters_t;
using detail::cuda::pair_t;

/// Blocks per multiprocessor the counting kernels may use (grid-stride loops).
constexpr long long k_blocks_per_sm = 8;

template <class vid_t>
device_buffer<pair_t<vid_t>> upload_pairs(const std::vector<std::pair<vid_t, vid_t>>& pairs,
                                          void* stream) {
  std::vector<pair_t<vid_t>> packed(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) packed[i] = {pairs[i].first, pairs[i].second};
  device_buffer<pair_t<vid_t>> out(packed.size(), stream);
  if (!packed.empty()) out.copy_from_host(packed.data(), packed.size());
  return out;
}

/// The GPU counting of the shared update steps, on the device copy of the graph.
template <class vid_t, class eid_t>
class device_engine_t {
 public:
  device_engine_t(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                  const options_t&, void* stream)
      : host_(host), stream_(stream), out_(graph.out_view()) {}

  bool count_batch(const std::vector<edge_pair_t<vid_t>>& deleted,
                   const std::vector<edge_pair_t<vid_t>>& inserted, int64_t limit,
                   uint64_t& removed, uint64_t& added, int64_t& work) {
    if (deleted.empty() && inserted.empty()) return true;
    std::vector<edge_pair_t<vid_t>> both_ways;
    both_ways.reserve(2 * deleted.size());
    for (const auto& [u, v] : deleted) {
      both_ways.push_back({u, v});
      both_ways.push_back({v, u});
    }
    std::sort(both_ways.begin(), both_ways.end());
    const auto hidden = upload_pairs(inserted, stream_);
    const auto shown = upload_pairs(deleted, stream_);
    const auto shown_rows = upload_pairs(both_ways, stream_);
    device_buffer<counters_t> sums(2, stream_);
    sums.fill_bytes(0);
    detail::cuda::overlay_view_t<vid_t> before{
        hidden.data(),     static_cast<int64_t>(inserted.size()),
        shown.data(),      static_cast<int64_t>(deleted.size()),
        shown_rows.data(), static_cast<int64_t>(both_ways.size())};
    // Removed triangles on the graph before the batch, added ones on the graph after it. Each
    // count is one kernel: a stop (Ctrl-C) is honoured between them.
    ::dyng::cuda::throw_if_cancelled_on(stream_, "triangle_delta.update()");
    launch_through(shown.data(), static_cast<int64_t>(deleted.size()), before, sums.data());
    ::dyng::cuda::throw_if_cancelled_on(stream_, "triangle_delta.update()");
    launch_through(hidden.data(), static_cast<int64_t>(inserted.size()), {}, sums.data() + 1);
    counters_t got[2];
    sums.copy_to_host(got, 2);
    removed += got[0].found;
    added += got[1].found;
    work += static_cast<int64_t>(got[0].work + got[1].work);
    // The kernels cannot stop part-way without a second pass; the budget is checked after them
    // (a triangle count through k edges costs at most k row walks, so this bounds the waste).
    return work <= limit;
  }

  stats_t compute(state_t<vid_t>& state) {
    return whole_graph_count::count_fresh<detail::tally_t<vid_t>>(
        state, host_.num_vertices(), [&](state_t<vid_t>& fresh) { count_all(fresh); });
  }

 private:
  void count_all(state_t<vid_t>& fresh) {
    device_buffer<counters_t> sums(1, stream_);
    sums.fill_bytes(0);
    ::dyng::cuda::throw_if_cancelled_on(stream_, "triangle_delta.compute()");  // one kernel
    if (out_.num_vertices > 0) {
      const long long warps_wanted = out_.num_vertices;
      detail::cuda::count_all_kernel<<<stride_blocks(warps_wanted * 32, k_blocks_per_sm),
                                       k_block_threads, 0, as_stream(stream_)>>>(out_, sums.data());
      DYNG_CUDA_CHECK(cudaGetLastError());
    }
    counters_t got;
    sums.copy_to_host(&got, 1);
    fresh.count = got.found;
    fresh.compute_work = static_cast<int64_t>(got.work);
  }

  void launch_through(const pair_t<vid_t>* edges, int64_t count,
                      const detail::cuda::overlay_view_t<vid_t>& before, counters_t* sums) {
    if (count == 0) return;
    detail::cuda::count_through_kernel<<<stride_blocks(count, k_blocks_per_sm), k_block_threads, 0,
                                         as_stream(stream_)>>>(out_, edges, count, before, sums);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }

  const graph_t<vid_t, eid_t>& host_;
  void* stream_;
  adjacency_view_t<vid_t, eid_t> out_;
};

}  // namespace

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                const options_t& options, void* stream, device_state_t<vid_t>& state) {
  constexpr const char* fn = "triangle_delta.compute()";
  check_graph(host, fn);
  ::dyng::cuda::check_level(host, graph, fn);
  return whole_graph_count::compute_on_device<device_engine_t<vid_t, eid_t>>(host, graph, options,
                                                                             stream, state);
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state) {
  constexpr const char* fn = "triangle_delta.update()";
  check_graph(host, fn);
  ::dyng::cuda::check_level(host, graph, fn);
  return whole_graph_count::update_on_device<detail::tally_t<vid_t>, device_engine_t<vid_t, eid_t>>(
      host, graph, log, options, stream, state, fn);
}

DYNG_INSTANTIATE_ENTRY_POINTS(cuda, whole)

}  // namespace dyng::triangle_delta::cuda
