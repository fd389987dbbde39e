// dyng._core.build_config and the OpenMP facts dyng.config() reports.
#include <string>

#include <nanobind/stl/string.h>

#include "dyng/backend/execution.hpp"
#include "module.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace nb = nanobind;

namespace dyng::bindings {
namespace {

/// The OpenMP specification version the compiler implements, from its _OPENMP date.
std::string openmp_version() {
#if defined(_OPENMP)
  switch (_OPENMP) {
    case 200505: return "2.5";
    case 200805: return "3.0";
    case 201107: return "3.1";
    case 201307: return "4.0";
    case 201511: return "4.5";
    case 201811: return "5.0";
    case 202011: return "5.1";
    case 202111: return "5.2";
    case 202411: return "6.0";
    default: return std::to_string(_OPENMP);
  }
#else
  return "";
#endif
}

}  // namespace

void bind_build_config(nb::module_& m) {
  nb::dict config;
  config["compiler"] = DYNG_COMPILER;
  config["build_type"] = DYNG_BUILD_TYPE;
  config["openmp"] = openmp_enabled();
  config["openmp_version"] = openmp_enabled() ? openmp_version() : std::string();
#if defined(DYNG_HAVE_CUDA)
  config["cuda"] = true;
#else
  config["cuda"] = false;
#endif
  // Empty strings in a module built without CUDA (the CPU wheel); set by python/CMakeLists.txt.
  config["plugin"] = DYNG_PLUGIN_NAME;
  config["cuda_toolkit"] = DYNG_CUDA_TOOLKIT;
  config["cuda_architectures"] = DYNG_CUDA_ARCHITECTURES_LIST;
  config["cuda_runtime"] = DYNG_CUDA_RUNTIME_KIND;
  // The algorithms this module binds, in DYNG_ALGORITHMS's order (a test holds it equal to the
  // Python registry's ALGORITHM_MODULES).
  nb::list algorithms;
#define DYNG_ALGORITHM(name) algorithms.append(#name);
#include "dyng_algorithms.inc"
#undef DYNG_ALGORITHM
  config["algorithms"] = nb::handle(reinterpret_cast<PyObject*>(&PyTuple_Type))(algorithms);
  m.attr("build_config") = config;

  m.def(
      "openmp_max_threads",
      [] { return resolved_thread_count(execution_t{backend_t::openmp, 0, 0}); },
      "Threads an OpenMP region gets by default (1 without OpenMP).");
}

}  // namespace dyng::bindings
