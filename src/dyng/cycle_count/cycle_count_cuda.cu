// Host side of cycle_count on the GPU: the entry points, with update() as the shared policy over
// the whole-graph count steps (whole_graph_count/update_steps.hpp) and the GPU path searches of
// detail/cuda/search_launch.cuh as their counting engine.
#include "dyng/cycle_count/cycle_count_cuda.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/entry_points.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/cycle_count/detail/cuda/degree_sum.cuh"
#include "dyng/cycle_count/detail/cuda/search_launch.cuh"
#include "dyng/cycle_count/detail/tally.hpp"
#include "dyng/whole_graph_count/device_entry.hpp"

namespace dyng::cycle_count::cuda {
namespace {

using ::dyng::cuda::device_graph_t;
using detail::edge_pair_t;

template <class vid_t, class eid_t>
void check_call(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                const options_t& options, const char* fn) {
  check_graph(host, fn);
  check_options(options, fn);
  ::dyng::cuda::check_level(host, graph, fn);
  const int64_t bound = bound_of(options.max_length, host.num_vertices());
  if (bound > k_max_bound) {
    throw not_supported_error(std::string(fn) + ": the CUDA backend counts cycles of up to " +
                              std::to_string(k_max_bound) + " edges, but this count needs " +
                              std::to_string(bound) +
                              (options.max_length == k_unbounded
                                   ? " (no max_length on " + std::to_string(bound) + " vertices)"
                                   : " (max_length " + std::to_string(bound) + ")") +
                              "; pass max_length <= " + std::to_string(k_max_bound) +
                              " or use the openmp or sequential backend");
  }
}

/// The GPU counting of the shared update steps, on the device copy of the graph.
template <class eid_t>
class device_engine_t {
 public:
  device_engine_t(const graph_t<int32_t, eid_t>& host, const device_graph_t<int32_t, eid_t>& graph,
                  const options_t& options, void* stream)
      : host_(host), options_(options), stream_(stream), out_(graph.out_view()) {
    const auto& props = host.properties();
    if (!props.directed || host.has_transposed()) in_ = in_edges_view(graph, props.directed);
  }

  bool count_batch(const std::vector<edge_pair_t<int32_t>>& deleted,
                   const std::vector<edge_pair_t<int32_t>>& inserted, int64_t limit,
                   std::vector<uint64_t>& removed, std::vector<uint64_t>& added, int64_t& work) {
    if (deleted.empty() && inserted.empty()) return true;
    const auto bound = static_cast<int64_t>(removed.size()) - 1;
    // The first list's length at most: the out-lists of the edges' heads, a deleted edge's head
    // with its own deleted out-edges (the graph before the batch shows them). The degrees are
    // read on the device: a device graph keeps no host rows.
    std::vector<int32_t> heads;
    heads.reserve(inserted.size() + deleted.size());
    long long first_paths = 1;
    for (const auto& [u, v] : inserted) heads.push_back(v);
    for (const auto& [u, v] : deleted) {
      const auto from_v =
          std::equal_range(deleted.begin(), deleted.end(), edge_pair_t<int32_t>{v, 0},
                           [](const auto& a, const auto& b) { return a.first < b.first; });
      heads.push_back(v);
      first_paths += from_v.second - from_v.first;
    }
    first_paths += detail::cuda::degree_sum(out_, heads, stream_);
    return make_searches().count_batch(deleted, inserted, bound, limit, first_paths, removed, added,
                                       work);
  }

  stats_t compute(state_t<int32_t>& state) {
    const int64_t n = host_.num_vertices();
    return whole_graph_count::count_fresh<detail::tally_t<int32_t>>(
        state, n, [&](state_t<int32_t>& fresh) {
          fresh.max_length = options_.max_length;
          const int64_t bound = bound_of(options_.max_length, n);
          fresh.counts.assign(static_cast<size_t>(bound) + 1, 0);
          make_searches().count_roots(bound, fresh.counts, fresh.compute_work);
        });
  }

 private:
  detail::cuda::path_searches_t<eid_t> make_searches() const {
    return detail::cuda::path_searches_t<eid_t>(
        out_, in_.num_vertices < 0 ? nullptr : &in_, static_cast<int64_t>(host_.num_edges()),
        options_.gpu_wave_slots, options_.gpu_depth_first_paths, stream_);
  }

  const graph_t<int32_t, eid_t>& host_;
  options_t options_;
  void* stream_;
  adjacency_view_t<int32_t, eid_t> out_;
  adjacency_view_t<int32_t, eid_t> in_{-1};  ///< num_vertices -1: the graph keeps no in-edges
};

}  // namespace

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                const options_t& options, void* stream, device_state_t<vid_t>& state) {
  constexpr const char* fn = "cycle_count.compute()";
  check_call(host, graph, options, fn);
  if constexpr (sizeof(vid_t) != 4) {
    throw internal_error(std::string(fn) + ": 64-bit ids passed the check; this is a bug in dyng");
  } else {
    return whole_graph_count::compute_on_device<device_engine_t<eid_t>>(host, graph, options,
                                                                        stream, state);
  }
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state) {
  constexpr const char* fn = "cycle_count.update()";
  check_call(host, graph, options, fn);
  detail::check_same_length(options, state.max_length, fn);
  if constexpr (sizeof(vid_t) != 4) {
    throw internal_error(std::string(fn) + ": 64-bit ids passed the check; this is a bug in dyng");
  } else {
    return whole_graph_count::update_on_device<detail::tally_t<vid_t>, device_engine_t<eid_t>>(
        host, graph, log, options, stream, state, fn);
  }
}

DYNG_INSTANTIATE_ENTRY_POINTS(cuda, whole)

}  // namespace dyng::cycle_count::cuda
