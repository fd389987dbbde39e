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

template <template <class> class host_tpl, class options_t, template <class> class device_tpl>
void add_device_result_methods(nb::class_<result_handle_t<device_tpl>>& cls,
                               const char* algorithm) {
  using host_t = result_handle_t<host_tpl>;
  using device_t = result_handle_t<device_tpl>;
  using stats_t = stats_of_t<options_t, host_tpl>;
  const std::string compute_fn = std::string(algorithm) + ".compute";
  const std::string update_fn = std::string(algorithm) + ".update";
  cls.def_static(
         "compute",
         [compute_fn](const graph_handle_t& h, int64_t source, const options_t& options,
                      const execution_t& exec) {
           const char* fn = compute_fn.c_str();
           require_cuda(exec, fn);
           stats_t stats;
           auto result = create_result<device_t>(h, [&](const auto& g) {
             using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
             device_tpl<vid_t> state;
             const auto src = checked_vertex<vid_t>(source, g.num_vertices(), fn, "source");
             stats = compute(g, device_graph_for(h, g, exec, fn), src, options, exec.stream, state);
             return state;
           });
           return std::pair<std::unique_ptr<device_t>, stats_t>(std::move(result), stats);
         },
         nb::arg("graph"), nb::arg("source"), nb::arg("options"), nb::arg("execution"),
         "Returns (state, stats).")
      .def(
          "update",
          [update_fn](device_t& r, const graph_handle_t& h, const change_log_handle_t& log,
                      const options_t& options, const execution_t& exec) {
            const char* fn = update_fn.c_str();
            require_cuda(exec, fn);
            stats_t stats;
            update_result(fn, h, log, r, exec.stream,
                          [&](const auto& g, const auto& l, auto& state) {
                            stats = update(g, device_graph_for(h, g, exec, fn), l, options,
                                           exec.stream, state);
                          });
            return stats;
          },
          nb::arg("graph"), nb::arg("log"), nb::arg("options"), nb::arg("execution"),
          "Repairs the state after graph.apply(..., log=True); returns the stats.")
      .def(
          "to_host",
          [](const device_t& r) {
            return r.read([](const auto& p) {
              nb::gil_scoped_release release;
              return host_t::wrap(::dyng::cuda::to_host(*p, nullptr));
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
              return device_t::wrap(::dyng::cuda::to_device<D>(*p, exec.device, exec.stream));
            });
          },
          nb::arg("state"), nb::arg("execution"), "A device copy of a host result.")
      .def_prop_ro("device", [](const device_t& r) {
        return r.read([](const auto& p) { return p->device; });
      });
}

}  // namespace dyng::bindings
