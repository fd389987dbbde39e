// dyng._core.SsspOptions, SsspStats, SsspState (a host sssp result) and the sssp functions. The
// result handle, copy-on-write and the log checks are the shared ones (result_handle.hpp).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>

#include "arrays.hpp"
#include "dyng/sssp/sssp.hpp"
#include "handles.hpp"
#include "insertion_batch.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {
namespace {

using sssp_result_t = result_handle_t<sssp::state_t>;

std::unique_ptr<sssp_result_t> from_arrays(const graph_handle_t& h, int64_t source,
                                           const in_array_t& distances, const in_array_t& parents,
                                           bool canonicalize, const sssp::options_t& options,
                                           const execution_t& exec) {
  constexpr const char* fn = "sssp.Result.from_arrays";
  return std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        sssp::state_t<vid_t> state;
        uint64_t version = 0;
        const auto dist = as_span<int64_t>(distances, fn, "distances");
        const auto par = as_span<vid_t>(parents, fn, "parents");
        state.distances.assign(dist.begin(), dist.end());
        state.parents.assign(par.begin(), par.end());
        {
          nb::gil_scoped_release release;
          const auto lock = h.lock_host_rows();
          version = g.version();
          state.source = checked_vertex<vid_t>(source, g.num_vertices(), fn, "source");
          const auto n = static_cast<size_t>(g.num_vertices());
          if (state.distances.size() != n || state.parents.size() != n) {
            throw invalid_argument_error(
                std::string(fn) + "(): distances has " + std::to_string(state.distances.size()) +
                " entries and parents " + std::to_string(state.parents.size()) +
                " but the graph has " + std::to_string(n) + " vertices; pass one per vertex");
          }
          if (canonicalize) sssp::canonicalize_parents(g, options, exec, state);
          if (options.validate_inputs) {
            sssp::check_result(g, options, state, canonicalize, "sssp.Result.from_arrays()");
          }
        }
        return sssp_result_t::wrap(std::move(state), version);
      },
      h.graph);
}

void validate_batch(const in_array_t& ins_src, const in_array_t& ins_dst, const in_array_t& ins_w,
                    int num_weights, const sssp::options_t& options) {
  check_insertions(ins_src, ins_dst, ins_w, num_weights, "sssp_validate_batch",
                   [&](const auto& batch) { sssp::validate_batch(batch, options); });
}

/// The graph checks of sssp.Result.from_arrays (those of compute, in its name).
void validate_graph(const graph_handle_t& h, int64_t source, const sssp::options_t& options) {
  std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        nb::gil_scoped_release release;
        const auto lock = h.lock_host_rows();
        sssp::validate_graph(
            g, checked_vertex<vid_t>(source, g.num_vertices(), "sssp.Result.from_arrays", "source"),
            options, "sssp.Result.from_arrays()");
      },
      h.graph);
}

std::pair<out_array_t, out_array_t> reference_dijkstra(const graph_handle_t& h, int64_t source,
                                                       int objective) {
  return std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        const vid_t src = checked_id<vid_t>(source, "sssp_reference_dijkstra", "source");
        sssp::state_t<vid_t> state;
        {
          nb::gil_scoped_release release;
          const auto lock = h.lock_host_rows();
          state = sssp::reference_dijkstra(g, src, objective);
        }
        return std::pair<out_array_t, out_array_t>(to_numpy(std::move(state.distances)),
                                                   to_numpy(std::move(state.parents)));
      },
      h.graph);
}

}  // namespace

void bind_sssp(nb::module_& m) {
  nb::class_<sssp::options_t>(m, "SsspOptions", "Native sssp options.")
      .def(
          "__init__",
          [](sssp::options_t* self, int64_t delta, int objective, bool validate_inputs) {
            new (self) sssp::options_t{};
            self->delta = delta;
            self->objective = objective;
            self->validate_inputs = validate_inputs;
          },
          nb::arg("delta") = 0, nb::arg("objective") = 0, nb::arg("validate_inputs") = true)
      .def_rw("delta", &sssp::options_t::delta)
      .def_rw("objective", &sssp::options_t::objective)
      .def_rw("validate_inputs", &sssp::options_t::validate_inputs);

  nb::class_<sssp::stats_t, update_stats_t>(m, "SsspStats", "sssp's counters.")
      .def_ro("invalidated", &sssp::stats_t::invalidated)
      .def_ro("epochs", &sssp::stats_t::epochs)
      .def_ro("pushes", &sssp::stats_t::pushes)
      .def_ro("packed_parents", &sssp::stats_t::packed_parents);

  nb::class_<sssp_result_t> cls(m, "SsspState", "sssp distances and parents on the host.");
  add_result_methods(cls);
  add_host_entry_points<sssp::options_t>(cls, "sssp");
  cls.def_static("from_arrays", &from_arrays, nb::arg("graph"), nb::arg("source"),
                 nb::arg("distances"), nb::arg("parents"), nb::arg("canonicalize"),
                 nb::arg("options"), nb::arg("execution"),
                 "A state from given arrays (int64 distances, parents in the graph's id type).");

  m.def("sssp_validate_batch", &validate_batch, nb::arg("insert_src"), nb::arg("insert_dst"),
        nb::arg("insert_weights"), nb::arg("num_weights"), nb::arg("options"),
        "Raises InvalidArgumentError when the insertions carry an objective weight < 1.");
  m.def("sssp_validate_graph", &validate_graph, nb::arg("graph"), nb::arg("source"),
        nb::arg("options"), "Raises unless the graph and source suit sssp.");
  m.def("sssp_reference_dijkstra", &reference_dijkstra, nb::arg("graph"), nb::arg("source"),
        nb::arg("objective") = 0,
        "Serial Dijkstra oracle: (int64 distances, parents in the graph's id type).");
  m.attr("SSSP_INFINITE_DISTANCE") = sssp::k_infinite_distance;
}

}  // namespace dyng::bindings
