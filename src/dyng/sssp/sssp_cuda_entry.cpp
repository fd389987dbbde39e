// Host orchestration of sssp on device-resident graphs (see sssp_cuda.hpp).
#include "dyng/sssp/sssp_cuda.hpp"

#include <string>
#include <utility>

#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/graph/cuda/device_update.hpp"
#include "dyng/core/entry_points.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/sssp/detail/cuda_views.hpp"
#include "dyng/sssp/detail/sssp_checks.hpp"

namespace dyng::sssp::cuda {

namespace {

using ::dyng::cuda::device_graph_t;
using ::dyng::cuda::device_scope_t;

template <class vid_t, class eid_t>
void check_shape(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                 const options_t& options, const char* fn) {
  ::dyng::sssp::detail::check_graph(host, fn);
  ::dyng::cuda::check_level(host, graph, fn);
  ::dyng::sssp::detail::check_options(options, host.num_weights(), fn);
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
  // Weights < 1 could keep the search from settling; find them on the device and let a host
  // scan of the device copy's rows name the offending edge only when there is one (the host
  // graph may be a shell of the device copy, graph_device.hpp).
  if (!weights_positive(graph.out_view(), options.objective, stream)) {
    options_t scan = options;
    scan.validate_inputs = true;
    validate_graph(graph.download(), source, scan);
    throw internal_error(std::string(fn) +
                         ": the device copy holds a weight < 1 that the host graph does not; "
                         "this is a bug in dyng");
  }
  auto fresh = ::dyng::cuda::allocate_result<device_state_t<vid_t>>(source, graph.device(),
                                                                    host.num_vertices());
  stats_t stats;
  ::dyng::sssp::cuda::search_report_t report;
  ::dyng::sssp::cuda::compute(graph.out_view(), graph.in_view(), source, options.objective,
                              options.delta, stream, fresh.distances.data(), fresh.parents.data(),
                              stats, {}, &report);
  // With the delta the caller set, update() repairs with that one: no width to keep.
  if (options.delta > 0) report.width = 0;
  ::dyng::sssp::cuda::prepare_for_updates(fresh, report, stream);
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
  // The policy and its steps are sssp_cuda_update.cu's, which mosp's device update shares.
  return ::dyng::cuda::on_graph_device(state, graph, fn, [&] {
    stats_t stats;
    ::dyng::sssp::cuda::update(graph.out_view(), graph.in_view(), log, options.objective,
                               options.delta, options.repair_budget, stream, state, stats, {},
                               static_cast<int64_t>(graph.num_edges()));
    return stats;
  });
}

DYNG_INSTANTIATE_ENTRY_POINTS(cuda, sourced)

}  // namespace dyng::sssp::cuda
