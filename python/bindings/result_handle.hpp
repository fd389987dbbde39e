// The one native result handle that every algorithm's result classes are made of, host and device
// states alike (as pylibcugraph's one paths result serves bfs and sssp): the state per compiled
// vertex type behind a shared_ptr, copy-on-write, clones, the id-type and change-log checks with
// one wording, and the locking rule.
//
// Copy-on-write: every exported view (host or device array) holds a reference to the state, so
// update() and the other writers work on a private copy while a view still holds it; arrays a
// user already has keep the values they were read with, and no view ever sees memory change.
//
// Locking: writers take the graph's lock shared (the graph does not change under them) and then
// the state's own mutex; readers of the state take its mutex alone. Nothing that holds a lock
// needs the GIL (handles.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>

#include "arrays.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/result_arrays.hpp"
#include "dyng/core/stage_scope.hpp"
#include "handles.hpp"
#include "interrupts.hpp"

namespace dyng::bindings {

namespace nb = nanobind;

/// How a state is deep-copied (copy-on-write, clone): a device state by its algorithm's
/// clone(state, stream) next to it (found by argument-dependent lookup), a host state by its copy
/// constructor.
template <class S>
struct state_copy {
  static S copy(const S& state, void* stream) {
    if constexpr (requires { clone(state, stream); }) {
      return clone(state, stream);
    } else {
      return state;
    }
  }
  /// The copy an update repairs while views share `state`: a device state's
  /// clone_for_update() (backend/cuda/device_result.hpp), which keeps its work caches.
  static S copy_for_update(S& state, void* stream) {
    if constexpr (requires { clone_for_update(state, stream); }) {
      return clone_for_update(state, stream);
    } else {
      return copy(state, stream);
    }
  }
};

/// The vertex id type of a state held by shared_ptr<state_tpl<vid_t>>.
template <class P>
struct held_vertex;
template <template <class> class state_tpl, class vid_t>
struct held_vertex<std::shared_ptr<state_tpl<vid_t>>> {
  using type = vid_t;
};
template <class P>
using held_vertex_t = typename held_vertex<std::decay_t<P>>::type;

template <template <class> class state_tpl>
struct result_handle_t {
  template <class vid_t>
  using state_type = state_tpl<vid_t>;
  template <class vid_t>
  using ptr_t = std::shared_ptr<state_tpl<vid_t>>;

  std::variant<ptr_t<int32_t>, ptr_t<int64_t>> state;
  mutable std::mutex mutex;
  /// The graph version the state matches, stamped where the graph's lock was held (compute,
  /// from_arrays, update): a version read later could already belong to the next batch.
  uint64_t graph_version = 0;

  template <class vid_t>
  result_handle_t(ptr_t<vid_t> s, uint64_t version) : state(std::move(s)), graph_version(version) {}

  template <class vid_t>
  static std::unique_ptr<result_handle_t> wrap(state_tpl<vid_t>&& s, uint64_t graph_version) {
    return std::make_unique<result_handle_t>(std::make_shared<state_tpl<vid_t>>(std::move(s)),
                                             graph_version);
  }

  /// f(shared_ptr to the state) under the state's lock: views, properties, copies.
  template <class F>
  decltype(auto) read(F&& f) const {
    std::lock_guard lock(mutex);
    return std::visit(std::forward<F>(f), state);
  }

  /// A deep copy (Result.clone). Device copies run without the GIL.
  std::unique_ptr<result_handle_t> clone(void* stream = nullptr) const {
    return read([&](const auto& ptr) {
      using S = std::decay_t<decltype(*ptr)>;
      nb::gil_scoped_release release;
      return wrap(state_copy<S>::copy(*ptr, stream), graph_version);
    });
  }

