// The one instantiation of every algorithm's entry points. An algorithm's compute() and update()
// have one of two shapes on each backend: whole-graph (compute(graph, options, ...)) or sourced
// (compute(graph, source, options, ...)), with update(graph, log, options, ...) either way. An
// implementation file defines them in the algorithm's namespace (host) or its `cuda` namespace
// (device, next to its device_state_t), then ends with one line:
//   DYNG_INSTANTIATE_ENTRY_POINTS(host, whole)     // or (host, sourced), (cuda, ...)
// which compiles them for every combination of DYNG_FOR_EACH_GRAPH_TYPES; the signatures are
// written here once. Other templates a file exports (oracles, checks) it instantiates itself.
#pragma once

#include "dyng/core/graph_types.hpp"

#define DYNG_ENTRY_POINT_UPDATE_host(V, E)                                                \
  template stats_t update(const graph_t<V, E>&, const change_log_t<V>&, const options_t&, \
                          const execution_t&, state_t<V>&);
#define DYNG_ENTRY_POINT_UPDATE_cuda(V, E)                                                 \
  template stats_t update(const graph_t<V, E>&, const ::dyng::cuda::device_graph_t<V, E>&, \
                          const change_log_t<V>&, const options_t&, void*, device_state_t<V>&);

#define DYNG_ENTRY_POINTS_host_whole(V, E)                                             \
  template stats_t compute(const graph_t<V, E>&, const options_t&, const execution_t&, \
                           state_t<V>&);                                               \
  DYNG_ENTRY_POINT_UPDATE_host(V, E)
#define DYNG_ENTRY_POINTS_host_sourced(V, E)                                              \
  template stats_t compute(const graph_t<V, E>&, V, const options_t&, const execution_t&, \
                           state_t<V>&);                                                  \
  DYNG_ENTRY_POINT_UPDATE_host(V, E)
#define DYNG_ENTRY_POINTS_cuda_whole(V, E)                                                  \
  template stats_t compute(const graph_t<V, E>&, const ::dyng::cuda::device_graph_t<V, E>&, \
                           const options_t&, void*, device_state_t<V>&);                    \
  DYNG_ENTRY_POINT_UPDATE_cuda(V, E)
#define DYNG_ENTRY_POINTS_cuda_sourced(V, E)                                                   \
  template stats_t compute(const graph_t<V, E>&, const ::dyng::cuda::device_graph_t<V, E>&, V, \
                           const options_t&, void*, device_state_t<V>&);                       \
  DYNG_ENTRY_POINT_UPDATE_cuda(V, E)

/// compute() and update() of the algorithm whose namespace this expands in, for every graph
/// type combination. backend: host or cuda; shape: whole or sourced (see above).
#define DYNG_INSTANTIATE_ENTRY_POINTS(backend, shape) \
  DYNG_FOR_EACH_GRAPH_TYPES(DYNG_ENTRY_POINTS_##backend##_##shape)
