// dyng._core.GraphHandle and ChangeLog: the type-erased graph over the compiled id/offset types.
//
// Construction, apply() and the copying readers release the GIL; see handles.hpp for the locking
// rule. Type names travel as "int32"/"int64" strings chosen by the Python layer.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>

#include "arrays.hpp"
#include "dyng/backend/profile.hpp"
#include "graph_device.hpp"
#include "handles.hpp"
#include "interrupts.hpp"
#include "module.hpp"

namespace dyng::bindings {

nb::dict summary_to_dict(const apply_summary_t& s) {
  nb::dict d;
  d["inserted_edges"] = s.inserted_edges;
  d["updated_edges"] = s.updated_edges;
  d["deleted_edges"] = s.deleted_edges;
  d["ignored_deletions"] = s.ignored_deletions;
  d["dropped_self_loops"] = s.dropped_self_loops;
  d["cancelled_pairs"] = s.cancelled_pairs;
  d["inserted_vertices"] = s.inserted_vertices;
  d["deleted_vertices"] = s.deleted_vertices;
  d["num_vertices_after"] = s.num_vertices_after;
  d["ignored_insertions"] = s.ignored_insertions;
  return d;
}

namespace {

constexpr const char* k_compiled_types =
    "(int32, int32, int32), (int32, int64, int32), (int64, int64, int32), "
    "(int32, int32, unweighted), (int32, int64, unweighted)";

template <class G>
struct type_tag_t {
  using type = G;
};

/// Calls f(type_tag_t<graph_t<vid, eid>>) for the compiled combination named by the strings.
template <class F>
graph_variant_t dispatch_types(const char* function, const std::string& vid, const std::string& eid,
                               bool weighted, F&& f) {
  if (vid == "int64" && !weighted) {
    throw not_supported_error(std::string(function) +
                              "(): unweighted graphs with int64 vertex ids are not compiled; "
                              "use int32 ids or add weights (compiled types, as (vertex, edge, "
                              "weight): " +
                              k_compiled_types + ")");
  }
  if (vid == "int32" && eid == "int32") return f(type_tag_t<graph_i32_i32_t>{});
  if (vid == "int32" && eid == "int64") return f(type_tag_t<graph_i32_i64_t>{});
  if (vid == "int64" && eid == "int64") return f(type_tag_t<graph_i64_i64_t>{});
  throw not_supported_error(std::string(function) + "(): vertex type " + vid + " with edge type " +
                            eid + " is not compiled; use one of (vertex, edge, weight) " +
                            k_compiled_types);
}

std::unique_ptr<graph_handle_t> from_edges(const std::string& vertex_dtype,
                                           const std::string& edge_dtype, int64_t num_vertices,
                                           const in_array_t& src, const in_array_t& dst,
                                           const in_array_t& weights,
                                           const graph_properties_t& props) {
  constexpr const char* fn = "Graph.from_edges";
  auto g = dispatch_types(fn, vertex_dtype, edge_dtype, props.num_weights > 0, [&](auto tag) {
    using G = typename decltype(tag)::type;
    using vid_t = typename G::vertex_type;
    if (num_vertices < 0 || num_vertices > std::numeric_limits<vid_t>::max()) {
      throw invalid_argument_error(
          std::string(fn) + "(): num_vertices=" + std::to_string(num_vertices) + " does not fit " +
          dtype_name<vid_t>() + "; pass a smaller count or int64 ids");
    }
    auto s = as_span<vid_t>(src, fn, "src");
    auto d = as_span<vid_t>(dst, fn, "dst");
    auto w = as_span<int32_t>(weights, fn, "weights");
    // A build of a huge edge list takes seconds: Ctrl-C stops it between its passes.
    return run_interruptible(execution_t{}, [&](const execution_t& exec) {
      nb::gil_scoped_release release;
      return graph_variant_t(
          G::from_edges(static_cast<vid_t>(num_vertices), s, d, w, props, exec.cancel));
    });
  });
  return std::make_unique<graph_handle_t>(std::move(g));
}

std::unique_ptr<graph_handle_t> from_csr(const in_array_t& row_ptr, const in_array_t& col,
                                         const in_array_t& weights,
                                         const graph_properties_t& props) {
  constexpr const char* fn = "Graph.from_csr";
  const std::string vid = has_dtype<int64_t>(col) ? "int64" : "int32";
  const std::string eid = has_dtype<int64_t>(row_ptr) ? "int64" : "int32";
  auto g = dispatch_types(fn, vid, eid, props.num_weights > 0, [&](auto tag) {
    using G = typename decltype(tag)::type;
    auto r = as_span<typename G::edge_type>(row_ptr, fn, "row_ptr");
    auto c = as_span<typename G::vertex_type>(col, fn, "col_ind");
    auto w = as_span<int32_t>(weights, fn, "weights");
    return run_interruptible(execution_t{}, [&](const execution_t& exec) {
      nb::gil_scoped_release release;
      return graph_variant_t(G::from_csr(r, c, w, props, exec.cancel));
    });
  });
  return std::make_unique<graph_handle_t>(std::move(g));
}

using apply_result_t = std::pair<nb::dict, std::unique_ptr<change_log_handle_t>>;

apply_result_t apply(graph_handle_t& h, const in_array_t& ins_src, const in_array_t& ins_dst,
                     const in_array_t& ins_w, int num_weights, const in_array_t& del_src,
                     const in_array_t& del_dst, bool want_log, const execution_t& call_exec,
                     bool revertible) {
  // Ctrl-C stops the apply before its first write (graph_t::apply), so nothing changed then.
  return run_interruptible(call_exec, [&](const execution_t& exec) -> apply_result_t {
    // A graph with a device copy applies the batch there (its host graph becomes a shell, see
    // handles.hpp); any other writes its host storage, on the machine's OpenMP team for a CUDA
    // call.
    execution_t host = exec;
    if (host.backend == backend_t::cuda) {
      host = execution_t{backend_t::openmp, 0, 0, nullptr};
      host.cancel = exec.cancel;
    }
    constexpr const char* fn = "Graph.apply";
    auto log = want_log ? std::make_unique<change_log_handle_t>() : nullptr;
    apply_summary_t summary;
    {
      // The spans are built before the lock: a dtype error must not need the lock.
      std::visit(
          [&](auto& g) {
            using G = std::decay_t<decltype(g)>;
            using vid_t = typename G::vertex_type;
            edge_batch_t<vid_t> batch{as_span<vid_t>(ins_src, fn, "insert_src"),
                                      as_span<vid_t>(ins_dst, fn, "insert_dst"),
                                      as_span<int32_t>(ins_w, fn, "insert_weights"),
                                      num_weights,
                                      as_span<vid_t>(del_src, fn, "delete_src"),
                                      as_span<vid_t>(del_dst, fn, "delete_dst")};
            change_log_t<vid_t>* log_ptr = nullptr;
            if (log) log_ptr = &log->log.template emplace<change_log_t<vid_t>>();
            nb::gil_scoped_release release;
            profile_context_t profiling(exec);
            const cancel_scope_t stoppable(exec.cancel);  // the device apply's checks read it
            std::unique_lock lock(h.mutex);
            forget_undo(h);  // a record is for the apply right before a revert
            if (device_applies(h)) {
              summary = apply_on_device(h, g, batch, log_ptr, revertible);
            } else {
              change_log_t<vid_t> device_log;  // a following device copy needs a log
              const bool mirrored = has_device_copy(h);
              if (mirrored && log_ptr == nullptr) log_ptr = &device_log;
              // ... and the row edits, to replay them instead of copying whole rows.
              if (mirrored) log_ptr->record_row_edits = true;
              using undo_t = apply_undo_t<vid_t, typename G::edge_type>;
              undo_t* undo = revertible ? &h.undo.template emplace<undo_t>() : nullptr;
              summary = g.apply(batch, log_ptr, host, undo);
              if (mirrored) sync_device_copy(h, g, *log_ptr);
            }
            if (log) log->graph_version = g.version();
          },
          h.graph);
    }
    // A null log reaches Python as None.
    return {summary_to_dict(summary), std::move(log)};
  });
}

/// Takes back the last apply(), made with `revertible`, from graph version `version` (dyng.update
/// after a repair failed or was interrupted): the graph is then as it was, at that version.
void revert(graph_handle_t& h, uint64_t version) {
  nb::gil_scoped_release release;
  std::unique_lock lock(h.mutex);
  std::visit(
      [&](auto& g) {
        using G = std::decay_t<decltype(g)>;
        if (device_applies(h)) {
          revert_on_device(h, g, version);
          return;
        }
        using undo_t = apply_undo_t<typename G::vertex_type, typename G::edge_type>;
        auto* undo = std::get_if<undo_t>(&h.undo);
        if (undo == nullptr || !undo->recorded || undo->version != version) {
          throw invalid_argument_error(
              "Graph.revert(): no revertible apply from version " + std::to_string(version) +
              " is recorded (the graph is at version " + std::to_string(g.version()) +
              "); revert only the last apply made with revertible=True");
        }
        g.revert(*undo);
        if (has_device_copy(h)) {
          // The copy followed the apply; it is uploaded again rather than taken back row by row
          // (a revert is rare). If that fails, the copy goes, and the next CUDA use uploads it.
          try {
            reload_device_copy(h, g);
          } catch (...) {
            drop_device_copy(h);
          }
        }
      },
      h.graph);
  forget_undo(h);
}

using array_triple_t = std::tuple<out_array_t, out_array_t, out_array_t>;

array_triple_t to_csr(const graph_handle_t& h) {
  return std::visit(
      [&](const auto& g) {
        using G = std::decay_t<decltype(g)>;
        csr_t<typename G::vertex_type, typename G::edge_type> csr;
        {
          nb::gil_scoped_release release;
          const auto lock = h.lock_host_rows();
          csr = g.to_csr();
        }
        return array_triple_t(to_numpy(std::move(csr.row_ptr)), to_numpy(std::move(csr.col)),
                              to_numpy(std::move(csr.weights)));
      },
      h.graph);
}

array_triple_t edges(const graph_handle_t& h) {
  return std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        std::vector<vid_t> src, dst;
        std::vector<int32_t> weights;
        {
          nb::gil_scoped_release release;
          const auto lock = h.lock_host_rows();
          g.edges(src, dst, weights);
        }
        return array_triple_t(to_numpy(std::move(src)), to_numpy(std::move(dst)),
                              to_numpy(std::move(weights)));
      },
      h.graph);
}

