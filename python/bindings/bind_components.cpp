// dyng._core.ComponentsOptions, ComponentsStats and ComponentsState (components on the host). The
// result handle, its compute (without a source) and update are the shared ones
// (result_handle.hpp): labels and sizes are the state's arrays, count its scalar.
#include <string>

#include "bind_tuning_knobs.hpp"
#include "dyng/components/components.hpp"
#include "dyng/core/errors.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

namespace {

std::string kind_name(const components::options_t& options) {
  return options.kind == components::kind_t::strong ? "strong" : "weak";
}

void set_kind(components::options_t& options, const std::string& kind) {
  if (kind != "weak" && kind != "strong") {
    throw invalid_argument_error("ComponentsOptions.kind: \"" + kind +
                                 "\" is not a kind of components; use \"weak\" or \"strong\"");
  }
  options.kind = kind == "strong" ? components::kind_t::strong : components::kind_t::weak;
}

}  // namespace

void bind_components(nb::module_& m) {
  nb::class_<components::options_t> options(m, "ComponentsOptions", "Native components options.");
  options.def(nb::init<>()).def_prop_rw("kind", &kind_name, &set_kind, "\"weak\" or \"strong\".");
  add_tuning_knobs(options);
  nb::class_<components::stats_t, update_stats_t>(m, "ComponentsStats", "components' counters.")
      .def_ro("merged", &components::stats_t::merged)
      .def_ro("split", &components::stats_t::split)
      .def_ro("relabelled", &components::stats_t::relabelled)
      .def_ro("searches", &components::stats_t::searches)
      .def_ro("search_size", &components::stats_t::search_size);
  nb::class_<result_handle_t<components::state_t>> cls(
      m, "ComponentsState", "Component labels, sizes and count of a graph, on the host.");
  add_result_methods(cls);
  add_host_entry_points<components::options_t>(cls, "components");
}

}  // namespace dyng::bindings
