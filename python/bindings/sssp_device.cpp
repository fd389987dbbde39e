// dyng._core.SsspDeviceState (CUDA builds): an sssp result in device memory, made of the shared
// result handle (result_handle.hpp) over sssp::cuda::device_state_t, so a CuPy or PyTorch array
// made from a result keeps its values after the result is updated, as host views do.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>

#include "arrays.hpp"
#include "dyng/sssp/sssp_device.hpp"
#include "graph_device.hpp"
#include "handles.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

template <class vid_t>
struct state_copy<sssp::cuda::device_state_t<vid_t>> {
  static sssp::cuda::device_state_t<vid_t> copy(const sssp::cuda::device_state_t<vid_t>& state,
                                                void* stream) {
    return sssp::cuda::clone(state, stream);
  }
};

namespace {

using sssp_result_t = result_handle_t<sssp::state_t>;
using sssp_device_result_t = result_handle_t<sssp::cuda::device_state_t>;

std::pair<std::unique_ptr<sssp_device_result_t>, sssp::stats_t> compute(
    const graph_handle_t& h, int64_t source, const sssp::options_t& options,
    const execution_t& exec) {
  constexpr const char* fn = "sssp.compute";
  require_cuda(exec, fn);
  sssp::stats_t stats;
  auto result = create_result<sssp_device_result_t>(h, [&](const auto& g) {
    using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
    sssp::cuda::device_state_t<vid_t> state;
    const auto src = checked_vertex<vid_t>(source, g.num_vertices(), fn, "source");
    stats = sssp::cuda::compute(g, device_graph_for(h, g, exec, fn), src, options, exec.stream,
                                state);
    return state;
  });
  return {std::move(result), stats};
}

sssp::stats_t update(sssp_device_result_t& r, const graph_handle_t& h,
                     const change_log_handle_t& log, const sssp::options_t& options,
                     const execution_t& exec) {
  constexpr const char* fn = "SsspDeviceState.update";
  require_cuda(exec, fn);
  sssp::stats_t stats;
  update_result(fn, h, log, r, exec.stream, [&](const auto& g, const auto& l, auto& state) {
    stats = sssp::cuda::update(g, device_graph_for(h, g, exec, fn), l, options, exec.stream,
                               state);
  });
  return stats;
}

void canonicalize(sssp_device_result_t& r, const graph_handle_t& h,
                  const sssp::options_t& options, const execution_t& exec) {
  constexpr const char* fn = "SsspDeviceState.canonicalize";
  require_cuda(exec, fn);
  mutate_result(fn, h, r, exec.stream, [&](const auto& g, auto& state) {
    sssp::cuda::canonicalize_parents(device_graph_for(h, g, exec, fn), options, exec.stream,
                                     state);
  });
}

std::unique_ptr<sssp_result_t> to_host(const sssp_device_result_t& r) {
  return r.read([](const auto& ptr) {
    nb::gil_scoped_release release;
    return sssp_result_t::wrap(sssp::cuda::to_host(*ptr, nullptr));
  });
}

std::unique_ptr<sssp_device_result_t> from_host(const sssp_result_t& r, const execution_t& exec) {
  require_cuda(exec, "SsspDeviceState.from_host");
  return r.read([&](const auto& ptr) {
    nb::gil_scoped_release release;
    return sssp_device_result_t::wrap(sssp::cuda::to_device(*ptr, exec.device, exec.stream));
  });
}

}  // namespace

void bind_sssp_device(nb::module_& m) {
  nb::class_<sssp_device_result_t> cls(m, "SsspDeviceState",
                                       "An sssp result in CUDA device memory.");
  add_result_methods(cls);
  cls.def_static("compute", &compute, nb::arg("graph"), nb::arg("source"), nb::arg("options"),
                 nb::arg("execution"), "Returns (state, stats).")
      .def("update", &update, nb::arg("graph"), nb::arg("log"), nb::arg("options"),
           nb::arg("execution"), "Repairs the state after graph.apply(..., log=True).")
      .def("canonicalize", &canonicalize, nb::arg("graph"), nb::arg("options"),
           nb::arg("execution"))
      .def("to_host", &to_host, "A host SsspState with the same values.")
      .def_static("from_host", &from_host, nb::arg("state"), nb::arg("execution"),
                  "A device copy of a host SsspState.")
      .def("distances",
           [](const sssp_device_result_t& r) {
             return r.read([](const auto& p) {
               return make_device_view(p->distances.data(), p->num_vertices, p->device, p);
             });
           })
      .def("parents",
           [](const sssp_device_result_t& r) {
             return r.read([](const auto& p) {
               return make_device_view(p->parents.data(), p->num_vertices, p->device, p);
             });
           })
      .def_prop_ro("source",
                   [](const sssp_device_result_t& r) {
                     return r.read([](const auto& p) { return static_cast<int64_t>(p->source); });
                   })
      .def_prop_ro("device",
                   [](const sssp_device_result_t& r) {
                     return r.read([](const auto& p) { return p->device; });
                   })
      .def_prop_ro("num_vertices", [](const sssp_device_result_t& r) {
        return r.read([](const auto& p) { return p->num_vertices; });
      });
}

}  // namespace dyng::bindings
