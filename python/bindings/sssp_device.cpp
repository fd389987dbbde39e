// dyng._core.SsspDeviceState (CUDA builds): an sssp result in device memory.
//
// Same shape as SsspState (sssp.cpp): the state sits behind a shared_ptr that exported views also
// hold, and update() works on a private copy while a view still holds the state, so a CuPy or
// PyTorch array made from a result keeps its values after the result is updated.
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>
#include <variant>

#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>

#include "arrays.hpp"
#include "dyng/sssp/sssp_device.hpp"
#include "handles.hpp"
#include "module.hpp"
#include "sssp_handle.hpp"

namespace dyng::bindings {
namespace {

template <class vid_t>
using device_ptr_t = std::shared_ptr<sssp::cuda::device_state_t<vid_t>>;

struct sssp_device_handle_t {
  std::variant<device_ptr_t<int32_t>, device_ptr_t<int64_t>> state;
  mutable std::mutex mutex;

  template <class vid_t>
  explicit sssp_device_handle_t(device_ptr_t<vid_t> s) : state(std::move(s)) {}
};

void* stream_of(const execution_t& exec) { return exec.stream; }

void require_cuda(const execution_t& exec, const char* fn) {
  if (exec.backend != backend_t::cuda) {
    throw invalid_argument_error(std::string(fn) +
                                 "(): this result lives on a CUDA device; pass CUDA resources, or "
                                 "clone the result to the host first");
  }
}

/// The device copy of `g` on the requested device, or a clear error (Python uploads first).
template <class G>
const auto& device_graph(const graph_handle_t& h, const G&, const execution_t& exec,
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

template <class vid_t, class G>
constexpr bool same_vid = std::is_same_v<typename G::vertex_type, vid_t>;

std::pair<std::unique_ptr<sssp_device_handle_t>, nb::dict> compute(
    const graph_handle_t& h, int64_t source, const sssp::options_t& options,
    const execution_t& exec) {
  constexpr const char* fn = "SsspDeviceState.compute";
  require_cuda(exec, fn);
  sssp::stats_t stats;
  auto handle = std::visit(
      [&](const auto& g) {
        using G = std::decay_t<decltype(g)>;
        using vid_t = typename G::vertex_type;
        const vid_t src = checked_id<vid_t>(source, fn, "source");
        auto state = std::make_shared<sssp::cuda::device_state_t<vid_t>>();
        {
          nb::gil_scoped_release release;
          std::shared_lock lock(h.mutex);
          stats = sssp::cuda::compute(g, device_graph(h, g, exec, fn), src, options,
                                      stream_of(exec), *state);
        }
        return std::make_unique<sssp_device_handle_t>(std::move(state));
      },
      h.graph);
  return {std::move(handle), stats_to_dict(stats)};
}

nb::dict update(sssp_device_handle_t& s, const graph_handle_t& h, const change_log_handle_t& log,
                const sssp::options_t& options, const execution_t& exec) {
  constexpr const char* fn = "SsspDeviceState.update";
  require_cuda(exec, fn);
  sssp::stats_t stats;
  std::visit(
      [&](const auto& g, auto& ptr) {
        using G = std::decay_t<decltype(g)>;
        using state_t = std::decay_t<decltype(*ptr)>;
        using vid_t = decltype(state_t{}.source);
        if constexpr (!same_vid<vid_t, G>) {
          throw invalid_argument_error(std::string(fn) +
                                       "(): the result and the graph have different id types; "
                                       "use a result computed on this graph");
        } else {
          const auto* l = std::get_if<change_log_t<vid_t>>(&log.log);
          if (l == nullptr) {
            throw invalid_argument_error(std::string(fn) + "(): the change log has another id "
                                         "type than the graph; pass this graph's log");
          }
          nb::gil_scoped_release release;
          std::shared_lock graph_lock(h.mutex);
          std::lock_guard state_lock(s.mutex);
          if (log.graph_version != g.version()) {
            throw stale_result_error(std::string(fn) + "(): the change log was made at graph "
                                     "version " + std::to_string(log.graph_version) +
                                     " but the graph is at version " +
                                     std::to_string(g.version()) +
                                     "; update right after the apply that produced the log");
          }
          const auto& dg = device_graph(h, g, exec, fn);
          if (ptr.use_count() > 1) {
            ptr = std::make_shared<state_t>(sssp::cuda::clone(*ptr, stream_of(exec)));
          }
          stats = sssp::cuda::update(g, dg, *l, options, stream_of(exec), *ptr);
        }
      },
      h.graph, s.state);
  return stats_to_dict(stats);
}

void canonicalize(sssp_device_handle_t& s, const graph_handle_t& h, const sssp::options_t& options,
                  const execution_t& exec) {
  constexpr const char* fn = "SsspDeviceState.canonicalize";
  require_cuda(exec, fn);
  std::visit(
      [&](const auto& g, auto& ptr) {
        using G = std::decay_t<decltype(g)>;
        using state_t = std::decay_t<decltype(*ptr)>;
        using vid_t = decltype(state_t{}.source);
        if constexpr (same_vid<vid_t, G>) {
          nb::gil_scoped_release release;
          std::shared_lock graph_lock(h.mutex);
          std::lock_guard state_lock(s.mutex);
          const auto& dg = device_graph(h, g, exec, fn);
          if (ptr.use_count() > 1) {
            ptr = std::make_shared<state_t>(sssp::cuda::clone(*ptr, stream_of(exec)));
          }
          sssp::cuda::canonicalize_parents(dg, options, stream_of(exec), *ptr);
        } else {
          throw invalid_argument_error(std::string(fn) + "(): the result and the graph have "
                                       "different id types");
        }
      },
      h.graph, s.state);
}

std::unique_ptr<sssp_device_handle_t> clone(const sssp_device_handle_t& s) {
  std::lock_guard lock(s.mutex);
  return std::visit(
      [](const auto& ptr) {
        using state_t = std::decay_t<decltype(*ptr)>;
        nb::gil_scoped_release release;
        return std::make_unique<sssp_device_handle_t>(
            std::make_shared<state_t>(sssp::cuda::clone(*ptr, nullptr)));
      },
      s.state);
}

std::unique_ptr<sssp_handle_t> to_host(const sssp_device_handle_t& s) {
  std::lock_guard lock(s.mutex);
  return std::visit(
      [](const auto& ptr) {
        using state_t = std::decay_t<decltype(*ptr)>;
        using vid_t = decltype(state_t{}.source);
        nb::gil_scoped_release release;
        return std::make_unique<sssp_handle_t>(
            std::make_shared<sssp::state_t<vid_t>>(sssp::cuda::to_host(*ptr, nullptr)));
      },
      s.state);
}

std::unique_ptr<sssp_device_handle_t> from_host(const sssp_handle_t& s, const execution_t& exec) {
  require_cuda(exec, "SsspDeviceState.from_host");
  std::lock_guard lock(s.mutex);
  return std::visit(
      [&](const auto& ptr) {
        using vid_t = decltype(ptr->source);
        nb::gil_scoped_release release;
        return std::make_unique<sssp_device_handle_t>(
            std::make_shared<sssp::cuda::device_state_t<vid_t>>(
                sssp::cuda::to_device(*ptr, exec.device, stream_of(exec))));
      },
      s.state);
}

/// A read-only device array (DLPack-capable nanobind ndarray) and its address, for the CUDA
/// array interface, which needs the raw pointer.
using device_array_t = nb::ndarray<nb::array_api, nb::ro, nb::ndim<1>, nb::device::cuda>;

template <class T, class Owner>
std::tuple<device_array_t, uintptr_t> device_view(const T* data, int64_t size, int device,
                                                  std::shared_ptr<Owner> keep) {
  auto* holder = new std::shared_ptr<Owner>(std::move(keep));
  nb::capsule owner(holder,
                    [](void* p) noexcept { delete static_cast<std::shared_ptr<Owner>*>(p); });
  device_array_t array(data, {static_cast<size_t>(size)}, owner, {}, nb::dtype<T>(),
                       nb::device::cuda::value, device);
  return {array, reinterpret_cast<uintptr_t>(data)};
}

}  // namespace

void bind_sssp_device(nb::module_& m) {
  nb::class_<sssp_device_handle_t>(m, "SsspDeviceState",
                                   "An sssp result in CUDA device memory.")
      .def_static("compute", &compute, nb::arg("graph"), nb::arg("source"), nb::arg("options"),
                  nb::arg("execution"), "Returns (state, stats dict).")
      .def("update", &update, nb::arg("graph"), nb::arg("log"), nb::arg("options"),
           nb::arg("execution"), "Repairs the state after graph.apply(..., log=True).")
      .def("canonicalize", &canonicalize, nb::arg("graph"), nb::arg("options"),
           nb::arg("execution"))
      .def("clone", &clone, "A deep copy on the same device.")
      .def("to_host", &to_host, "A host SsspState with the same values.")
      .def_static("from_host", &from_host, nb::arg("state"), nb::arg("execution"),
                  "A device copy of a host SsspState.")
      .def("distances",
           [](const sssp_device_handle_t& s) {
             std::lock_guard lock(s.mutex);
             return std::visit(
                 [](const auto& p) {
                   return device_view(p->distances.data(), p->num_vertices, p->device, p);
                 },
                 s.state);
           })
      .def("parents",
           [](const sssp_device_handle_t& s) {
             std::lock_guard lock(s.mutex);
             return std::visit(
                 [](const auto& p) {
                   return device_view(p->parents.data(), p->num_vertices, p->device, p);
                 },
                 s.state);
           })
      .def_prop_ro("source",
                   [](const sssp_device_handle_t& s) {
                     return std::visit(
                         [](const auto& p) { return static_cast<int64_t>(p->source); }, s.state);
                   })
      .def_prop_ro("device",
                   [](const sssp_device_handle_t& s) {
                     return std::visit([](const auto& p) { return p->device; }, s.state);
                   })
      .def_prop_ro("num_vertices",
                   [](const sssp_device_handle_t& s) {
                     return std::visit([](const auto& p) { return p->num_vertices; }, s.state);
                   })
      .def_prop_ro("vertex_dtype", [](const sssp_device_handle_t& s) {
        return std::visit(
            [](const auto& p) {
              using vid_t = decltype(p->source);
              return std::string(dtype_name<vid_t>());
            },
            s.state);
      });
}

}  // namespace dyng::bindings
