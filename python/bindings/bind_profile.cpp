// dyng._core.ProfileSession and ProfileStage: the native side of dyng.profile()
// (backend/profile.hpp). dyng/_profiler.py attaches a session to a Resources' Execution; every
// native call made with that Execution opens a profile context for its duration, so its stages
// land in the session. ProfileStage lets the Python layer open a stage of its own (dyng.update's
// stage around the apply and the repairs).
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "dyng/backend/execution.hpp"
#include "dyng/backend/profile.hpp"
#include "module.hpp"

namespace nb = nanobind;

namespace dyng::bindings {
namespace {

using sample_tuple_t = std::tuple<std::string, int, int64_t, double, double, double>;

/// A stage opened from Python: the context and the scope live from __enter__ to __exit__ on the
/// thread that entered (a `with` block never changes threads).
class python_stage_t {
 public:
  python_stage_t(const execution_t& exec, std::string name) : exec_(exec), name_(std::move(name)) {}
  void enter() {
    profile_session_t* session = exec_.profiler.get();
    if (session == nullptr || context_) return;
    context_ = std::make_unique<profile_context_t>(exec_);
    scope_ = std::make_unique<stage_scope_t>(session->intern(name_));
  }
  void exit() {
    scope_.reset();
    context_.reset();
  }

 private:
  execution_t exec_;
  std::string name_;
  std::unique_ptr<profile_context_t> context_;
  std::unique_ptr<stage_scope_t> scope_;
};

}  // namespace

void bind_profile(nb::module_& m) {
  nb::class_<profile_session_t>(m, "ProfileSession",
                                "The stages and counters one dyng.profile() collects.")
      .def(
          "__init__",
          [](profile_session_t* self, bool sync_stages, bool nvtx, bool cuda_events) {
            new (self) profile_session_t(profile_options_t{sync_stages, nvtx, cuda_events});
          },
          nb::kw_only(), nb::arg("sync_stages") = false, nb::arg("nvtx") = false,
          nb::arg("cuda_events") = false)
      .def(
          "samples",
          [](profile_session_t& s) {
            std::vector<stage_sample_t> samples;
            {
              nb::gil_scoped_release release;  // resolving device times may wait for events
              samples = s.samples();
            }
            std::vector<sample_tuple_t> out;
            out.reserve(samples.size());
            for (const auto& x : samples) {
              out.emplace_back(x.name, x.depth, x.begin_index, x.start_ms, x.host_ms, x.device_ms);
            }
            return out;
          },
          "Finished stages in end order: (name, depth, begin_index, start_ms, host_ms, "
          "device_ms).")
      .def("counters", &profile_session_t::counters, "(name, total) in first-use order.")
      .def("reset", &profile_session_t::reset, "Drops every sample and counter.");
  nb::class_<python_stage_t>(m, "ProfileStage",
                             "A stage opened from Python on an Execution's session.")
      .def(nb::init<const execution_t&, std::string>(), nb::arg("execution"), nb::arg("name"))
      .def("__enter__", [](python_stage_t& s) { s.enter(); })
      .def("__exit__", [](python_stage_t& s, nb::args) { s.exit(); });
  m.def("nvtx_available", &nvtx_available, "True when this module emits NVTX ranges.");
}

}  // namespace dyng::bindings
