// dyng._core.TriangleDeltaOptions, TriangleDeltaStats and TriangleDeltaState (a triangle count on
// the host). The result handle, its compute (without a source) and update are the shared ones
// (result_handle.hpp); the state has no arrays, only its count.
#include "dyng/triangle_delta/triangle_delta.hpp"
#include "handles.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_triangle_delta(nb::module_& m) {
  nb::class_<triangle_delta::options_t>(m, "TriangleDeltaOptions",
                                        "Native triangle_delta options.")
      .def(nb::init<>())
      .def_rw("repair_budget", &triangle_delta::options_t::repair_budget,
              "Tuning knob for tests: the update's work budget (0 always recomputes).")
      .def_rw("parallel_min_edges", &triangle_delta::options_t::parallel_min_edges,
              "Tuning knob for tests: 0 runs the OpenMP team on any graph.");
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
  cls.def_prop_ro("count", [](const triangle_result_t& r) {
    return r.read([](const auto& p) { return p->count; });
  });
}

}  // namespace dyng::bindings