  std::string vertex_dtype() const {
    return read(
        [](const auto& ptr) { return std::string(dtype_name<held_vertex_t<decltype(ptr)>>()); });
  }
};

/// A state of a single-source algorithm (one with a source, such as sssp) rather than of the
/// whole graph: its compute takes a source and the result reports it.
template <class S>
concept has_source = requires(const S& state) { state.source; };

/// The vertices a state covers: its own count where it keeps one (device states, histograms),
/// else the common length of its per-vertex arrays.
template <class S>
int64_t state_vertices(const S& state) {
  if constexpr (requires { state.num_vertices; }) {
    return static_cast<int64_t>(state.num_vertices);
  } else {
    return covered_vertices(state);
  }
}

/// The host state that describes a state's arrays: itself, or a device state's host_type.
template <class S, bool on_device>
struct host_state_of {
  using type = S;
};
template <class S>
struct host_state_of<S, true> {
  using type = typename S::host_type;
};

/// Binds `name()` returning a read-only view of array `i` of the state: a NumPy view for host
/// states, a (DLPack ndarray, address) pair for device states. Views hold the state
/// (copy-on-write).
template <size_t i, bool on_device, class H>
void add_array_view(nb::class_<H>& cls, const char* name) {
  cls.def(
      name,
      [](const H& r) {
        return r.read([](const auto& p) {
          using S = std::decay_t<decltype(*p)>;
          if constexpr (on_device) {
            const auto& buffer = (*p).*std::get<i>(S::device_arrays());
            return make_device_view(buffer.data(), p->num_vertices, p->device, p);
          } else {
            const auto& values = (*p).*(std::get<i>(S::arrays()).member);
            return make_view(values.data(), values.size(), p);
          }
        });
      },
      "A read-only view that keeps this state's values alive.");
}

/// Binds the read-only property of scalar `i` of the state (its host state's scalars(),
/// core/result_arrays.hpp).
template <size_t i, bool on_device, class H>
void add_scalar(nb::class_<H>& cls, const char* name) {
  cls.def_prop_ro(name, [](const H& r) {
    return r.read([](const auto& p) {
      using S = std::decay_t<decltype(*p)>;
      using host_t = typename host_state_of<S, on_device>::type;
      return (*p).*(std::get<i>(host_t::scalars()).member);
    });
  });
}

/// Builds a result on `h`'s graph: f(graph) returns the new state (by value) and runs without the
/// GIL under the graph's shared lock, which also stamps the version the state matches. With
/// `host_rows` false, f reads only the device copy and the host graph's counts (handles.hpp).
template <class H, class F>
std::unique_ptr<H> create_result(const graph_handle_t& h, bool host_rows, F&& f) {
  return std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        uint64_t version = 0;
        auto state = [&] {
          nb::gil_scoped_release release;
          const auto lock = host_rows ? h.lock_host_rows() : h.lock_counts();
          version = g.version();
          return f(g);
        }();
        return H::template wrap<vid_t>(std::move(state), version);
      },
      h.graph);
}

/// Runs f(graph, state) on a private copy of the state when exported views still share it,
/// without the GIL, under the graph's shared lock and the state's lock (`host_rows` as for
/// create_result). Refuses a result whose vertex type is not the graph's.
template <class H, class F>
void mutate_result(const char* fn, const graph_handle_t& h, bool host_rows, H& result, void* stream,
                   F&& f) {
  std::visit(
      [&](const auto& g, auto& ptr) {
        using gvid_t = typename std::decay_t<decltype(g)>::vertex_type;
        using vid_t = held_vertex_t<decltype(ptr)>;
        if constexpr (!std::is_same_v<gvid_t, vid_t>) {
          throw invalid_argument_error(std::string(fn) + "(): the result has " +
                                       dtype_name<vid_t>() + " ids but the graph has " +
                                       dtype_name<gvid_t>() +
                                       " ids; use a result computed on this graph");
        } else {
          using S = std::decay_t<decltype(*ptr)>;
          nb::gil_scoped_release release;
          const auto graph_lock = host_rows ? h.lock_host_rows() : h.lock_counts();
          std::lock_guard state_lock(result.mutex);
          if (ptr.use_count() > 1) {
            const stage_scope_t stage("result.copy_on_write");
            ptr = std::make_shared<S>(state_copy<S>::copy_for_update(*ptr, stream));
          }
          f(g, *ptr);
        }
      },
      h.graph, result.state);
}

/// The change log of the apply that `g` last went through, refusing a log of another id type or
/// of an earlier batch (an update must follow the apply that produced its log). Call it with the
/// graph's lock held, so the version cannot move in between.
template <class G>
const change_log_t<typename G::vertex_type>& current_log(const char* fn,
                                                         const change_log_handle_t& log,
                                                         const G& g) {
  const auto* l = std::get_if<change_log_t<typename G::vertex_type>>(&log.log);
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
  return *l;
}