std::unique_ptr<graph_handle_t> clone(const graph_handle_t& h, bool keep_device) {
  nb::gil_scoped_release release;
  if (keep_device) {
    // A device graph's copy stays on its device: copied there, with a shell on the host.
    const auto lock = h.lock_counts();
    if (auto copy = clone_on_device(h)) return copy;
  }
  const auto lock = h.lock_host_rows();
  return std::make_unique<graph_handle_t>(graph_variant_t(h.graph));
}

/// A property reader that needs properties, counts or the version only (a shell has them).
template <class F>
auto reader(F f) {
  return [f](const graph_handle_t& h) { return h.read_counts(f); };
}

/// A property reader of the host rows' layout.
template <class F>
auto layout_reader(F f) {
  return [f](const graph_handle_t& h) { return h.read(f); };
}

array_triple_t log_changes(const change_log_handle_t& l) {
  return std::visit(
      [](const auto& log) {
        using vid_t = decltype(log.num_vertices_before);
        std::vector<vid_t> src, dst;
        std::vector<int32_t> kind;
        for (const auto& c : log.changes) {
          src.push_back(c.src);
          dst.push_back(c.dst);
          kind.push_back(static_cast<int32_t>(c.kind));
        }
        return array_triple_t(to_numpy(std::move(src)), to_numpy(std::move(dst)),
                              to_numpy(std::move(kind)));
      },
      l.log);
}

