// dyng._core.Execution: the plain execution request that dyng.Resources turns into at each call.
#include <cstdint>
#include <string>

#include <nanobind/stl/string.h>

#include "dyng/backend/execution.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/core/errors.hpp"
#include "module.hpp"

namespace nb = nanobind;

namespace dyng::bindings {
namespace {

backend_t parse_backend(const std::string& name) {
  if (name == "sequential") return backend_t::sequential;
  if (name == "openmp") {
    if (!openmp_enabled()) {
      throw not_supported_error(
          "Execution(): backend 'openmp' is not compiled into this module; use 'sequential' or "
          "a build with OpenMP");
    }
    return backend_t::openmp;
  }
  if (name == "cuda") {
#if defined(DYNG_HAVE_CUDA)
    return backend_t::cuda;
#endif
    throw not_supported_error(
        "Execution(): backend 'cuda' is not compiled into this module; install a CUDA plugin "
        "(pip install \"dyng[cu13]\")");
  }
  throw invalid_argument_error("Execution(): unknown backend '" + name +
                               "'; use 'sequential' or 'openmp'");
}

const char* backend_name(backend_t b) {
  switch (b) {
    case backend_t::sequential: return "sequential";
    case backend_t::openmp: return "openmp";
    case backend_t::cuda: return "cuda";
  }
  return "unknown";
}

}  // namespace

void bind_execution(nb::module_& m) {
  nb::class_<execution_t>(m, "Execution", "Where and how one native call runs.")
      .def(
          "__init__",
          [](execution_t* self, const std::string& backend, int num_threads, int device,
             uintptr_t stream) {
            if (num_threads < 0) {
              throw invalid_argument_error(
                  "Execution(): num_threads=" + std::to_string(num_threads) +
                  " is negative; pass 0 (default) or a positive count");
            }
            new (self) execution_t{parse_backend(backend), num_threads, device,
                                   reinterpret_cast<void*>(stream)};
          },
          nb::arg("backend"), nb::arg("num_threads") = 0, nb::arg("device") = 0,
          nb::arg("stream") = 0)
      .def_prop_ro("backend", [](const execution_t& e) { return backend_name(e.backend); })
      .def_ro("num_threads", &execution_t::num_threads)
      .def_ro("device", &execution_t::device)
      .def_prop_ro("stream",
                   [](const execution_t& e) { return reinterpret_cast<uintptr_t>(e.stream); })
      .def(
          "attach_profiler",
          [](execution_t& e, profile_session_t* session) { e.profiler.set(session); },
          nb::arg("session").none(),
          "Sends the stages of calls made with this Execution to `session` (None: to nobody). "
          "The caller keeps the session alive while it is attached.")
      .def_prop_ro("profiling", [](const execution_t& e) { return e.profiler.get() != nullptr; })
      .def_prop_ro(
          "resolved_threads", [](const execution_t& e) { return resolved_thread_count(e); },
          "Threads an OpenMP region would get (1 on the sequential backend).");
}

}  // namespace dyng::bindings