/// update(): f(graph, log, state) through mutate_result() with the log checked.
template <class H, class F>
void update_result(const char* fn, const graph_handle_t& h, bool host_rows,
                   const change_log_handle_t& log, H& result, void* stream, F&& f) {
  mutate_result(fn, h, host_rows, result, stream, [&](const auto& g, auto& state) {
    f(g, current_log(fn, log, g), state);
    result.graph_version = log.graph_version;  // under the state's lock, as mutate_result holds it
  });
}

/// Adds what every result class offers: clone(), vertex_dtype, source, num_vertices, its scalars
/// and one read-only view per array of the state (its scalars() and arrays(),
/// core/result_arrays.hpp), host or device.
template <template <class> class state_tpl>
void add_result_methods(nb::class_<result_handle_t<state_tpl>>& cls) {
  using H = result_handle_t<state_tpl>;
  using S32 = state_tpl<int32_t>;
  constexpr bool on_device = requires { S32::device_arrays(); };
  cls.def(
         "clone", [](const H& r) { return r.clone(); }, "A deep copy.")
      .def_prop_ro("vertex_dtype", &H::vertex_dtype, "The id type of the graph: int32 or int64.")
      .def_prop_ro(
          "graph_version",
          [](const H& r) {
            std::lock_guard lock(r.mutex);
            return r.graph_version;
          },
          "The graph version the state matches.")
      .def_prop_ro("num_vertices", [](const H& r) {
        return r.read([](const auto& p) { return state_vertices(*p); });
      });
  if constexpr (has_source<S32>) {
    cls.def_prop_ro("source", [](const H& r) {
      return r.read([](const auto& p) { return static_cast<int64_t>(p->source); });
    });
  }
  using host_t = typename host_state_of<S32, on_device>::type;
  if constexpr (requires { host_t::scalars(); }) {
    [&]<size_t... i>(std::index_sequence<i...>) {
      (add_scalar<i, on_device>(cls, std::get<i>(host_t::scalars()).name), ...);
    }(std::make_index_sequence<std::tuple_size_v<decltype(host_t::scalars())>>{});
  }
  [&]<size_t... i>(std::index_sequence<i...>) {
    (add_array_view<i, on_device>(cls, std::get<i>(host_t::arrays()).name), ...);
  }(std::make_index_sequence<std::tuple_size_v<decltype(host_t::arrays())>>{});
}

/// The stats type of calls_t::run_compute for a state (with a source or without).
template <class calls_t, class options_t, class S, bool sourced>
struct compute_stats {
  using type = decltype(calls_t::run_compute(
      std::declval<const graph_handle_t&>(), std::declval<const graph_i32_i32_t&>(),
      std::declval<const options_t&>(), std::declval<const execution_t&>(), std::declval<S&>(),
      ""));
};
template <class calls_t, class options_t, class S>
struct compute_stats<calls_t, options_t, S, true> {
  using type = decltype(calls_t::run_compute(
      std::declval<const graph_handle_t&>(), std::declval<const graph_i32_i32_t&>(),
      std::declval<const options_t&>(), std::declval<const execution_t&>(), std::declval<S&>(), "",
      int32_t{0}));
};

/// The body of a compute binding: a new result whose state `run(g, state, exec)` fills (returning
/// the stats) for each compiled graph type, run through run_interruptible() (Ctrl-C leaves
/// nothing behind) and profiled under the stage `fn`. calls_t as in add_entry_points.
template <class H, class calls_t, class stats_t, class F>
std::pair<std::unique_ptr<H>, stats_t> compute_call(const graph_handle_t& h,
                                                    const execution_t& call_exec, const char* fn,
                                                    F run) {
  calls_t::check(call_exec, fn);
  return run_interruptible(call_exec, [&](const execution_t& exec) {
    profile_context_t profiling(exec);
    stage_scope_t stage(fn);
    stats_t stats;
    auto result = create_result<H>(h, calls_t::host_rows, [&](const auto& g) {
      using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
      typename H::template state_type<vid_t> state;
      stats = run(g, state, exec);
      return state;
    });
    return std::pair<std::unique_ptr<H>, stats_t>(std::move(result), stats);
  });
}

