// Results of vertex-indexed algorithms in device memory, and everything that only moves them:
// clones, host <-> device copies and growth for new vertices, written once for all algorithms.
// No CUDA types here (the copies go through device_allocator.hpp), so C++ code and the bindings
// use them.
//
// A device state derives from device_result_t<vid_t>, names its host state `host_type` (which
// lists its arrays, core/result_arrays.hpp) and lists its device buffers in
// `static constexpr auto device_arrays()`, in the same order. Being derived from
// device_result_t also makes the functions below reachable by argument-dependent lookup.
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

template <class vid_t>
struct device_result_t {
  vid_t source = 0;
  int device = 0;
  int64_t num_vertices = 0;  ///< entries in use; each buffer holds at least this many
};

/// Throws invalid_argument_error unless `state` (any device state: it records its `device`)
/// lives on `device`, the device of the graph an update is about to read. `fn` names the public
/// call.
template <class S>
  requires requires(const S& s) { { s.device } -> std::convertible_to<int>; }
void check_on_device(const S& state, int device, const char* fn) {
  if (state.device == device) return;
  throw invalid_argument_error(std::string(fn) + ": the result lives on CUDA device " +
                               std::to_string(state.device) + " but the graph on device " +
                               std::to_string(device) +
                               "; clone the result to the graph's device first");
}

/// A device state that makes its own deep copies and host/device copies.
template <class D>
concept self_copying_result = requires(const D& state, const typename D::host_type& host,
                                       void* stream) {
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

}  // namespace result_detail

/// A result of `n` vertices with uninitialised buffers on the current device. Long-lived, so
/// allocated on the default stream (a caller's stream may be destroyed before the result is).
template <class D>
D allocate_result(decltype(D::source) source, int device, int64_t n) {
  D fresh;
  fresh.source = source;
  fresh.device = device;
  fresh.num_vertices = n;
  result_detail::for_each_pair<D>([&](const auto& h, auto member) {
    using T = typename std::decay_t<decltype(h)>::value_type;
    fresh.*member = device_buffer<T>(static_cast<size_t>(n > 0 ? n : 1));
  });
  return fresh;
}

/// A deep copy on the same device, ready when it returns.
template <class D>
  requires(requires { D::device_arrays(); } && !self_copying_result<D>)
D clone(const D& state, void* stream) {
  device_scope_t scope(state.device);
  D copy = allocate_result<D>(state.source, state.device, state.num_vertices);
  result_detail::for_each_pair<D>([&](const auto& h, auto member) {
    using T = typename std::decay_t<decltype(h)>::value_type;
    copy_on_device((copy.*member).data(), (state.*member).data(),
                   static_cast<size_t>(state.num_vertices) * sizeof(T), stream);
  });
  synchronize(stream);
  return copy;
}

/// The host result with the same values.
template <class D>
  requires(requires { D::device_arrays(); } && !self_copying_result<D>)
typename D::host_type to_host(const D& state, void* stream) {
  device_scope_t scope(state.device);
  typename D::host_type host;
  host.source = state.source;
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
  D copy = allocate_result<D>(host.source, device, covered_vertices(host));
  result_detail::for_each_pair<D>([&](const auto& h, auto member) {
    const auto& values = host.*h.member;
    copy_to_device((copy.*member).data(), values.data(), values.size() * sizeof(values[0]),
                   stream);
  });
  synchronize(stream);
  return copy;
}

/// Copies every array of `from` into `to` (same vertex count, on the current device) and waits.
template <class D>
void copy_values(D& to, const D& from, void* stream) {
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
  D grown = allocate_result<D>(state.source, state.device, n);
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
