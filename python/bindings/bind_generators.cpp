// dyng._core.legacy_mosp_changes and legacy_cycle_enum_batch: the original tools' seeded batch
// generators (dyng/generators/legacy.hpp). The Python layer checks the argument types and builds
// the EdgeBatch; this file reads the graph's host rows and hands back the id arrays in the graph's
// vertex type.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "arrays.hpp"
#include "dyng/generators/legacy.hpp"
#include "handles.hpp"
#include "module.hpp"

namespace dyng::bindings {
namespace {

/// What mospPrep reports about a batch, beside the batch itself.
struct mosp_change_counts_t {
  int64_t inserts = 0;
  int64_t reweights = 0;
  int64_t deletes = 0;
  int64_t requested_deletes = 0;
  int64_t safe_rounds = 0;
  int64_t centre = -1;
  int64_t region = 0;
  std::string summary;
};

generators::change_mode_t mode_of(const std::string& name) {
  using generators::change_mode_t;
  if (name == "uniform") return change_mode_t::uniform;
  if (name == "targeted") return change_mode_t::targeted;
  if (name == "reweight") return change_mode_t::reweight;
  if (name == "increase") return change_mode_t::increase;
  throw invalid_argument_error("mosp_changes(): mode='" + name +
                               "' is not a mode; use 'uniform', 'targeted', 'reweight' or "
                               "'increase'");
}

nb::tuple mosp_changes(const graph_handle_t& h, int64_t num_changes, double insertion_percentage,
                       const std::string& mode, int32_t weight_min, int32_t weight_max,
                       uint32_t seed, int64_t local_hops, bool safe_deletions, int64_t source) {
  generators::mosp_change_options_t options;
  options.num_changes = num_changes;
  options.insertion_percentage = insertion_percentage;
  options.mode = mode_of(mode);
  options.weight_min = weight_min;
  options.weight_max = weight_max;
  options.seed = seed;
  options.local_hops = local_hops;
  options.safe_deletions = safe_deletions;
  options.source = source;
  return std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        generators::mosp_change_batch_t<vid_t> batch;
        {
          nb::gil_scoped_release release;
          const auto lock = h.lock_host_rows();
          batch = generators::mosp_changes(g, options);
        }
        mosp_change_counts_t counts{
            batch.inserts,     batch.reweights, batch.deletes, batch.requested_deletes,
            batch.safe_rounds, batch.centre,    batch.region,  std::move(batch.summary)};
        return nb::make_tuple(
            to_numpy(std::move(batch.insert_src)), to_numpy(std::move(batch.insert_dst)),
            to_numpy(std::move(batch.insert_weights)), to_numpy(std::move(batch.delete_src)),
            to_numpy(std::move(batch.delete_dst)), std::move(counts));
      },
      h.graph);
}

nb::tuple cycle_enum_batch(const graph_handle_t& h, int64_t num_deletions, int64_t num_insertions,
                           uint64_t seed, std::optional<int64_t> locality_window) {
  const generators::cycle_enum_batch_options_t options{num_deletions, num_insertions, seed,
                                                       locality_window};
  return std::visit(
      [&](const auto& g) {
        using vid_t = typename std::decay_t<decltype(g)>::vertex_type;
        generators::edge_changes_t<vid_t> batch;
        {
          nb::gil_scoped_release release;
          const auto lock = h.lock_host_rows();
          batch = generators::cycle_enum_batch(g, options);
        }
        return nb::make_tuple(
            to_numpy(std::move(batch.insert_src)), to_numpy(std::move(batch.insert_dst)),
            to_numpy(std::move(batch.delete_src)), to_numpy(std::move(batch.delete_dst)));
      },
      h.graph);
}

}  // namespace

void bind_generators(nb::module_& m) {
  nb::class_<mosp_change_counts_t>(m, "MospChangeCounts",
                                   "What mospPrep's change generator reports about a batch.")
      .def_ro("inserts", &mosp_change_counts_t::inserts)
      .def_ro("reweights", &mosp_change_counts_t::reweights)
      .def_ro("deletes", &mosp_change_counts_t::deletes)
      .def_ro("requested_deletes", &mosp_change_counts_t::requested_deletes)
      .def_ro("safe_rounds", &mosp_change_counts_t::safe_rounds)
      .def_ro("centre", &mosp_change_counts_t::centre)
      .def_ro("region", &mosp_change_counts_t::region)
      .def_ro("summary", &mosp_change_counts_t::summary);
  m.def("legacy_mosp_changes", &mosp_changes, nb::arg("graph"), nb::arg("num_changes"),
        nb::arg("insertion_percentage"), nb::arg("mode"), nb::arg("weight_min"),
        nb::arg("weight_max"), nb::arg("seed"), nb::arg("local_hops"), nb::arg("safe_deletions"),
        nb::arg("source"),
        "mospPrep's `changes`: (insert_src, insert_dst, insert_weights flat, delete_src, "
        "delete_dst, MospChangeCounts).");
  m.def("legacy_cycle_enum_batch", &cycle_enum_batch, nb::arg("graph"), nb::arg("num_deletions"),
        nb::arg("num_insertions"), nb::arg("seed"), nb::arg("locality_window").none(),
        "CycleEnumeration-GPU's batch generator: (insert_src, insert_dst, delete_src, "
        "delete_dst), each sorted.");
}

}  // namespace dyng::bindings
