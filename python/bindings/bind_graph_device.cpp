// GraphHandle's device-copy methods (CUDA builds only; see graph_device.hpp).
#include "graph_device.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace nb = nanobind;

namespace dyng::bindings {

bool has_device_copy(const graph_handle_t& h) {
  return !std::holds_alternative<std::monostate>(h.device);
}

bool host_is_shell(const graph_handle_t& h) { return h.host_behind; }

std::unique_ptr<graph_handle_t> clone_on_device(const graph_handle_t& h) {
  if (!has_device_copy(h) || !h.device_primary) return nullptr;
  return std::visit(
      [&](const auto& g) {
        using G = std::decay_t<decltype(g)>;
        auto copy = h.device_copy<G>()->clone();
        auto handle = std::make_unique<graph_handle_t>(graph_variant_t(host_shell<G>(*copy)));
        handle->device = std::move(copy);
        handle->device_primary = true;
        handle->host_behind = true;
        return handle;
      },
      h.graph);
}

bool device_applies(const graph_handle_t& h) { return has_device_copy(h) && h.device_primary; }

void bring_host_level(graph_handle_t& h) {
  if (!h.host_behind) return;
  std::visit(
      [&](auto& g) {
        const auto* d = h.device_copy<std::decay_t<decltype(g)>>();
        if (d == nullptr) {
          throw internal_error(
              "Graph: the host rows are behind a device copy that is gone; "
              "this is a bug in dyng");
        }
        g = d->download();
      },
      h.graph);
  h.host_behind = false;
}

void require_cuda(const execution_t& exec, const char* fn) {
  if (exec.backend != backend_t::cuda) {
    throw invalid_argument_error(std::string(fn) +
                                 "(): this result lives on a CUDA device; pass CUDA resources, or "
                                 "clone the result to the host first");
  }
}

namespace {

/// Uploads the graph to `device` unless a copy is already there; a copy on another device is
/// replaced (a graph keeps one device copy). `primary`: the copy applies the graph's batches,
/// and the host keeps no rows from then on (they come back when something reads them).
void to_device(graph_handle_t& h, int device, uintptr_t stream, bool primary) {
  nb::gil_scoped_release release;
  std::unique_lock lock(h.mutex);
  std::visit(
      [&](auto& g) {
        using G = std::decay_t<decltype(g)>;
        using D = cuda::device_graph_t<typename G::vertex_type, typename G::edge_type>;
        const auto* current = h.device_copy<G>();
        const bool kept = current != nullptr && current->device() == device;
        if (!kept) {
          bring_host_level(h);  // a copy on another device holds the only rows
          h.device = std::monostate{};
          h.device = std::make_unique<D>(g, device, reinterpret_cast<void*>(stream));
        }
        // A primary copy stays primary: the host may hold no rows to follow with.
        h.device_primary = primary || (kept && h.device_primary);
        if (primary && !h.host_behind) {
          g = host_shell<G>(*h.device_copy<G>());
          h.host_behind = true;
        }
      },
      h.graph);
}

template <class F>
auto device_reader(F f, int64_t none) {
  return [f, none](const graph_handle_t& h) -> int64_t {
    std::shared_lock lock(h.mutex);
    return std::visit(
        [&](const auto& g) -> int64_t {
          const auto* d = h.device_copy<std::decay_t<decltype(g)>>();
          return d == nullptr ? none : static_cast<int64_t>(f(*d));
        },
        h.graph);
  };
}

}  // namespace

void add_device_methods(nb::class_<graph_handle_t>& cls) {
  cls.def("to_device", &to_device, nb::arg("device"), nb::arg("stream") = 0,
          nb::arg("primary") = false,
          "Uploads the graph to a CUDA device (no-op when a copy is already there); a primary "
          "copy applies the graph's batches itself, any other follows the host's.")
      .def(
          "drop_device",
          [](graph_handle_t& h) {
            nb::gil_scoped_release release;
            const auto lock = h.lock_host_rows_exclusive();  // the rows come home first
            h.device = std::monostate{};
          },
          "Frees the device copy (its rows are copied to the host first when only it has them).")
      .def_prop_ro("device", device_reader([](const auto& d) { return d.device(); }, -1),
                   "Ordinal of the device holding a copy, -1 when none.")
      .def_prop_ro("device_bytes", device_reader([](const auto& d) { return d.bytes(); }, 0))
      .def_prop_ro("device_full_uploads",
                   device_reader([](const auto& d) { return d.full_uploads(); }, 0))
      .def_prop_ro("device_rows_synced",
                   device_reader([](const auto& d) { return d.rows_synced(); }, 0))
      .def_prop_ro(
          "host_rows_current",
          [](const graph_handle_t& h) {
            const auto lock = h.lock_counts();
            return !host_is_shell(h);
          },
          "False while only the device copy holds the rows (the host graph is a shell).")
      .def_prop_ro("device_rows_uploaded",
                   device_reader([](const auto& d) { return d.rows_uploaded(); }, 0),
                   "Rows of the last sync copied whole from the host (the rest were replayed).");
}

}  // namespace dyng::bindings
