// dyng._core.SsspState and the sssp functions.
//
// The state lives behind a shared_ptr that every exported view also holds. update() and
// canonicalize() clone the state first when a view still holds it (copy-on-write), so arrays a
// user already has keep the values they were read with, and no view ever sees memory change.
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <variant>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>

#include "arrays.hpp"
#include "dyng/sssp/sssp.hpp"
#include "handles.hpp"
#include "sssp_handle.hpp"
#include "module.hpp"

namespace dyng::bindings {
namespace {

template <class S>
struct state_vid;
template <class vid_t>
struct state_vid<sssp::state_t<vid_t>> {
  using type = vid_t;
};

template <class vid_t, class G>
void require_vid(const char* fn, const G&) {
  using gvid_t = typename G::vertex_type;
  if constexpr (!std::is_same_v<gvid_t, vid_t>) {
    throw invalid_argument_error(std::string(fn) + "(): the result has " + dtype_name<vid_t>() +
                                 " ids but the graph has " + dtype_name<gvid_t>() +
                                 " ids; use a result computed on this graph");
  }
}

std::pair<std::unique_ptr<sssp_handle_t>, nb::dict> compute(const graph_handle_t& h,
                                                            int64_t source,
                                                            const sssp::options_t& options,
                                                            const execution_t& exec) {
  constexpr const char* fn = "SsspState.compute";
  sssp::stats_t stats;
  auto handle = std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        const vid_t src = checked_id<vid_t>(source, fn, "source");
        auto state = std::make_shared<sssp::state_t<vid_t>>();
        {
          nb::gil_scoped_release release;
          std::shared_lock lock(h.mutex);
          stats = sssp::compute(g, src, options, exec, *state);
        }
        return std::make_unique<sssp_handle_t>(std::move(state));
      },
      h.graph);
  return {std::move(handle), stats_to_dict(stats)};
}

std::unique_ptr<sssp_handle_t> from_arrays(const graph_handle_t& h, int64_t source,
                                           const in_array_t& distances, const in_array_t& parents,
                                           bool canonicalize, const sssp::options_t& options,
                                           const execution_t& exec) {
  constexpr const char* fn = "SsspState.from_arrays";
  return std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        const vid_t src = checked_id<vid_t>(source, fn, "source");
        auto dist = as_span<int64_t>(distances, fn, "distances");
        auto par = as_span<vid_t>(parents, fn, "parents");
        auto state = std::make_shared<sssp::state_t<vid_t>>();
        state->source = src;
        state->distances.assign(dist.begin(), dist.end());
        state->parents.assign(par.begin(), par.end());
        {
          nb::gil_scoped_release release;
          std::shared_lock lock(h.mutex);
          const auto n = static_cast<size_t>(g.num_vertices());
          if (state->distances.size() != n || state->parents.size() != n) {
            throw invalid_argument_error(
                std::string(fn) + "(): distances has " + std::to_string(state->distances.size()) +
                " entries and parents " + std::to_string(state->parents.size()) +
                " but the graph has " + std::to_string(n) + " vertices; pass one per vertex");
          }
          if (canonicalize) sssp::canonicalize_parents(g, options, exec, *state);
        }
        return std::make_unique<sssp_handle_t>(std::move(state));
      },
      h.graph);
}

/// Runs `f(graph, state)` on a private copy when exported views still share the state.
template <class F>
void mutate(const char* fn, const graph_handle_t& h, sssp_handle_t& s, F&& f) {
  std::visit(
      [&](const auto& g, auto& ptr) {
        using vid_t = typename state_vid<std::decay_t<decltype(*ptr)>>::type;
        require_vid<vid_t>(fn, g);
        if constexpr (std::is_same_v<typename std::decay_t<decltype(g)>::vertex_type, vid_t>) {
          nb::gil_scoped_release release;
          std::shared_lock graph_lock(h.mutex);
          std::lock_guard state_lock(s.mutex);
          if (ptr.use_count() > 1) ptr = std::make_shared<sssp::state_t<vid_t>>(*ptr);
          f(g, *ptr);
        }
      },
      h.graph, s.state);
}

nb::dict update(sssp_handle_t& s, const graph_handle_t& h, const change_log_handle_t& log,
                const sssp::options_t& options, const execution_t& exec) {
  constexpr const char* fn = "SsspState.update";
  sssp::stats_t stats;
  mutate(fn, h, s, [&](const auto& g, auto& state) {
    using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
    const auto* l = std::get_if<change_log_t<vid_t>>(&log.log);
    if (l == nullptr) {
      throw invalid_argument_error(std::string(fn) +
                                   "(): the change log has another id type than the graph; pass "
                                   "the log returned by this graph's apply()");
    }
    if (log.graph_version != g.version()) {
      throw stale_result_error(std::string(fn) + "(): the change log was made at graph version " +
                               std::to_string(log.graph_version) + " but the graph is at version " +
                               std::to_string(g.version()) +
                               "; update right after the apply that produced the log");
    }
    stats = sssp::update(g, *l, options, exec, state);
  });
  return stats_to_dict(stats);
}

