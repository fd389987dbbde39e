// dyng._core.MospOptions, MospStats, MospState (a host mosp result) and the mosp oracles. The
// result handle, copy-on-write, the log checks, compute and update are the shared ones
// (result_handle.hpp), the per-objective views those of mosp_views.hpp; this file adds
// from_arrays and the oracles.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include "arrays.hpp"
#include "bind_tuning_knobs.hpp"
#include "dyng/mosp/mosp.hpp"
#include "handles.hpp"
#include "insertion_batch.hpp"
#include "module.hpp"
#include "mosp_views.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {
namespace {

using mosp_result_t = result_handle_t<mosp::state_t>;

std::unique_ptr<mosp_result_t> from_arrays(const graph_handle_t& h, int64_t source,
                                           const std::vector<in_array_t>& distances,
                                           const std::vector<in_array_t>& parents,
                                           bool canonicalize, const mosp::options_t& options,
                                           const execution_t& exec) {
  constexpr const char* fn = "mosp.Result.from_arrays";
  return std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        if (distances.size() != parents.size()) {
          throw invalid_argument_error(std::string(fn) + "(): got " +
                                       std::to_string(distances.size()) + " distance arrays and " +
                                       std::to_string(parents.size()) +
                                       " parent arrays; pass one of each per objective");
        }
        std::vector<sssp::state_t<vid_t>> trees(distances.size());
        for (size_t i = 0; i < trees.size(); ++i) {
          const auto dist = as_span<int64_t>(distances[i], fn, "distances");
          const auto par = as_span<vid_t>(parents[i], fn, "parents");
          trees[i].distances.assign(dist.begin(), dist.end());
          trees[i].parents.assign(par.begin(), par.end());
        }
        mosp::state_t<vid_t> state;
        uint64_t version = 0;
        {
          nb::gil_scoped_release release;
          const auto lock = h.lock_host_rows();
          version = g.version();
          const vid_t src = checked_vertex<vid_t>(source, g.num_vertices(), fn, "source");
          const auto n = static_cast<size_t>(g.num_vertices());
          for (size_t i = 0; i < trees.size(); ++i) {
            if (trees[i].distances.size() != n || trees[i].parents.size() != n) {
              throw invalid_argument_error(
                  std::string(fn) + "(): objective " + std::to_string(i) + " has " +
                  std::to_string(trees[i].distances.size()) + " distances and " +
                  std::to_string(trees[i].parents.size()) + " parents but the graph has " +
                  std::to_string(n) + " vertices; pass one per vertex");
            }
          }
          state = mosp::from_trees(g, src, std::move(trees), canonicalize, options, exec);
        }
        return mosp_result_t::wrap(std::move(state), version);
      },
      h.graph);
}

void validate_batch(const in_array_t& ins_src, const in_array_t& ins_dst, const in_array_t& ins_w,
                    int num_weights, const mosp::options_t& options) {
  check_insertions(ins_src, ins_dst, ins_w, num_weights, "mosp_validate_batch",
                   [&](const auto& batch) { mosp::validate_batch(batch, options); });
}

/// testing.combined_graph: (row_ptr int64, col, weights int32) of K parent arrays.
std::tuple<out_array_t, out_array_t, out_array_t> combined_graph(
    const std::vector<in_array_t>& parents, int64_t source,
    const std::vector<int64_t>& preferences) {
  constexpr const char* fn = "testing.combined_graph";
  auto run = [&](auto tag) {
    using vid_t = decltype(tag);
    std::vector<std::vector<vid_t>> copies;
    for (const auto& p : parents) {
      const auto span = as_span<vid_t>(p, fn, "parents");
      copies.emplace_back(span.begin(), span.end());
    }
    csr_t<vid_t, int64_t> csr;
    {
      nb::gil_scoped_release release;
      csr = mosp::combined_graph_of(copies, checked_id<vid_t>(source, fn, "source"), preferences);
    }
    return std::tuple<out_array_t, out_array_t, out_array_t>(to_numpy(std::move(csr.row_ptr)),
                                                             to_numpy(std::move(csr.col)),
                                                             to_numpy(std::move(csr.weights)));
  };
  if (!parents.empty() && has_dtype<int64_t>(parents[0])) return run(int64_t{});
  return run(int32_t{});
}

