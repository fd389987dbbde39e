// The device copy of a GraphHandle (CUDA builds): creating it, keeping it in step with apply()
// and reserve(), and the GraphHandle methods that expose it. CPU builds get no-op stand-ins, so
// graph.cpp calls the same functions either way.
#pragma once

#include <string>

#include <nanobind/nanobind.h>

#include "dyng/backend/execution.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/change_log.hpp"
#include "handles.hpp"

namespace dyng::bindings {

/// True when the graph has a device copy. Caller holds the graph's lock.
bool has_device_copy(const graph_handle_t& h);

/// After `g.apply(batch, &log)` under the exclusive lock: brings the device copy level. The
/// batch has been applied by then, so a failed sync must not report the apply as failed: it
/// drops the copy instead, and the next CUDA use uploads the graph again (and reports then).
template <class G, class L>
void sync_device_copy(graph_handle_t& h, const G& g, const L& log);

/// After a change that bumps no version (reserve): uploads the graph again.
template <class G>
void reload_device_copy(graph_handle_t& h, const G& g);

/// Adds to_device, drop_device, device, device_bytes, device_full_uploads, device_rows_synced.
void add_device_methods(nanobind::class_<graph_handle_t>& cls);

#if defined(DYNG_HAVE_CUDA)
/// Refuses host resources for a result that lives on a device.
void require_cuda(const execution_t& exec, const char* fn);

/// The device copy of `g` on the requested device, or a clear error (Python uploads first).
/// Caller holds the graph's lock.
template <class G>
const auto& device_graph_for(const graph_handle_t& h, const G&, const execution_t& exec,
                             const char* fn) {
  const auto* d = h.template device_copy<G>();
  if (d == nullptr || d->device() != exec.device) {
    throw invalid_argument_error(std::string(fn) + "(): the graph has no copy on CUDA device " +
                                 std::to_string(exec.device) +
                                 "; move it there with Graph.to_backend(Resources.cuda(" +
                                 std::to_string(exec.device) + "))");
  }
  return *d;
}
#endif

#if !defined(DYNG_HAVE_CUDA)
inline bool has_device_copy(const graph_handle_t&) { return false; }
template <class G, class L>
void sync_device_copy(graph_handle_t&, const G&, const L&) {}
template <class G>
void reload_device_copy(graph_handle_t&, const G&) {}
#else
template <class G, class L>
void sync_device_copy(graph_handle_t& h, const G& g, const L& log) {
  auto* d = h.device_copy<G>();
  if (d == nullptr) return;
  try {
    d->sync(g, log);
  } catch (...) {
    h.device = std::monostate{};
  }
}

template <class G>
void reload_device_copy(graph_handle_t& h, const G& g) {
  auto* d = h.device_copy<G>();
  if (d == nullptr) return;
  const int device = d->device();
  void* stream = d->stream();
  h.device = std::monostate{};
  using D = cuda::device_graph_t<typename G::vertex_type, typename G::edge_type>;
  h.device = std::make_unique<D>(g, device, stream);
}
#endif

}  // namespace dyng::bindings