/// Construction, batches and copies: what makes or changes a graph.
void add_graph_writes(nb::class_<graph_handle_t>& graph_cls) {
  graph_cls
      .def_static("from_edges", &from_edges, nb::arg("vertex_dtype"), nb::arg("edge_dtype"),
                  nb::arg("num_vertices"), nb::arg("src"), nb::arg("dst"), nb::arg("weights"),
                  nb::arg("properties"),
                  "Builds from an edge list; weights hold K values per edge, edge-major.")
      .def_static("from_csr", &from_csr, nb::arg("row_ptr"), nb::arg("col_ind"), nb::arg("weights"),
                  nb::arg("properties"),
                  "Builds from a CSR; the dtypes of row_ptr and col_ind pick the types.")
      .def("apply", &apply, nb::arg("insert_src"), nb::arg("insert_dst"), nb::arg("insert_weights"),
           nb::arg("num_weights"), nb::arg("delete_src"), nb::arg("delete_dst"),
           nb::arg("log") = false, nb::arg("execution") = execution_t{},
           nb::arg("revertible") = false,
           "Applies a batch atomically (a large one on the execution's OpenMP team); returns "
           "(summary dict, ChangeLog or None). With revertible, revert() can take it back until "
           "the next apply or forget_revert().")
      .def("revert", &revert, nb::arg("version"),
           "Takes back the last apply (made with revertible) from graph version `version`.")
      .def(
          "forget_revert",
          [](graph_handle_t& h) {
            nb::gil_scoped_release release;
            std::unique_lock lock(h.mutex);
            forget_undo(h);
          },
          "Frees what revert() would need (the batch stays).")
      .def("to_csr", &to_csr, "(row_ptr, col_ind, weights flat K per edge) as fresh arrays.")
      .def("edges", &edges, "(src, dst, weights flat K per edge) in CSR order.")
      .def("clone", &clone, nb::arg("keep_device") = false,
           "A deep copy; with keep_device, a graph whose device copy applies its batches is "
           "copied on that device (the copy's host rows are then off too).")
      .def(
          "reserve",
          [](graph_handle_t& h, int64_t capacity) {
            nb::gil_scoped_release release;
            h.write([&](auto& g) {
              g.reserve(capacity);
              reload_device_copy(h, g);
            });
          },
          nb::arg("edge_capacity"))
      .def(
          "check_integrity",
          [](const graph_handle_t& h) {
            nb::gil_scoped_release release;
            h.read([](const auto& g) { g.check_integrity(); });
          },
          "Raises InternalError naming the first broken storage invariant.");
}

