// The tuning knobs (core/tuning_knobs.hpp) on an options class, bound once for every algorithm
// whose Python options offer them (the tests set them; dyng's own Options do not).
#pragma once

#include <nanobind/nanobind.h>

#include "dyng/core/tuning_knobs.hpp"

namespace dyng::bindings {

namespace nb = nanobind;

template <class options_t>
void add_tuning_knobs(nb::class_<options_t>& cls) {
  cls.def_rw("repair_budget", &options_t::repair_budget,
             "Tuning knob for tests: the update's work budget (0 always recomputes).")
      .def_rw("parallel_min_edges", &options_t::parallel_min_edges,
              "Tuning knob for tests: 0 runs the OpenMP team on any graph.");
}

}  // namespace dyng::bindings
