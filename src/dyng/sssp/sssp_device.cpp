// Host orchestration of sssp on device-resident graphs (see sssp_device.hpp).
#include "dyng/sssp/sssp_device.hpp"

#include <string>
#include <utility>

#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/sssp/detail/sssp_checks.hpp"
#include "dyng/sssp/sssp_cuda.hpp"

namespace dyng::sssp::cuda {

namespace {

using ::dyng::cuda::device_buffer;
using ::dyng::cuda::device_graph_t;
using ::dyng::cuda::device_scope_t;

template <class vid_t, class eid_t>
void check_shape(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                 const options_t& options, const char* fn) {
  ::dyng::sssp::detail::check_graph(host, fn);
  if (graph.version() != host.version()) {
    throw internal_error(std::string(fn) + ": the device copy of the graph is at version " +
                         std::to_string(graph.version()) + " but the graph is at " +
                         std::to_string(host.version()) + "; this is a bug in dyng");
  }
  ::dyng::sssp::detail::check_options(options, host.num_weights(), fn);
}

/// Fresh, uninitialised result buffers for `n` vertices. Long-lived, so allocated on the default
/// stream (a caller's stream may be destroyed before the result is).
template <class vid_t>
device_state_t<vid_t> allocate(vid_t source, int device, int64_t n) {
  device_state_t<vid_t> state;
  state.source = source;
  state.device = device;
  state.num_vertices = n;
  state.distances = device_buffer<int64_t>(static_cast<size_t>(n));
  state.parents = device_buffer<vid_t>(static_cast<size_t>(n));
  return state;
}

}  // namespace

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                vid_t source, const options_t& options, void* stream,
                device_state_t<vid_t>& state) {
  constexpr const char* fn = "sssp.compute()";
  check_shape(host, graph, options, fn);
  ::dyng::sssp::detail::check_source(source, host.num_vertices(), fn);
  device_scope_t scope(graph.device());
  // Weights < 1 could keep the search from settling; find them on the device and let the host
  // scan name the offending edge only when there is one.
  if (!weights_positive(graph.out_view(), options.objective, stream)) {
    options_t scan = options;
    scan.validate_inputs = true;
    validate_graph(host, source, scan);
    throw internal_error(std::string(fn) +
                         ": the device copy holds a weight < 1 that the host graph does not; "
                         "this is a bug in dyng");
  }
  device_state_t<vid_t> fresh = allocate(source, graph.device(), host.num_vertices());
  stats_t stats;
  ::dyng::sssp::cuda::compute(graph.out_view(), graph.in_view(), source, options.objective,
                              options.delta, stream, fresh.distances.data(),
                              fresh.parents.data(), stats);
  stats.path = update_path_t::compute;
  state = std::move(fresh);
  return stats;
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
               const change_log_t<vid_t>& log, const options_t& options, void* stream,
               device_state_t<vid_t>& state) {
  constexpr const char* fn = "sssp.update()";
  check_shape(host, graph, options, fn);
  if (state.device != graph.device()) {
    throw invalid_argument_error(std::string(fn) + ": the result lives on CUDA device " +
                                 std::to_string(state.device) + " but the graph on device " +
                                 std::to_string(graph.device()) +
                                 "; clone the result to the graph's device first");
  }
  device_scope_t scope(graph.device());
  stats_t stats;
  ::dyng::sssp::cuda::update(graph.out_view(), graph.in_view(), log, options.objective,
                             options.delta, options.repair_budget, stream, state, stats);
  return stats;
}

template <class vid_t, class eid_t>
void canonicalize_parents(const device_graph_t<vid_t, eid_t>& graph, const options_t& options,
                          void* stream, device_state_t<vid_t>& state) {
  device_scope_t scope(graph.device());
  ::dyng::sssp::cuda::canonical_parents(graph.in_view(), state.source, options.objective,
                                        state.distances.data(), stream, state.parents.data());
  ::dyng::cuda::synchronize(stream);
}

template <class vid_t>
device_state_t<vid_t> clone(const device_state_t<vid_t>& state, void* stream) {
  device_scope_t scope(state.device);
  device_state_t<vid_t> copy = allocate(state.source, state.device, state.num_vertices);
  const auto n = static_cast<size_t>(state.num_vertices);
  ::dyng::cuda::copy_on_device(copy.distances.data(), state.distances.data(),
                               n * sizeof(int64_t), stream);
  ::dyng::cuda::copy_on_device(copy.parents.data(), state.parents.data(), n * sizeof(vid_t),
                               stream);
  ::dyng::cuda::synchronize(stream);
  return copy;
}

template <class vid_t>
state_t<vid_t> to_host(const device_state_t<vid_t>& state, void* stream) {
  device_scope_t scope(state.device);
  state_t<vid_t> host;
  host.source = state.source;
  host.distances.resize(static_cast<size_t>(state.num_vertices));
  host.parents.resize(static_cast<size_t>(state.num_vertices));
  ::dyng::cuda::copy_to_host(host.distances.data(), state.distances.data(),
                             host.distances.size() * sizeof(int64_t), stream);
  ::dyng::cuda::copy_to_host(host.parents.data(), state.parents.data(),
                             host.parents.size() * sizeof(vid_t), stream);
  ::dyng::cuda::synchronize(stream);
  return host;
}

template <class vid_t>
device_state_t<vid_t> to_device(const state_t<vid_t>& state, int device, void* stream) {
  device_scope_t scope(device);
  device_state_t<vid_t> copy =
      allocate(state.source, device, static_cast<int64_t>(state.distances.size()));
  ::dyng::cuda::copy_to_device(copy.distances.data(), state.distances.data(),
                               state.distances.size() * sizeof(int64_t), stream);
  ::dyng::cuda::copy_to_device(copy.parents.data(), state.parents.data(),
                               state.parents.size() * sizeof(vid_t), stream);
  ::dyng::cuda::synchronize(stream);
  return copy;
}

#define DYNG_INSTANTIATE_SSSP_DEVICE(VID, EID)                                                  \
  template stats_t compute(const graph_t<VID, EID>&, const device_graph_t<VID, EID>&, VID,     \
                           const options_t&, void*, device_state_t<VID>&);                     \
  template stats_t update(const graph_t<VID, EID>&, const device_graph_t<VID, EID>&,           \
                          const change_log_t<VID>&, const options_t&, void*,                   \
                          device_state_t<VID>&);                                               \
  template void canonicalize_parents(const device_graph_t<VID, EID>&, const options_t&, void*, \
                                     device_state_t<VID>&);
#define DYNG_INSTANTIATE_SSSP_DEVICE_COPIES(VID)                                    \
  template device_state_t<VID> clone(const device_state_t<VID>&, void*);           \
  template state_t<VID> to_host(const device_state_t<VID>&, void*);                \
  template device_state_t<VID> to_device(const state_t<VID>&, int, void*);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_SSSP_DEVICE)
DYNG_FOR_EACH_VERTEX_TYPE(DYNG_INSTANTIATE_SSSP_DEVICE_COPIES)
#undef DYNG_INSTANTIATE_SSSP_DEVICE
#undef DYNG_INSTANTIATE_SSSP_DEVICE_COPIES

}  // namespace dyng::sssp::cuda
