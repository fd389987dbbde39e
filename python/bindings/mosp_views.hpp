// What MospState and MospDeviceState offer beyond the shared result handle: the objective count,
// L, the path-cost and consistency flags, and the per-objective views, host or device alike.
#pragma once

#include <cstdint>
#include <string>

#include <nanobind/nanobind.h>

#include "arrays.hpp"
#include "dyng/core/errors.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

/// Objective k of the state, checked against its objective count (Result.distances(k)).
template <class S>
int checked_objective(const S& state, int64_t k, const char* fn) {
  if (k < 0 || k >= state.num_objectives) {
    throw invalid_argument_error(std::string(fn) + "(): the objective " + std::to_string(k) +
                                 " is out of range [0, " + std::to_string(state.num_objectives) +
                                 "); pass an objective below num_objectives");
  }
  return static_cast<int>(k);
}

/// A view of one array of a state: NumPy for host states, (DLPack, address) for device ones.
template <bool on_device, class T, class P>
auto state_view(const T* data, int64_t size, const P& p) {
  if constexpr (on_device) {
    return make_device_view(data, size, p->device, p);
  } else {
    return make_view(data, static_cast<size_t>(size), p);
  }
}

/// The vertices one tree of a state covers.
template <bool on_device, class T>
int64_t tree_size(const T& tree) {
  if constexpr (on_device) {
    return tree.num_vertices;
  } else {
    return static_cast<int64_t>(tree.distances.size());
  }
}

/// `path_costs(state_ptr)` returns what Result.path_costs reads (always host memory: the spec
/// has the (n, K) costs on the host).
template <template <class> class state_tpl, class path_costs_fn>
void add_mosp_views(nb::class_<result_handle_t<state_tpl>>& cls, path_costs_fn&& path_costs) {
  using H = result_handle_t<state_tpl>;
  constexpr bool on_device = requires { state_tpl<int32_t>::device_arrays(); };
  cls.def_prop_ro(
         "num_objectives",
         [](const H& r) { return r.read([](const auto& p) { return p->num_objectives; }); })
      .def_prop_ro(
          "preference_scale",
          [](const H& r) { return r.read([](const auto& p) { return p->preference_scale; }); })
      .def_prop_ro(
          "has_path_costs",
          [](const H& r) { return r.read([](const auto& p) { return p->has_path_costs; }); })
      .def_prop_ro(
          "consistent",
          [](const H& r) { return r.read([](const auto& p) { return p->consistent; }); },
          "False after an update that failed part-way: compute the result again.")
      .def(
          "distances",
          [](const H& r, int64_t k) {
            return r.read([&](const auto& p) {
              const auto& tree = p->trees[checked_objective(*p, k, "mosp.Result.distances")];
              return state_view<on_device>(tree.distances.data(), tree_size<on_device>(tree), p);
            });
          },
          nb::arg("objective"), "A read-only view of objective k's distances.")
      .def(
          "parents",
          [](const H& r, int64_t k) {
            return r.read([&](const auto& p) {
              const auto& tree = p->trees[checked_objective(*p, k, "mosp.Result.parents")];
              return state_view<on_device>(tree.parents.data(), tree_size<on_device>(tree), p);
            });
          },
          nb::arg("objective"), "A read-only view of objective k's parents.")
      .def(
          "path_costs",
          [path_costs](const H& r) { return r.read([&](const auto& p) { return path_costs(p); }); },
          "The n x K path costs, row-major, in host memory (empty when not computed).");
}

}  // namespace dyng::bindings
