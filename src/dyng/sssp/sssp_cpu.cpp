// Host entry points of dynamic SSSP (sequential and OpenMP backends) and their instantiation for
// the compiled id/offset combinations. The graph is only unpacked into adjacency views here; all
// algorithmic work lives in detail/.
#include "dyng/sssp/sssp.hpp"

#include <string>
#include <vector>

#include "dyng/backend/profile.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/entry_points.hpp"
#include "dyng/graph/detail/batch_validate.hpp"
#include "dyng/sssp/detail/host_entry.hpp"
#include "dyng/sssp/detail/reference_dijkstra.hpp"
#include "dyng/sssp/detail/result_certificate.hpp"

namespace dyng::sssp {
namespace {

using detail::check_graph;
using detail::views_of;

}  // namespace

template <class vid_t, class eid_t>
void validate_graph(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
                    const char* fn) {
  check_graph(graph, fn);
  detail::check_options(options, graph.num_weights(), fn);
  detail::check_source(source, graph.num_vertices(), fn);
  if (options.validate_inputs)
    detail::checked_weight_range(graph.out_view(), options.objective, fn);
}

void check_insertion_weights(const weight_fault_t* first_below_one, int num_weights,
                             const options_t& options, const char* fn) {
  if (num_weights == 0) return;  // no weights at all: the graph's apply() rejects or ignores it
  detail::check_objective(options.objective, num_weights, fn);
  const auto& f = first_below_one[options.objective];
  if (f.index < 0) return;
  const std::string edge =
      f.u >= 0 ? " (" + std::to_string(f.u) + ", " + std::to_string(f.v) + ")" : std::string();
  throw invalid_argument_error(std::string(fn) + ": insertion " + std::to_string(f.index) + edge +
                               " has weight " + std::to_string(f.weight) + " in objective column " +
                               std::to_string(options.objective) + "; " +
                               std::string(algorithm_of_call(fn)) +
                               " needs weights in [1, 2^31-1], so fix the batch");
}

template <class vid_t>
void validate_batch(const edge_batch_t<vid_t>& batch, const options_t& options, const char* fn) {
  const int k = batch.num_weights;
  if (k == 0) return;
  // Only the objective's column is scanned; the others stay unread (-1).
  std::vector<weight_fault_t> faults(static_cast<size_t>(k));
  if (options.objective >= 0 && options.objective < k) {
    faults[static_cast<size_t>(options.objective)] =
        ::dyng::detail::first_weight_below_one(batch, options.objective);
  }
  check_insertion_weights(faults.data(), k, options, fn);
}

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state) {
  check_host_backend(exec, "sssp.compute()");
  check_graph(graph, "sssp.compute()");
  return detail::compute_views(views_of(graph), source, options, exec, state);
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  check_host_backend(exec, "sssp.update()");
  check_graph(graph, "sssp.update()");
  return detail::update_views(views_of(graph), log, options, exec, state);
}

template <class vid_t, class eid_t>
void canonicalize_parents(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                          const execution_t& exec, state_t<vid_t>& state) {
  check_host_backend(exec, "sssp.canonicalize_parents()");
  check_graph(graph, "sssp.canonicalize_parents()");
  detail::canonicalize_views(views_of(graph), options, exec, state);
}

template <class vid_t, class eid_t>
void check_result(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                  const state_t<vid_t>& state, bool canonicalized, const char* fn) {
  check_graph(graph, fn);
  const auto in = views_of(graph).in;
  detail::check_result_certificate(in, detail::column_of(in, options.objective),
                                   state.distances.data(), state.parents.data(), state.source,
                                   canonicalized, fn);
}

template <class vid_t, class eid_t>
state_t<vid_t> reference_dijkstra(const graph_t<vid_t, eid_t>& graph, vid_t source, int objective) {
  const char* fn = "testing.dijkstra()";
  if (graph.num_weights() == 0) {
    throw not_supported_error(std::string(fn) + ": the graph is unweighted; pass a weighted graph");
  }
  options_t options;
  options.objective = objective;
  detail::check_options(options, graph.num_weights(), fn);
  detail::check_source(source, graph.num_vertices(), fn);
  detail::checked_weight_range(graph.out_view(), objective, fn);
  return detail::reference_dijkstra_view(graph.out_view(), source, objective);
}

DYNG_INSTANTIATE_ENTRY_POINTS(host, sourced)
#define DYNG_INSTANTIATE_SSSP_CPU(VID, EID)                                                   \
  template void validate_graph(const graph_t<VID, EID>&, VID, const options_t&, const char*); \
  template void canonicalize_parents(const graph_t<VID, EID>&, const options_t&,              \
                                     const execution_t&, state_t<VID>&);                      \
  template void check_result(const graph_t<VID, EID>&, const options_t&, const state_t<VID>&, \
                             bool, const char*);                                              \
  template state_t<VID> reference_dijkstra(const graph_t<VID, EID>&, VID, int);
#define DYNG_INSTANTIATE_SSSP_BATCH(VID) \
  template void validate_batch(const edge_batch_t<VID>&, const options_t&, const char*);

DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_SSSP_CPU)
DYNG_FOR_EACH_VERTEX_TYPE(DYNG_INSTANTIATE_SSSP_BATCH)
#undef DYNG_INSTANTIATE_SSSP_CPU
#undef DYNG_INSTANTIATE_SSSP_BATCH

}  // namespace dyng::sssp
