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

void require_cuda(const execution_t& exec, const char* fn) {
  if (exec.backend != backend_t::cuda) {
    throw invalid_argument_error(std::string(fn) +
                                 "(): this result lives on a CUDA device; pass CUDA resources, or "
                                 "clone the result to the host first");
  }
}

namespace {

/// Uploads the graph to `device` unless a copy is already there; a copy on another device is
/// replaced (a graph keeps one device copy).
void to_device(graph_handle_t& h, int device, uintptr_t stream) {
  nb::gil_scoped_release release;
  std::unique_lock lock(h.mutex);
  std::visit(
      [&](const auto& g) {
        using G = std::decay_t<decltype(g)>;
        using D = cuda::device_graph_t<typename G::vertex_type, typename G::edge_type>;
        const auto* current = h.device_copy<G>();
        if (current != nullptr && current->device() == device) return;
        h.device = std::monostate{};
        h.device = std::make_unique<D>(g, device, reinterpret_cast<void*>(stream));
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
          "Uploads the graph to a CUDA device (no-op when a copy is already there).")
      .def(
          "drop_device",
          [](graph_handle_t& h) {
            nb::gil_scoped_release release;
            std::unique_lock lock(h.mutex);
            h.device = std::monostate{};
          },
          "Frees the device copy.")
      .def_prop_ro("device", device_reader([](const auto& d) { return d.device(); }, -1),
                   "Ordinal of the device holding a copy, -1 when none.")
      .def_prop_ro("device_bytes", device_reader([](const auto& d) { return d.bytes(); }, 0))
      .def_prop_ro("device_full_uploads",
                   device_reader([](const auto& d) { return d.full_uploads(); }, 0))
      .def_prop_ro("device_rows_synced",
                   device_reader([](const auto& d) { return d.rows_synced(); }, 0))
      .def_prop_ro("device_rows_uploaded",
                   device_reader([](const auto& d) { return d.rows_uploaded(); }, 0),
                   "Rows of the last sync copied whole from the host (the rest were replayed).");
}

}  // namespace dyng::bindings
