// The native sssp state handle and the stats dict, shared by sssp.cpp (host results) and
// sssp_device.cpp (device results, which convert to and from host ones).
#pragma once

#include <memory>
#include <mutex>
#include <variant>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "dyng/sssp/sssp.hpp"

namespace dyng::bindings {

namespace nb = nanobind;

template <class vid_t>
using state_ptr_t = std::shared_ptr<sssp::state_t<vid_t>>;

/// The object behind dyng._core.SsspState.
struct sssp_handle_t {
  std::variant<state_ptr_t<int32_t>, state_ptr_t<int64_t>> state;
  /// Serialises writers against readers of this state; taken after the graph's lock.
  mutable std::mutex mutex;

  template <class vid_t>
  explicit sssp_handle_t(state_ptr_t<vid_t> s) : state(std::move(s)) {}
};

inline const char* path_name(sssp::update_path_t p) {
  switch (p) {
    case sssp::update_path_t::compute: return "compute";
    case sssp::update_path_t::incremental: return "incremental";
    case sssp::update_path_t::recompute: return "recompute";
  }
  return "unknown";
}

inline nb::dict stats_to_dict(const sssp::stats_t& s) {
  nb::dict d;
  d["affected"] = s.affected;
  d["iterations"] = s.iterations;
  d["frontier_visits"] = s.frontier_visits;
  d["fallback_used"] = s.fallback_used;
  d["converged"] = s.converged;
  d["engine_used"] = s.engine_used;
  d["invalidated"] = s.invalidated;
  d["epochs"] = s.epochs;
  d["pushes"] = s.pushes;
  d["packed_parents"] = s.packed_parents;
  d["path"] = path_name(s.path);
  return d;
}

}  // namespace dyng::bindings
