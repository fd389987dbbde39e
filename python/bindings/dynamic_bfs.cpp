// dyng._core.BfsOptions, BfsStats and BfsState (a host dynamic_bfs result), on the shared result
// handle (result_handle.hpp).
#include <cstdint>
#include <memory>
#include <utility>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/unique_ptr.h>

#include "arrays.hpp"
#include "dyng/dynamic_bfs/dynamic_bfs.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {
namespace {

using bfs_result_t = result_handle_t<dynamic_bfs::state_t>;

std::pair<std::unique_ptr<bfs_result_t>, dynamic_bfs::stats_t> compute(
    const graph_handle_t& h, int64_t source, const dynamic_bfs::options_t& options,
    const execution_t& exec) {
  dynamic_bfs::stats_t stats;
  auto result = create_result<bfs_result_t>(h, [&](const auto& g) {
    using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
    dynamic_bfs::state_t<vid_t> state;
    const auto src =
        checked_vertex<vid_t>(source, g.num_vertices(), "dynamic_bfs.compute", "source");
    stats = dynamic_bfs::compute(g, src, options, exec, state);
    return state;
  });
  return {std::move(result), stats};
}

}  // namespace

void bind_dynamic_bfs(nb::module_& m) {
  nb::class_<dynamic_bfs::options_t>(m, "BfsOptions", "Native dynamic_bfs options.")
      .def(nb::init<>());
  nb::class_<dynamic_bfs::stats_t, update_stats_t>(m, "BfsStats", "dynamic_bfs's counters.")
      .def_ro("invalidated", &dynamic_bfs::stats_t::invalidated)
      .def_ro("invalidation_rounds", &dynamic_bfs::stats_t::invalidation_rounds);

  nb::class_<bfs_result_t> cls(m, "BfsState", "BFS levels of one source, repaired by update().");
  add_result_methods(cls);
  cls.def_static("compute", &compute, nb::arg("graph"), nb::arg("source"), nb::arg("options"),
                 nb::arg("execution"), "Returns (state, stats).")
      .def(
          "update",
          [](bfs_result_t& r, const graph_handle_t& h, const change_log_handle_t& log,
             const dynamic_bfs::options_t& options, const execution_t& exec) {
            dynamic_bfs::stats_t stats;
            update_result("BfsState.update", h, log, r, nullptr,
                          [&](const auto& g, const auto& l, auto& state) {
                            stats = dynamic_bfs::update(g, l, options, exec, state);
                          });
            return stats;
          },
          nb::arg("graph"), nb::arg("log"), nb::arg("options"), nb::arg("execution"),
          "Repairs the state after graph.apply(..., log=True); returns the stats.")
      .def("levels",
           [](const bfs_result_t& r) {
             return r.read([](const auto& p) {
               return make_view(p->levels.data(), p->levels.size(), p);
             });
           })
      .def_prop_ro("source",
                   [](const bfs_result_t& r) {
                     return r.read([](const auto& p) { return static_cast<int64_t>(p->source); });
                   })
      .def_prop_ro("num_vertices", [](const bfs_result_t& r) {
        return r.read([](const auto& p) { return static_cast<int64_t>(p->levels.size()); });
      });
}

}  // namespace dyng::bindings
