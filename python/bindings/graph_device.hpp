// The device copy of a GraphHandle (CUDA builds): creating it, applying batches on it, the host
// shell it leaves behind (handles.hpp), reloading it after reserve(), and the GraphHandle methods
// that expose it. CPU builds get stand-ins, so bind_graph.cpp calls the same functions either way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>

#include <nanobind/nanobind.h>

#include "dyng/backend/execution.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/change_log.hpp"
#include "handles.hpp"

namespace dyng::bindings {

/// An ApplySummary's counters as the dict the Python layer turns into one (bind_graph.cpp).
nanobind::dict summary_to_dict(const apply_summary_t& s);

/// True when the graph has a device copy. Caller holds the graph's lock.
bool has_device_copy(const graph_handle_t& h);

/// True while the host graph is a shell of the device copy (handles.hpp). Caller holds the lock.
bool host_is_shell(const graph_handle_t& h);

/// A copy of a graph whose device copy applies its batches, made on that device (the new
/// handle's host graph is a shell); null for any other graph. Caller holds the lock.
std::unique_ptr<graph_handle_t> clone_on_device(const graph_handle_t& h);

/// True when the graph's batches are applied by its device copy (a graph built on CUDA
/// resources); false without a copy, or for the copy a host graph gets on first CUDA use, which
/// follows the host's batches instead. Caller holds the graph's lock.
bool device_applies(const graph_handle_t& h);

/// Under the exclusive lock, when device_applies(h): the device copy applies the batch
/// (atomically, as graph_t::apply would) and `g` becomes its shell. With `revertible`, the undo
/// record is kept in h.device_undo (revert_on_device()).
template <class G, class B, class L>
apply_summary_t apply_on_device(graph_handle_t& h, G& g, const B& batch, L* log, bool revertible);

/// Under the exclusive lock, when device_applies(h): takes back the last revertible apply from
/// `version` (the graph's revert()); throws invalid_argument_error when none is recorded.
template <class G>
void revert_on_device(graph_handle_t& h, G& g, uint64_t version);

/// After `g.apply(batch, &log)` under the exclusive lock, for a copy that follows the host:
/// brings it level. The batch has been applied by then, so a failed sync must not report the
/// apply as failed: it drops the copy instead, and the next CUDA use uploads the graph again.
template <class G, class L>
void sync_device_copy(graph_handle_t& h, const G& g, const L& log);

/// After a change that bumps no version (reserve): uploads the graph again.
template <class G>
void reload_device_copy(graph_handle_t& h, const G& g);

/// Frees the device copy, if any: a copy that followed the host is uploaded again by the next
/// CUDA use. Caller holds the exclusive lock.
void drop_device_copy(graph_handle_t& h);

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
inline bool device_applies(const graph_handle_t&) { return false; }
inline bool host_is_shell(const graph_handle_t&) { return false; }
inline std::unique_ptr<graph_handle_t> clone_on_device(const graph_handle_t&) { return nullptr; }
template <class G, class L>
void sync_device_copy(graph_handle_t&, const G&, const L&) {}
template <class G, class B, class L>
apply_summary_t apply_on_device(graph_handle_t&, G&, const B&, L*, bool) {
  throw internal_error("Graph.apply(): a CPU build has no device copies; this is a bug in dyng");
}
template <class G>
void revert_on_device(graph_handle_t&, G&, uint64_t) {
  throw internal_error("Graph.revert(): a CPU build has no device copies; this is a bug in dyng");
}
template <class G>
void reload_device_copy(graph_handle_t&, const G&) {}
inline void drop_device_copy(graph_handle_t&) {}
#else
inline void drop_device_copy(graph_handle_t& h) { h.device = std::monostate{}; }
/// A graph with the properties, counts and version of the device copy `d` and no slots: its row
/// offsets are zero pages that cost no memory (core/zeroed_array.hpp), so a stray read of its
/// rows sees empty rows, never memory out of bounds.
template <class G, class D>
G host_shell(const D& d) {
  typename G::direction_t out, in;
  const auto n = static_cast<size_t>(d.num_vertices());
  const bool in_rows = d.properties().directed && d.has_transposed();
  for (auto* direction : {&out, &in}) {
    if (direction == &in && !in_rows) continue;
    direction->row_begin.resize(n);
    direction->row_end.resize(n);
    direction->row_capacity_end.resize(n);
  }
  return G::from_storage(std::move(out), std::move(in), d.num_vertices(), d.num_edges(),
                         d.properties(), d.version(), d.relayout_count());
}

/// Makes `g` the shell of `d` after an apply or revert: the shell it is already, when it has the
/// same rows (vertex count and directions), follows the copy's counts and version; else a new
/// shell replaces it.
template <class G, class D>
void follow_with_shell(graph_handle_t& h, G& g, const D& d) {
  const auto n = static_cast<size_t>(d.num_vertices());
  const bool in_rows = d.properties().directed && d.has_transposed();
  const bool same_rows = h.host_behind && g.out_storage().col.empty() &&
                         g.out_storage().row_begin.size() == n &&
                         g.in_storage().row_begin.size() == (in_rows ? n : 0);
  if (same_rows) {
    g.follow_device_copy(d.num_edges(), d.version(), d.relayout_count());
  } else {
    g = host_shell<G>(d);
  }
  h.host_behind = true;
}

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

template <class G, class B, class L>
apply_summary_t apply_on_device(graph_handle_t& h, G& g, const B& batch, L* log, bool revertible) {
  auto* d = h.device_copy<G>();
  using undo_t = typename std::remove_pointer_t<decltype(d)>::undo_t;
  h.device_undo = std::monostate{};
  undo_t* undo = revertible ? &h.device_undo.template emplace<undo_t>() : nullptr;
  const apply_summary_t summary = d->apply(batch, log, undo);
  follow_with_shell(h, g, *d);
  return summary;
}

template <class G>
void revert_on_device(graph_handle_t& h, G& g, uint64_t version) {
  auto* d = h.device_copy<G>();
  using undo_t = typename std::remove_pointer_t<decltype(d)>::undo_t;
  auto* undo = std::get_if<undo_t>(&h.device_undo);
  if (undo == nullptr || !undo->recorded || undo->version != version) {
    throw invalid_argument_error(
        "Graph.revert(): no revertible apply from version " + std::to_string(version) +
        " is recorded (the graph is at version " + std::to_string(d->version()) +
        "); revert only the last apply made with revertible=True");
  }
  d->revert(*undo);
  h.device_undo = std::monostate{};
  follow_with_shell(h, g, *d);
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