/// testing.mosp_path_costs: (costs n*K flat, K).
std::pair<out_array_t, int> path_costs(const graph_handle_t& h, const in_array_t& parents,
                                       int64_t source, int num_objectives) {
  constexpr const char* fn = "testing.mosp_path_costs";
  return std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        const auto span = as_span<vid_t>(parents, fn, "parents");
        std::vector<vid_t> copy(span.begin(), span.end());
        std::vector<int64_t> costs;
        int k = 0;
        {
          nb::gil_scoped_release release;
          const auto lock = h.lock_host_rows();
          costs = mosp::path_costs_of(g, copy,
                                      checked_vertex<vid_t>(source, g.num_vertices(), fn, "source"),
                                      num_objectives);
          k = num_objectives == 0 ? g.num_weights() : num_objectives;
        }
        return std::pair<out_array_t, int>(to_numpy(std::move(costs)), k);
      },
      h.graph);
}

}  // namespace

void bind_mosp(nb::module_& m) {
  nb::class_<mosp::options_t> options(m, "MospOptions", "Native mosp options.");
  options
      .def(
          "__init__",
          [](mosp::options_t* self, std::vector<int64_t> preferences, int64_t delta,
             bool compute_path_costs, bool validate_inputs, int num_objectives) {
            new (self) mosp::options_t{};
            self->preferences = std::move(preferences);
            self->delta = delta;
            self->compute_path_costs = compute_path_costs;
            self->validate_inputs = validate_inputs;
            self->num_objectives = num_objectives;
          },
          nb::arg("preferences") = std::vector<int64_t>{}, nb::arg("delta") = 0,
          nb::arg("compute_path_costs") = true, nb::arg("validate_inputs") = true,
          nb::arg("num_objectives") = 0)
      .def_rw("preferences", &mosp::options_t::preferences)
      .def_rw("delta", &mosp::options_t::delta)
      .def_rw("compute_path_costs", &mosp::options_t::compute_path_costs)
      .def_rw("validate_inputs", &mosp::options_t::validate_inputs)
      .def_rw("num_objectives", &mosp::options_t::num_objectives);
  add_tuning_knobs(options);

  nb::class_<mosp::stats_t, update_stats_t>(m, "MospStats", "mosp's counters.")
      .def_ro("objectives", &mosp::stats_t::objectives)
      .def_ro("combined_edges", &mosp::stats_t::combined_edges)
      .def_ro("preference_scale", &mosp::stats_t::preference_scale);

  nb::class_<mosp_result_t> cls(m, "MospState",
                                "mosp trees, MOSP tree and path costs on the host.");
  add_result_methods(cls);
  add_host_entry_points<mosp::options_t>(cls, "mosp");
  add_mosp_views(
      cls, [](const auto& p) { return make_view(p->path_costs.data(), p->path_costs.size(), p); });
  cls.def_static("from_arrays", &from_arrays, nb::arg("graph"), nb::arg("source"),
                 nb::arg("distances"), nb::arg("parents"), nb::arg("canonicalize"),
                 nb::arg("options"), nb::arg("execution"),
                 "A state from per-objective trees (int64 distances, parents in the graph's id "
                 "type).");

  m.def("mosp_validate_batch", &validate_batch, nb::arg("insert_src"), nb::arg("insert_dst"),
        nb::arg("insert_weights"), nb::arg("num_weights"), nb::arg("options"),
        "Raises InvalidArgumentError when the insertions carry an objective weight < 1.");
  m.def("mosp_combined_graph", &combined_graph, nb::arg("parents"), nb::arg("source"),
        nb::arg("preferences"),
        "The combined graph of K parent arrays: (row_ptr int64, col, weights int32).");
  m.def("mosp_path_costs", &path_costs, nb::arg("graph"), nb::arg("parents"), nb::arg("source"),
        nb::arg("num_objectives") = 0, "The path costs along `parents`: (n*K int64 row-major, K).");
  m.attr("MOSP_MAX_OBJECTIVES") = mosp::k_max_objectives;
  m.attr("MOSP_MAX_PREFERENCE_SCALE") = mosp::k_max_preference_scale;
}

}  // namespace dyng::bindings
