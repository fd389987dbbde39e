// dyng._core.CycleCountOptions, CycleCountStats, CycleCountState (a host cycle histogram) and the
// enumeration oracle. The result handle, its compute (without a source) and update are the
// shared ones (result_handle.hpp); the histogram is the state's one array.
#include <cstdint>
#include <vector>

#include "arrays.hpp"
#include "bind_tuning_knobs.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "handles.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {
namespace {

using cycle_result_t = result_handle_t<cycle_count::state_t>;

/// testing.simple_cycles: the untrimmed histogram by plain enumeration.
out_array_t enumerate(const graph_handle_t& h, int64_t max_length) {
  return std::visit(
      [&](const auto& g) {
        std::vector<uint64_t> counts;
        {
          nb::gil_scoped_release release;
          const auto lock = h.lock_host_rows();
          counts = cycle_count::enumerate_cycles(g, max_length);
        }
        return to_numpy(std::move(counts));
      },
      h.graph);
}

}  // namespace

void bind_cycle_count(nb::module_& m) {
  nb::class_<cycle_count::options_t> options(m, "CycleCountOptions", "Native cycle_count options.");
  options
      .def(
          "__init__",
          [](cycle_count::options_t* self, int64_t max_length) {
            new (self) cycle_count::options_t{};
            self->max_length = max_length;
          },
          nb::arg("max_length") = cycle_count::k_unbounded)
      .def_rw("max_length", &cycle_count::options_t::max_length);
  add_tuning_knobs(options);
  options
      .def_rw("gpu_wave_slots", &cycle_count::options_t::gpu_wave_slots,
              "Tuning knob for tests: at most this many CUDA search slots per wave.")
      .def_rw("gpu_depth_first_paths", &cycle_count::options_t::gpu_depth_first_paths,
              "Tuning knob for tests: paths a CUDA level list holds before depth-first.");
  nb::class_<cycle_count::stats_t, update_stats_t>(m, "CycleCountStats", "cycle_count's counters.")
      .def_ro("deletions", &cycle_count::stats_t::deletions)
      .def_ro("insertions", &cycle_count::stats_t::insertions)
      .def_ro("cycles_removed", &cycle_count::stats_t::cycles_removed)
      .def_ro("cycles_added", &cycle_count::stats_t::cycles_added);
  nb::class_<cycle_result_t> cls(m, "CycleCountState",
                                 "A histogram of simple cycles by length, on the host.");
  add_result_methods(cls);
  add_host_entry_points<cycle_count::options_t>(cls, "cycle_count");
  m.def("cycle_count_enumerate", &enumerate, nb::arg("graph"), nb::arg("max_length") = -1,
        "The untrimmed histogram of simple cycles by plain enumeration (an oracle).");
}

}  // namespace dyng::bindings