std::unique_ptr<sssp_handle_t> clone(const sssp_handle_t& s) {
  std::lock_guard lock(s.mutex);
  return std::visit(
      [](const auto& ptr) {
        using state_t = std::decay_t<decltype(*ptr)>;
        return std::make_unique<sssp_handle_t>(std::make_shared<state_t>(*ptr));
      },
      s.state);
}

view_array_t distances_view(const sssp_handle_t& s) {
  std::lock_guard lock(s.mutex);
  return std::visit(
      [](const auto& ptr) { return make_view(ptr->distances.data(), ptr->distances.size(), ptr); },
      s.state);
}

view_array_t parents_view(const sssp_handle_t& s) {
  std::lock_guard lock(s.mutex);
  return std::visit(
      [](const auto& ptr) { return make_view(ptr->parents.data(), ptr->parents.size(), ptr); },
      s.state);
}

void validate_batch(const in_array_t& ins_src, const in_array_t& ins_dst, const in_array_t& ins_w,
                    int num_weights, const sssp::options_t& options) {
  constexpr const char* fn = "sssp_validate_batch";
  auto run = [&](auto tag) {
    using vid_t = decltype(tag);
    edge_batch_t<vid_t> batch{as_span<vid_t>(ins_src, fn, "insert_src"),
                              as_span<vid_t>(ins_dst, fn, "insert_dst"),
                              as_span<int32_t>(ins_w, fn, "insert_weights"),
                              num_weights,
                              {},
                              {}};
    nb::gil_scoped_release release;
    sssp::validate_batch(batch, options);
  };
  if (has_dtype<int64_t>(ins_src)) run(int64_t{});
  else run(int32_t{});
}

void validate_graph(const graph_handle_t& h, int64_t source, const sssp::options_t& options) {
  constexpr const char* fn = "sssp_validate_graph";
  std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        const vid_t src = checked_id<vid_t>(source, fn, "source");
        nb::gil_scoped_release release;
        std::shared_lock lock(h.mutex);
        sssp::validate_graph(g, src, options);
      },
      h.graph);
}

std::pair<out_array_t, out_array_t> reference_dijkstra(const graph_handle_t& h, int64_t source,
                                                      int objective) {
  constexpr const char* fn = "sssp_reference_dijkstra";
  return std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        const vid_t src = checked_id<vid_t>(source, fn, "source");
        sssp::state_t<vid_t> state;
        {
          nb::gil_scoped_release release;
          std::shared_lock lock(h.mutex);
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
            new (self) sssp::options_t{delta, objective, validate_inputs};
          },
          nb::arg("delta") = 0, nb::arg("objective") = 0, nb::arg("validate_inputs") = true)
      .def_rw("delta", &sssp::options_t::delta)
      .def_rw("objective", &sssp::options_t::objective)
      .def_rw("validate_inputs", &sssp::options_t::validate_inputs);

  nb::class_<sssp_handle_t>(m, "SsspState",
                            "Distances and parents of one source, repaired in place by update().")
      .def_static("compute", &compute, nb::arg("graph"), nb::arg("source"), nb::arg("options"),
                  nb::arg("execution"), "Returns (state, stats dict).")
      .def_static("from_arrays", &from_arrays, nb::arg("graph"), nb::arg("source"),
                  nb::arg("distances"), nb::arg("parents"), nb::arg("canonicalize"),
                  nb::arg("options"), nb::arg("execution"),
                  "A state from given arrays (int64 distances, parents in the graph's id type).")
      .def("update", &update, nb::arg("graph"), nb::arg("log"), nb::arg("options"),
           nb::arg("execution"),
           "Repairs the state after graph.apply(..., log=True); returns the stats dict.")
      .def(
          "canonicalize",
          [](sssp_handle_t& s, const graph_handle_t& h, const sssp::options_t& options,
             const execution_t& exec) {
            mutate("SsspState.canonicalize", h, s, [&](const auto& g, auto& state) {
              sssp::canonicalize_parents(g, options, exec, state);
            });
          },
          nb::arg("graph"), nb::arg("options"), nb::arg("execution"),
          "Rewrites every parent to the lowest-id tight in-neighbour.")
      .def("clone", &clone, "A deep copy.")
      .def("distances", &distances_view, "Read-only int64 view; it keeps this state alive.")
      .def("parents", &parents_view, "Read-only view in the vertex id type.")
      .def_prop_ro("source",
                   [](const sssp_handle_t& s) {
                     return std::visit(
                         [](const auto& p) { return static_cast<int64_t>(p->source); }, s.state);
                   })
      .def_prop_ro("num_vertices",
                   [](const sssp_handle_t& s) {
                     return std::visit(
                         [](const auto& p) { return static_cast<int64_t>(p->distances.size()); },
                         s.state);
                   })
      .def_prop_ro("vertex_dtype", [](const sssp_handle_t& s) {
        return std::visit(
            [](const auto& p) {
              using vid_t = typename std::decay_t<decltype(p->parents)>::value_type;
              return std::string(dtype_name<vid_t>());
            },
            s.state);
      });

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
