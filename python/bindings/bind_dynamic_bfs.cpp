// dyng._core.BfsOptions, BfsStats and BfsState (a host dynamic_bfs result). Everything but the
// options and stats is the shared result handle's (result_handle.hpp).
#include "dyng/dynamic_bfs/dynamic_bfs.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_dynamic_bfs(nb::module_& m) {
  nb::class_<dynamic_bfs::options_t>(m, "BfsOptions", "Native dynamic_bfs options.")
      .def(nb::init<>());
  nb::class_<dynamic_bfs::stats_t, update_stats_t>(m, "BfsStats", "dynamic_bfs's counters.")
      .def_ro("invalidated", &dynamic_bfs::stats_t::invalidated)
      .def_ro("invalidation_rounds", &dynamic_bfs::stats_t::invalidation_rounds);
  nb::class_<result_handle_t<dynamic_bfs::state_t>> cls(m, "BfsState",
                                                        "BFS levels of one source on the host.");
  add_result_methods(cls);
  add_host_entry_points<dynamic_bfs::options_t>(cls, "dynamic_bfs");
}

}  // namespace dyng::bindings
