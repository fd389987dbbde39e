// What every device result class offers besides add_result_methods(): compute and update on the
// graph's device copy, the device it lives on, and the copies between it and its host class
// (CUDA builds; backend/cuda/device_result.hpp does the copying). The algorithm's
// cuda::compute(host, device_graph, source, options, stream, state) and cuda::update(host,
// device_graph, log, options, stream, state) are found next to its device state type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/unique_ptr.h>

#include "dyng/backend/cuda/device_result.hpp"
#include "graph_device.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

/// The CUDA backend's calls: the algorithm's cuda::compute(host, device_graph, source, options,
/// stream, state) and cuda::update(host, device_graph, log, options, stream, state), found next
/// to its device state type, on the graph's copy on the call's device.
/// They read no host rows: a device graph keeps none (handles.hpp).
struct device_calls_t {
  static constexpr bool host_rows = false;
  static void check(const execution_t& exec, const char* fn) { require_cuda(exec, fn); }
  static void* stream(const execution_t& exec) { return exec.stream; }
  // The device entry points take a stream, not an execution: they find the stop flag (Ctrl-C)
  // through the thread's cancel_scope_t, as their profile stages find their session.
  template <class G, class O, class S, class... source_t>
  static auto run_compute(const graph_handle_t& h, const G& g, const O& options,
                          const execution_t& exec, S& state, const char* fn, source_t... source) {
    const cancel_scope_t stoppable(exec.cancel);
    return compute(g, device_graph_for(h, g, exec, fn), source..., options, exec.stream, state);
  }
  template <class G, class L, class O, class S>
  static auto run_update(const graph_handle_t& h, const G& g, const L& log, const O& options,
                         const execution_t& exec, S& state, const char* fn) {
    const cancel_scope_t stoppable(exec.cancel);
    return update(g, device_graph_for(h, g, exec, fn), log, options, exec.stream, state);
  }
};

template <template <class> class host_tpl, class options_t, template <class> class device_tpl>
void add_device_result_methods(nb::class_<result_handle_t<device_tpl>>& cls,
                               const char* algorithm) {
  using host_t = result_handle_t<host_tpl>;
  using device_t = result_handle_t<device_tpl>;
  add_entry_points<options_t, device_tpl, device_calls_t>(cls, algorithm);
  cls.def(
         "to_host",
         [](const device_t& r) {
           return r.read([&r](const auto& p) {
             nb::gil_scoped_release release;
             return host_t::wrap(::dyng::cuda::to_host(*p, nullptr), r.graph_version);
           });
         },
         "A host result with the same values.")
      .def_static(
          "from_host",
          [](const host_t& r, const execution_t& exec) {
            require_cuda(exec, "from_host");
            return r.read([&](const auto& p) {
              using D = device_tpl<held_vertex_t<decltype(p)>>;
              nb::gil_scoped_release release;
              return device_t::wrap(::dyng::cuda::to_device<D>(*p, exec.device, exec.stream),
                                    r.graph_version);
            });
          },
          nb::arg("state"), nb::arg("execution"), "A device copy of a host result.")
      .def_prop_ro("device", [](const device_t& r) {
        return r.read([](const auto& p) { return p->device; });
      });
}

}  // namespace dyng::bindings
