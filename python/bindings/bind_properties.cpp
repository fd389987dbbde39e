// dyng._core.Properties: graph_properties_t with the batch semantics flattened into it. Enum-like
// fields travel as the strings the Python API uses, so the package maps names one-to-one.
#include <string>

#include <nanobind/stl/string.h>

#include "dyng/core/errors.hpp"
#include "dyng/graph/properties.hpp"
#include "module.hpp"

namespace nb = nanobind;

namespace dyng::bindings {
namespace {

[[noreturn]] void bad_value(const char* field, const std::string& value, const char* allowed) {
  throw invalid_argument_error(std::string("Properties(): ") + field + "='" + value +
                               "' is not valid; use one of " + allowed);
}

edge_order_t parse_order(const std::string& s) {
  if (s == "sorted") return edge_order_t::sorted;
  if (s == "append") return edge_order_t::append;
  bad_value("order", s, "'sorted', 'append'");
}
const char* order_name(edge_order_t o) { return o == edge_order_t::sorted ? "sorted" : "append"; }

on_existing_insert_t parse_existing(const std::string& s) {
  if (s == "upsert") return on_existing_insert_t::upsert;
  if (s == "error") return on_existing_insert_t::error;
  if (s == "ignore") return on_existing_insert_t::ignore;
  bad_value("on_existing_insert", s, "'upsert', 'error', 'ignore'");
}
const char* existing_name(on_existing_insert_t v) {
  switch (v) {
    case on_existing_insert_t::upsert: return "upsert";
    case on_existing_insert_t::error: return "error";
    case on_existing_insert_t::ignore: return "ignore";
  }
  return "unknown";
}

on_missing_delete_t parse_missing(const std::string& s) {
  if (s == "ignore") return on_missing_delete_t::ignore;
  if (s == "error") return on_missing_delete_t::error;
  bad_value("on_missing_delete", s, "'ignore', 'error'");
}
const char* missing_name(on_missing_delete_t v) {
  return v == on_missing_delete_t::ignore ? "ignore" : "error";
}

on_self_loop_t parse_self_loop(const std::string& s) {
  if (s == "keep") return on_self_loop_t::keep;
  if (s == "drop") return on_self_loop_t::drop;
  if (s == "error") return on_self_loop_t::error;
  bad_value("on_self_loop", s, "'keep', 'drop', 'error'");
}
const char* self_loop_name(on_self_loop_t v) {
  switch (v) {
    case on_self_loop_t::keep: return "keep";
    case on_self_loop_t::drop: return "drop";
    case on_self_loop_t::error: return "error";
  }
  return "unknown";
}

}  // namespace

void bind_properties(nb::module_& m) {
  using props_t = graph_properties_t;
  nb::class_<props_t>(m, "Properties", "Storage choices and batch semantics of a native graph.")
      .def(nb::init<>())
      .def_rw("directed", &props_t::directed)
      .def_rw("store_transposed", &props_t::store_transposed)
      .def_rw("num_weights", &props_t::num_weights)
      .def_rw("headroom", &props_t::headroom)
      .def_rw("allow_parallel_edges", &props_t::allow_parallel_edges)
      .def_prop_rw(
          "order", [](const props_t& p) { return order_name(p.order); },
          [](props_t& p, const std::string& s) { p.order = parse_order(s); })
      .def_prop_rw(
          "on_existing_insert",
          [](const props_t& p) { return existing_name(p.semantics.on_existing_insert); },
          [](props_t& p, const std::string& s) {
            p.semantics.on_existing_insert = parse_existing(s);
          })
      .def_prop_rw(
          "on_missing_delete",
          [](const props_t& p) { return missing_name(p.semantics.on_missing_delete); },
          [](props_t& p, const std::string& s) {
            p.semantics.on_missing_delete = parse_missing(s);
          })
      .def_prop_rw(
          "on_self_loop", [](const props_t& p) { return self_loop_name(p.semantics.on_self_loop); },
          [](props_t& p, const std::string& s) { p.semantics.on_self_loop = parse_self_loop(s); })
      .def_prop_rw(
          "deletions_first", [](const props_t& p) { return p.semantics.deletions_first; },
          [](props_t& p, bool v) { p.semantics.deletions_first = v; })
      .def_prop_rw(
          "allow_vertex_growth", [](const props_t& p) { return p.semantics.allow_vertex_growth; },
          [](props_t& p, bool v) { p.semantics.allow_vertex_growth = v; })
      .def_prop_rw(
          "as_sets", [](const props_t& p) { return p.semantics.as_sets; },
          [](props_t& p, bool v) { p.semantics.as_sets = v; });
  m.attr("MAX_WEIGHTS") = k_max_weights;
}

}  // namespace dyng::bindings