/// What a graph reports about itself: sizes, types, properties, memory and layout.
void add_graph_readers(nb::class_<graph_handle_t>& graph_cls) {
  graph_cls
      .def_prop_ro("num_vertices",
                   reader([](const auto& g) { return static_cast<int64_t>(g.num_vertices()); }))
      .def_prop_ro("num_edges",
                   reader([](const auto& g) { return static_cast<int64_t>(g.num_edges()); }))
      .def_prop_ro("num_weights", reader([](const auto& g) { return g.num_weights(); }))
      .def_prop_ro("version", reader([](const auto& g) { return g.version(); }))
      .def_prop_ro("has_transposed", reader([](const auto& g) { return g.has_transposed(); }))
      .def_prop_ro(
          "vertex_dtype", reader([](const auto& g) {
            return std::string(dtype_name<typename std::decay_t<decltype(g)>::vertex_type>());
          }))
      .def_prop_ro(
          "edge_dtype", reader([](const auto& g) {
            return std::string(dtype_name<typename std::decay_t<decltype(g)>::edge_type>());
          }))
      .def_prop_ro("properties", reader([](const auto& g) { return g.properties(); }),
                   "A copy of the storage properties.")
      .def_prop_ro(
          "host_bytes",
          [](const graph_handle_t& h) {
            return h.read_counts([&](const auto& g) -> int64_t {
              if (host_is_shell(h)) return 0;  // its row offsets are untouched zero pages
              int64_t total = 0;
              for (const auto* d : {&g.out_storage(), &g.in_storage()}) {
                total += static_cast<int64_t>(d->row_begin.size() + d->row_end.size() +
                                              d->row_capacity_end.size()) *
                             static_cast<int64_t>(sizeof(d->row_begin[0])) +
                         static_cast<int64_t>(d->col.size() * sizeof(d->col[0]) +
                                              d->weights.size() * sizeof(int32_t));
              }
              return total;
            });
          },
          "Host memory of the graph's storage in bytes (0 for the shell of a device graph).")
      .def_prop_ro("slot_capacity", layout_reader([](const auto& g) { return g.slot_capacity(); }))
      .def_prop_ro("relayout_count",
                   layout_reader([](const auto& g) { return g.relayout_count(); }));
}

void bind_change_log(nb::module_& m) {
  nb::class_<change_log_handle_t>(m, "ChangeLog",
                                  "The effective edge changes of one Graph.apply().")
      .def_ro("graph_version", &change_log_handle_t::graph_version)
      .def_prop_ro("num_changes",
                   [](const change_log_handle_t& l) {
                     return std::visit([](const auto& log) { return log.changes.size(); }, l.log);
                   })
      .def_prop_ro(
          "num_vertices_before",
          [](const change_log_handle_t& l) {
            return std::visit(
                [](const auto& log) { return static_cast<int64_t>(log.num_vertices_before); },
                l.log);
          })
      .def_prop_ro(
          "num_vertices_after",
          [](const change_log_handle_t& l) {
            return std::visit(
                [](const auto& log) { return static_cast<int64_t>(log.num_vertices_after); },
                l.log);
          })
      .def("changes", &log_changes,
           "(src, dst, kind) arrays; kind 0 inserted, 1 deleted, 2 reweighted.");
}

}  // namespace

void bind_graph(nb::module_& m) {
  nb::class_<graph_handle_t> graph_cls(
      m, "GraphHandle", "A native graph over one compiled (vertex, edge) id combination.");
  add_graph_writes(graph_cls);
  add_graph_readers(graph_cls);
#if defined(DYNG_HAVE_CUDA)
  add_device_methods(graph_cls);
#endif
  bind_change_log(m);
}

}  // namespace dyng::bindings
