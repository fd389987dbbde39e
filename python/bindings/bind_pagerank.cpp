// dyng._core.PagerankOptions, PagerankStats and PagerankState (pagerank on the host). The result
// handle, its compute (without a source) and update are the shared ones (result_handle.hpp):
// ranks is the state's array, iterations and residual its scalars. compute_from is compute from
// a given start (networkx.pagerank's nstart). The option vectors travel as float64 arrays, which
// Python converts (dyng.pagerank.Options).
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "arrays.hpp"
#include "bind_tuning_knobs.hpp"
#include "dyng/pagerank/pagerank.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

namespace {

using pagerank::options_t;

/// A float64 option vector as a read/write NumPy property (a copy each way).
void add_vector(nb::class_<options_t>& cls, const char* name,
                std::vector<double> options_t::* member, const char* doc) {
  const std::string where = std::string("PagerankOptions.") + name;
  cls.def_prop_rw(
      name, [member](const options_t& o) { return to_numpy(std::vector<double>(o.*member)); },
      [member, where](options_t& o, const in_array_t& values) {
        const auto span = as_span<double>(values, where.c_str(), "the vector");
        o.*member = std::vector<double>(span.begin(), span.end());
      },
      doc);
}

void add_compute_from(nb::class_<result_handle_t<pagerank::state_t>>& cls) {
  using H = result_handle_t<pagerank::state_t>;
  cls.def_static(
      "compute_from",
      [](const graph_handle_t& h, const in_array_t& start, const options_t& options,
         const execution_t& call_exec) {
        constexpr const char* fn = "pagerank.compute";
        const auto span = as_span<double>(start, fn, "nstart");
        const std::vector<double> x(span.begin(), span.end());
        return compute_call<H, host_calls_t, pagerank::stats_t>(
            h, call_exec, fn, [&](const auto& g, auto& state, const execution_t& exec) {
              return pagerank::compute_from(g, x, options, exec, state);
            });
      },
      nb::arg("graph"), nb::arg("start"), nb::arg("options"), nb::arg("execution"),
      "compute from `start` (float64, at most one entry per vertex) instead of the uniform "
      "vector; returns (state, stats).");
}

}  // namespace

void bind_pagerank(nb::module_& m) {
  nb::class_<options_t> options(m, "PagerankOptions", "Native pagerank options.");
  options.def(nb::init<>())
      .def_rw("alpha", &options_t::alpha)
      .def_rw("tol", &options_t::tol)
      .def_rw("max_iter", &options_t::max_iter)
      .def_rw("weighted", &options_t::weighted);
  add_vector(options, "personalization", &options_t::personalization,
             "float64 teleport weights per vertex id (empty: uniform).");
  add_vector(options, "dangling", &options_t::dangling,
             "float64 dangling weights per vertex id (empty: personalization).");
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
  add_compute_from(cls);
}

}  // namespace dyng::bindings