/// Binds compute(graph, source, options, execution) -> (state, stats) (without `source` for a
/// whole-graph state) and update(graph, log, options, execution) -> stats on a result class.
/// `calls_t` adapts them to a backend family: host_rows says whether they read host rows (see
/// create_result), check(exec, fn) refuses a wrong backend,
/// stream(exec) is what copy-on-write copies on, and run_compute(h, g, options, exec, state, fn,
/// [source]) / run_update(h, g, log, options, exec, state, fn) call the algorithm. `algorithm`
/// names its Python module in messages. Both run through run_interruptible() (interrupts.hpp):
/// Ctrl-C stops them, leaving the graph and the result as they were.
template <class options_t, template <class> class state_tpl, class calls_t>
void add_entry_points(nb::class_<result_handle_t<state_tpl>>& cls, const char* algorithm) {
  using H = result_handle_t<state_tpl>;
  constexpr bool sourced = has_source<state_tpl<int32_t>>;
  using stats_t = typename compute_stats<calls_t, options_t, state_tpl<int32_t>, sourced>::type;
  const std::string compute_fn = std::string(algorithm) + ".compute";
  const std::string update_fn = std::string(algorithm) + ".update";
  // One body for both forms: `source` is checked against the graph and passed on when the
  // state has one.
  auto compute = [compute_fn](const graph_handle_t& h, int64_t source, const options_t& options,
                              const execution_t& call_exec) {
    // The stage name lives in this lambda, which lives as long as the module.
    const char* fn = compute_fn.c_str();
    return compute_call<H, calls_t, stats_t>(
        h, call_exec, fn, [&](const auto& g, auto& state, const execution_t& exec) {
          using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
          if constexpr (sourced) {
            const auto src = checked_vertex<vid_t>(source, g.num_vertices(), fn, "source");
            return calls_t::run_compute(h, g, options, exec, state, fn, src);
          } else {
            return calls_t::run_compute(h, g, options, exec, state, fn);
          }
        });
  };
  if constexpr (sourced) {
    cls.def_static("compute", compute, nb::arg("graph"), nb::arg("source"), nb::arg("options"),
                   nb::arg("execution"), "Returns (state, stats).");
  } else {
    cls.def_static(
        "compute",
        [compute](const graph_handle_t& h, const options_t& options, const execution_t& exec) {
          return compute(h, 0, options, exec);
        },
        nb::arg("graph"), nb::arg("options"), nb::arg("execution"), "Returns (state, stats).");
  }
  cls.def(
      "update",
      [update_fn](H& r, const graph_handle_t& h, const change_log_handle_t& log,
                  const options_t& options, const execution_t& call_exec) {
        const char* fn = update_fn.c_str();
        calls_t::check(call_exec, fn);
        // An interrupted update has put the state back (run_update's undo), so a retry starts
        // from the state before the batch as the first attempt did.
        return run_interruptible(call_exec, [&](const execution_t& exec) {
          profile_context_t profiling(exec);  // the repair's stages come from run_update
          stats_t stats;
          update_result(fn, h, calls_t::host_rows, log, r, calls_t::stream(exec),
                        [&](const auto& g, const auto& l, auto& state) {
                          stats = calls_t::run_update(h, g, l, options, exec, state, fn);
                        });
          return stats;
        });
      },
      nb::arg("graph"), nb::arg("log"), nb::arg("options"), nb::arg("execution"),
      "Repairs the state after graph.apply(..., log=True); returns the stats.");
}

/// The host backends' calls: the algorithm's compute(graph, [source,] options, exec, state) and
/// update(graph, log, options, exec, state), found next to its state type.
struct host_calls_t {
  static constexpr bool host_rows = true;
  static void check(const execution_t&, const char*) {}
  static void* stream(const execution_t&) { return nullptr; }
  template <class G, class O, class S, class... source_t>
  static auto run_compute(const graph_handle_t&, const G& g, const O& options,
                          const execution_t& exec, S& state, const char*, source_t... source) {
    return compute(g, source..., options, exec, state);
  }
  template <class G, class L, class O, class S>
  static auto run_update(const graph_handle_t&, const G& g, const L& log, const O& options,
                         const execution_t& exec, S& state, const char*) {
    return update(g, log, options, exec, state);
  }
};

template <class options_t, template <class> class state_tpl>
void add_host_entry_points(nb::class_<result_handle_t<state_tpl>>& cls, const char* algorithm) {
  add_entry_points<options_t, state_tpl, host_calls_t>(cls, algorithm);
}

}  // namespace dyng::bindings
