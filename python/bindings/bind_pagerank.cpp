// dyng._core.PagerankOptions, PagerankStats and PagerankState (pagerank on the host). The result
// handle, its compute (without a source) and update are the shared ones (result_handle.hpp):
// ranks is the state's array, iterations and residual its scalars.
#include <nanobind/stl/vector.h>

#include "bind_tuning_knobs.hpp"
#include "dyng/pagerank/pagerank.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_pagerank(nb::module_& m) {
  using pagerank::options_t;
  nb::class_<options_t> options(m, "PagerankOptions", "Native pagerank options.");
  options.def(nb::init<>())
      .def_rw("alpha", &options_t::alpha)
      .def_rw("tol", &options_t::tol)
      .def_rw("max_iter", &options_t::max_iter)
      .def_rw("weighted", &options_t::weighted);
  add_tuning_knobs(options);
  nb::class_<pagerank::stats_t, update_stats_t>(m, "PagerankStats", "pagerank's counters.")
      .def_ro("vertices_touched", &pagerank::stats_t::vertices_touched)
      .def_ro("frontier_size", &pagerank::stats_t::frontier_size)
      .def_ro("residual", &pagerank::stats_t::residual)
      .def_ro("touched_per_iteration", &pagerank::stats_t::touched_per_iteration);
  nb::class_<result_handle_t<pagerank::state_t>> cls(
      m, "PagerankState", "PageRank of a graph's vertices, on the host.");
  add_result_methods(cls);
  add_host_entry_points<options_t>(cls, "pagerank");
}

}  // namespace dyng::bindings
