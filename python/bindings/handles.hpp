// The type-erased native objects shared by the binding files: a graph over one of the compiled
// id/offset combinations, the change log of its last apply(), and the execution request.
//
// Locking: a graph handle carries a shared_mutex because the bindings release the GIL around long
// calls; readers (compute, to_csr, accessors) share it, apply() and reserve() take it alone. Any
// code that holds the lock must not need the GIL, so results are converted to Python objects only
// after the lock is released.
//
// Host rows of a device graph: a graph built on CUDA resources keeps its rows on the device
// only. From its upload on, its host graph is a shell (the right properties, counts and version,
// rows without slots and no host memory for them; graph_device.hpp) and its device copy applies
// every batch alone (device_graph_t::apply). So host memory does not double and a batch costs no
// host work. Whatever
// reads host rows takes lock_host_rows(), which downloads them first; the CUDA entry points,
// which read only the device copy and the shell's counts, take lock_counts().
#pragma once

#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <variant>

#include "dyng/backend/execution.hpp"
#include "dyng/graph/apply_undo.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/graph.hpp"
#if defined(DYNG_HAVE_CUDA)
#include <memory>

#include "dyng/graph/cuda/device_graph.hpp"
#endif

namespace dyng::bindings {

using graph_i32_i32_t = graph_t<int32_t, int32_t>;
using graph_i32_i64_t = graph_t<int32_t, int64_t>;
using graph_i64_i64_t = graph_t<int64_t, int64_t>;
using graph_variant_t = std::variant<graph_i32_i32_t, graph_i32_i64_t, graph_i64_i64_t>;
/// The undo record of a host graph's last revertible apply() (graph/apply_undo.hpp).
using apply_undo_variant_t =
    std::variant<std::monostate, apply_undo_t<int32_t, int32_t>, apply_undo_t<int32_t, int64_t>,
                 apply_undo_t<int64_t, int64_t>>;

#if defined(DYNG_HAVE_CUDA)
/// The device copy of a graph, when one exists (bind_graph_device.cpp keeps it in step).
using device_mirror_t =
    std::variant<std::monostate, std::unique_ptr<cuda::device_graph_t<int32_t, int32_t>>,
                 std::unique_ptr<cuda::device_graph_t<int32_t, int64_t>>,
                 std::unique_ptr<cuda::device_graph_t<int64_t, int64_t>>>;
/// The undo record of a device copy's last revertible apply() (device_graph.hpp).
using device_undo_variant_t =
    std::variant<std::monostate, cuda::device_graph_t<int32_t, int32_t>::undo_t,
                 cuda::device_graph_t<int32_t, int64_t>::undo_t,
                 cuda::device_graph_t<int64_t, int64_t>::undo_t>;
#endif

/// The object behind dyng._core.GraphHandle.
struct graph_handle_t {
  graph_variant_t graph;
  mutable std::shared_mutex mutex;
#if defined(DYNG_HAVE_CUDA)
  /// Guarded by `mutex` like the graph: created and synced under the exclusive lock.
  device_mirror_t device;
  /// The device copy applies the batches (a graph built on CUDA resources), rather than
  /// following the host's (the copy a host graph gets on first CUDA use).
  bool device_primary = false;
  /// True while `graph` is a shell of the device copy (see the header comment).
  bool host_behind = false;
  /// As `undo`, for a batch the device copy applied.
  device_undo_variant_t device_undo;

  /// The device copy for the graph type of `G`, or null when there is none.
  template <class G>
  auto* device_copy() const {
    using D = cuda::device_graph_t<typename G::vertex_type, typename G::edge_type>;
    const auto* p = std::get_if<std::unique_ptr<D>>(&device);
    return p != nullptr ? p->get() : static_cast<D*>(nullptr);
  }
#endif

  /// What revert() needs to take back the last apply() asked to be revertible (dyng.update keeps
  /// it until every result is repaired). Guarded by `mutex` like the graph.
  apply_undo_variant_t undo;

  explicit graph_handle_t(graph_variant_t g) : graph(std::move(g)) {}

  /// The shared lock for reading host rows: taken after the rows are brought level.
  std::shared_lock<std::shared_mutex> lock_host_rows() const;
  /// The exclusive lock for writing the host graph, after its rows are brought level.
  std::unique_lock<std::shared_mutex> lock_host_rows_exclusive();
  /// The shared lock for reading properties, counts and the version only (a shell has them).
  std::shared_lock<std::shared_mutex> lock_counts() const {
    return std::shared_lock<std::shared_mutex>(mutex);
  }

  /// Runs `f(graph)` under a shared lock, host rows level.
  template <class F>
  decltype(auto) read(F&& f) const {
    const auto lock = lock_host_rows();
    return std::visit(std::forward<F>(f), graph);
  }
  /// Runs `f(graph)` under a shared lock; f may read properties, counts and the version only.
  template <class F>
  decltype(auto) read_counts(F&& f) const {
    const auto lock = lock_counts();
    return std::visit(std::forward<F>(f), graph);
  }
  /// Runs `f(graph)` under an exclusive lock, host rows level.
  template <class F>
  decltype(auto) write(F&& f) {
    const auto lock = lock_host_rows_exclusive();
    return std::visit(std::forward<F>(f), graph);
  }
};

#if defined(DYNG_HAVE_CUDA)
/// Replaces a shell by the device copy's rows (bind_graph_device.cpp). Caller holds the exclusive
/// lock.
void bring_host_level(graph_handle_t& h);

inline std::shared_lock<std::shared_mutex> graph_handle_t::lock_host_rows() const {
  for (;;) {
    std::shared_lock<std::shared_mutex> shared(mutex);
    if (!host_behind) return shared;
    shared.unlock();
    std::unique_lock<std::shared_mutex> exclusive(mutex);
    // The host rows are a cache of the device copy: filling them changes no observable state.
    bring_host_level(const_cast<graph_handle_t&>(*this));
  }
}

inline std::unique_lock<std::shared_mutex> graph_handle_t::lock_host_rows_exclusive() {
  std::unique_lock<std::shared_mutex> exclusive(mutex);
  bring_host_level(*this);
  return exclusive;
}
#else
inline std::shared_lock<std::shared_mutex> graph_handle_t::lock_host_rows() const {
  return std::shared_lock<std::shared_mutex>(mutex);
}
inline std::unique_lock<std::shared_mutex> graph_handle_t::lock_host_rows_exclusive() {
  return std::unique_lock<std::shared_mutex>(mutex);
}
#endif

/// Frees the undo records of the graph's last apply (host or device). Caller holds the
/// exclusive lock.
inline void forget_undo(graph_handle_t& h) {
  h.undo = std::monostate{};
#if defined(DYNG_HAVE_CUDA)
  h.device_undo = std::monostate{};
#endif
}

/// The effective edge changes of one apply(), consumed by the algorithms' update().
struct change_log_handle_t {
  std::variant<change_log_t<int32_t>, change_log_t<int64_t>> log;
  /// Graph version after the apply that filled it; an update checks it against the graph.
  uint64_t graph_version = 0;
};

}  // namespace dyng::bindings
