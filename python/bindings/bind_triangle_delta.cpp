// dyng._core.TriangleDeltaOptions, TriangleDeltaStats and TriangleDeltaState (a triangle count on
// the host). The result handle, its compute (without a source) and update are the shared ones
// (result_handle.hpp); the state has no arrays, only its count (a scalar, bound with them).
#include "bind_tuning_knobs.hpp"
#include "dyng/triangle_delta/triangle_delta.hpp"
#include "handles.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_triangle_delta(nb::module_& m) {
  nb::class_<triangle_delta::options_t> options(m, "TriangleDeltaOptions",
                                                "Native triangle_delta options.");
  options.def(nb::init<>());
  add_tuning_knobs(options);
  nb::class_<triangle_delta::stats_t, update_stats_t>(m, "TriangleDeltaStats",
                                                      "triangle_delta's counters.")
      .def_ro("deletions", &triangle_delta::stats_t::deletions)
      .def_ro("insertions", &triangle_delta::stats_t::insertions)
      .def_ro("triangles_removed", &triangle_delta::stats_t::triangles_removed)
      .def_ro("triangles_added", &triangle_delta::stats_t::triangles_added);
  using triangle_result_t = result_handle_t<triangle_delta::state_t>;
  nb::class_<triangle_result_t> cls(m, "TriangleDeltaState",
                                    "The number of triangles of an undirected graph, on the host.");
  add_result_methods(cls);
  add_host_entry_points<triangle_delta::options_t>(cls, "triangle_delta");
}

}  // namespace dyng::bindings
