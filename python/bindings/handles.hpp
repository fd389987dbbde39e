// The type-erased native objects shared by the binding files: a graph over one of the compiled
// id/offset combinations, the change log of its last apply(), and the execution request.
//
// Locking: a graph handle carries a shared_mutex because the bindings release the GIL around long
// calls; readers (compute, to_csr, accessors) share it, apply() and reserve() take it alone. Any
// code that holds the lock must not need the GIL, so results are converted to Python objects only
// after the lock is released.
#pragma once

#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <variant>

#include "dyng/backend/execution.hpp"
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

#if defined(DYNG_HAVE_CUDA)
/// The device copy of a graph, when one exists (graph_device.cpp keeps it in step).
using device_mirror_t =
    std::variant<std::monostate, std::unique_ptr<cuda::device_graph_t<int32_t, int32_t>>,
                 std::unique_ptr<cuda::device_graph_t<int32_t, int64_t>>,
                 std::unique_ptr<cuda::device_graph_t<int64_t, int64_t>>>;
#endif

/// The object behind dyng._core.GraphHandle.
struct graph_handle_t {
  graph_variant_t graph;
  mutable std::shared_mutex mutex;
#if defined(DYNG_HAVE_CUDA)
  /// Guarded by `mutex` like the graph: created and synced under the exclusive lock.
  device_mirror_t device;

  /// The device copy for the graph type of `G`, or null when there is none.
  template <class G>
  auto* device_copy() const {
    using D = cuda::device_graph_t<typename G::vertex_type, typename G::edge_type>;
    const auto* p = std::get_if<std::unique_ptr<D>>(&device);
    return p != nullptr ? p->get() : static_cast<D*>(nullptr);
  }
#endif

  explicit graph_handle_t(graph_variant_t g) : graph(std::move(g)) {}

  /// Runs `f(graph)` under a shared lock.
  template <class F>
  decltype(auto) read(F&& f) const {
    std::shared_lock lock(mutex);
    return std::visit(std::forward<F>(f), graph);
  }
  /// Runs `f(graph)` under an exclusive lock.
  template <class F>
  decltype(auto) write(F&& f) {
    std::unique_lock lock(mutex);
    return std::visit(std::forward<F>(f), graph);
  }
};

/// The effective edge changes of one apply(), consumed by the algorithms' update().
struct change_log_handle_t {
  std::variant<change_log_t<int32_t>, change_log_t<int64_t>> log;
  /// Graph version after the apply that filled it; an update checks it against the graph.
  uint64_t graph_version = 0;
};

}  // namespace dyng::bindings
