// dyng._core.UpdateStats: the fields every algorithm's compute and update report, bound once as
// the base class of each algorithm's own stats class (SsspStats, BfsStats, ...), so the stub types
// every field and the Python Stats classes read them by name.
#include <nanobind/stl/string.h>

#include "dyng/core/update_stats.hpp"
#include "module.hpp"

namespace nb = nanobind;

namespace dyng::bindings {

void bind_update_stats(nb::module_& m) {
  nb::class_<update_stats_t>(m, "UpdateStats", "What one compute or update did.")
      .def_ro("affected", &update_stats_t::affected)
      .def_ro("iterations", &update_stats_t::iterations)
      .def_ro("frontier_visits", &update_stats_t::frontier_visits)
      .def_ro("fallback_used", &update_stats_t::fallback_used)
      .def_ro("converged", &update_stats_t::converged)
      .def_ro("engine_used", &update_stats_t::engine_used)
      .def_ro("method", &update_stats_t::method)
      .def_prop_ro(
          "path", [](const update_stats_t& s) { return std::string(path_name(s.path)); },
          "'compute', 'incremental' or 'recompute'.");
}

}  // namespace dyng::bindings
