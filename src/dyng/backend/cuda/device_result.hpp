// Results of vertex-indexed algorithms in device memory, and everything that only moves them:
// clones, host <-> device copies and growth for new vertices, written once for all algorithms.
// No CUDA types here (the copies go through device_allocator.hpp), so C++ code and the bindings
// use them.
//
// A device state derives from device_result_t<vid_t> (a result of one source) or
// device_placement_t (a result of the whole graph), names its host state `host_type` (which
// lists its arrays, core/result_arrays.hpp) and lists its device buffers in
// `static constexpr auto device_arrays()`, in the same order. Host-side values besides the
// arrays (a count, a kind) sit in a plain struct that the host and the device state both derive
// from, named `fields_type` in the device state: every copy below carries it along. Being
// derived from these bases also makes the functions below reachable by argument-dependent lookup.
//
// A state that holds more than vertex-indexed arrays (mosp: K trees and a combined graph) copies
// itself instead (self_copying_result): clone, to_host and to_device then call its members, so
// the result handle and the bindings reach every device state the same way.
#pragma once

#include <cstddef>
#include <concepts>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>

#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/result_arrays.hpp"

namespace dyng::cuda {

/// Where a result's buffers live.
struct device_placement_t {
  int device = 0;
  int64_t num_vertices = 0;  ///< entries in use; each buffer holds at least this many
};

template <class vid_t>
struct device_result_t : device_placement_t {
  vid_t source = 0;
};

/// Throws invalid_argument_error unless `state` (any device state: it records its `device`)
/// lives on `device`, the device of the graph an update is about to read. `fn` names the public
/// call.
template <class S>
  requires requires(const S& s) {
    { s.device } -> std::convertible_to<int>;
  }
void check_on_device(const S& state, int device, const char* fn) {
  if (state.device == device) return;
  throw invalid_argument_error(std::string(fn) + ": the result lives on CUDA device " +
                               std::to_string(state.device) + " but the graph on device " +
                               std::to_string(device) +
                               "; clone the result to the graph's device first");
}

/// A device state that makes its own deep copies and host/device copies.
template <class D>
concept self_copying_result =
    requires(const D& state, const typename D::host_type& host, void* stream) {
      { state.deep_copy(stream) } -> std::same_as<D>;
      { state.copy_to_host(stream) } -> std::same_as<typename D::host_type>;
      { D::copy_from_host(host, 0, stream) } -> std::same_as<D>;
    };

/// The copies of a self-copying state (see above).
template <self_copying_result D>
D clone(const D& state, void* stream) {
  return state.deep_copy(stream);
}
template <self_copying_result D>
typename D::host_type to_host(const D& state, void* stream) {
  return state.copy_to_host(stream);
}
template <self_copying_result D>
D to_device(const typename D::host_type& host, int device, void* stream) {
  return D::copy_from_host(host, device, stream);
}

namespace result_detail {

/// Calls f(host array description, device buffer member) for each array of D.
template <class D, class F>
void for_each_pair(F&& f) {
  const auto host = D::host_type::arrays();
  const auto device = D::device_arrays();
  [&]<size_t... i>(std::index_sequence<i...>) {
    (f(std::get<i>(host), std::get<i>(device)), ...);
  }(std::make_index_sequence<std::tuple_size_v<decltype(host)>>{});
}

/// Copies what `from` holds besides its arrays and placement (its source, D's fields_type)
/// into `to`; either side may be D or D's host state.
template <class D, class to_t, class from_t>
void copy_host_values(to_t& to, const from_t& from) {
  if constexpr (requires { to.source = from.source; }) to.source = from.source;
  if constexpr (requires { typename D::fields_type; }) {
    using fields_t = typename D::fields_type;
    static_cast<fields_t&>(to) = static_cast<const fields_t&>(from);
  }
}

}  // namespace result_detail

/// A result of `n` vertices with uninitialised buffers on the current device and `model`'s host
/// values (source, fields), `model` being a D or a D::host_type. Long-lived, so allocated on the
/// default stream (a caller's stream may be destroyed before the result is).
template <class D, class model_t>
D allocate_like(const model_t& model, int device, int64_t n) {
  D fresh;
  result_detail::copy_host_values<D>(fresh, model);
  fresh.device = device;
  fresh.num_vertices = n;
  result_detail::for_each_pair<D>([&](const auto& h, auto member) {
    using T = typename std::decay_t<decltype(h)>::value_type;
    fresh.*member = device_buffer<T>(static_cast<size_t>(n > 0 ? n : 1));
  });
  return fresh;
}

/// A result of one source: allocate_like() with only the source set.
template <class D>
D allocate_result(decltype(D::source) source, int device, int64_t n) {
  D model;
  model.source = source;
  return allocate_like<D>(model, device, n);
}

/// A whole-graph result: allocate_like() with default host values.
template <class D>
  requires(!requires { D::source; })
D allocate_result(int device, int64_t n) {
  const D model;
  return allocate_like<D>(model, device, n);
}

/// A deep copy on the same device, ready when it returns.
template <class D>
  requires(requires { D::device_arrays(); } && !self_copying_result<D>)
D clone(const D& state, void* stream) {
  device_scope_t scope(state.device);
  D copy = allocate_like<D>(state, state.device, state.num_vertices);
  result_detail::for_each_pair<D>([&](const auto& h, auto member) {
    using T = typename std::decay_t<decltype(h)>::value_type;
    copy_on_device((copy.*member).data(), (state.*member).data(),
                   static_cast<size_t>(state.num_vertices) * sizeof(T), stream);
  });
  synchronize(stream);
  return copy;
}

/// The copy that an update repairs while readers still hold `state` (copy on write): a clone
/// that also takes over the state's work caches, the members that D::work_caches() names. A
/// clone leaves them out, as they are not part of the answer, but they fit the copy, whose answer
/// equals the state's; rebuilding them would cost the update more than the copy. `state` keeps
/// its answer for its readers and is left without caches.
template <class D>
D clone_for_update(D& state, void* stream) {
  D copy = clone(state, stream);
  if constexpr (requires { D::work_caches(); }) {
    std::apply([&](auto... member) { ((copy.*member = std::exchange(state.*member, {})), ...); },
               D::work_caches());
  }
  return copy;
}

/// The host result with the same values.
template <class D>
  requires(requires { D::device_arrays(); } && !self_copying_result<D>)
typename D::host_type to_host(const D& state, void* stream) {
  device_scope_t scope(state.device);
  typename D::host_type host;
  result_detail::copy_host_values<D>(host, state);
  result_detail::for_each_pair<D>([&](const auto& h, auto member) {
    auto& values = host.*h.member;
    values.resize(static_cast<size_t>(state.num_vertices));
    copy_to_host(values.data(), (state.*member).data(), values.size() * sizeof(values[0]), stream);
  });
  synchronize(stream);
  return host;
}

/// A device copy of a host result on `device`.
template <class D>
  requires(!self_copying_result<D>)
D to_device(const typename D::host_type& host, int device, void* stream) {
  device_scope_t scope(device);
  D copy = allocate_like<D>(host, device, covered_vertices(host));
  result_detail::for_each_pair<D>([&](const auto& h, auto member) {
    const auto& values = host.*h.member;
    copy_to_device((copy.*member).data(), values.data(), values.size() * sizeof(values[0]), stream);
  });
  synchronize(stream);
  return copy;
}

/// Copies every array and host value of `from` into `to` (same vertex count, on the current
/// device) and waits.
template <class D>
void copy_values(D& to, const D& from, void* stream) {
  result_detail::copy_host_values<D>(to, from);
  result_detail::for_each_pair<D>([&](const auto& h, auto member) {
    using T = typename std::decay_t<decltype(h)>::value_type;
    copy_on_device((to.*member).data(), (from.*member).data(),
                   static_cast<size_t>(from.num_vertices) * sizeof(T), stream);
  });
  synchronize(stream);
}

/// Grows `state` to `n` vertices (on the current device); the new ones are untouched. Only the
/// arrays are replaced: whatever else the state keeps (an update's memory between batches)
/// stays. Strong guarantee: on a throw, `state` is as it was.
template <class D>
void grow(D& state, int64_t n, void* stream) {
  if (n <= state.num_vertices) return;
  D grown = allocate_like<D>(state, state.device, n);
  const int64_t old = state.num_vertices;
  result_detail::for_each_pair<D>([&](const auto& h, auto member) {
    using T = typename std::decay_t<decltype(h)>::value_type;
    copy_on_device((grown.*member).data(), (state.*member).data(),
                   static_cast<size_t>(old) * sizeof(T), stream);
    fill_values((grown.*member).data() + old, h.untouched, static_cast<size_t>(n - old), stream);
  });
  result_detail::for_each_pair<D>(
      [&](const auto&, auto member) { std::swap(state.*member, grown.*member); });
  state.num_vertices = n;
}

}  // namespace dyng::cuda
