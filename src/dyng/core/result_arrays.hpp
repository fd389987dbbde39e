// The per-vertex arrays of a result, described once per algorithm so that everything that only
// moves them (growth for new vertices, host and device copies, the bindings' views) is written
// once for all algorithms; and the scalars a result reports (result_scalar_t below).
//
// A vertex-indexed state lists its arrays in `static constexpr auto arrays()`, a tuple of
// result_array_t: the name the Python views carry, the member holding the array, and the value of
// a vertex nothing has reached (what growth fills in), e.g. sssp's distances
// (k_infinite_distance) and parents (-1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

namespace dyng {

template <class state_t, class T>
struct result_array_t {
  using value_type = T;
  const char* name;
  std::vector<T> state_t::* member;
  T untouched;
};

/// A number a result reports besides its arrays (a histogram's longest length, a
/// count), listed in the state's `static constexpr auto scalars()`: the name of the read-only
/// property the bindings give every result class of the algorithm, host and device alike (a
/// device state whose values stay on the host derives from the host state, so the member is
/// its too).
template <class state_t, class T>
struct result_scalar_t {
  using value_type = T;
  const char* name;
  T state_t::* member;
};

/// Calls f(array description) for each array of state type S.
template <class S, class F>
void for_each_array(F&& f) {
  std::apply([&](const auto&... array) { (f(array), ...); }, S::arrays());
}

/// Vertices the state covers: the common length of its arrays, -1 when they disagree.
template <class S>
int64_t covered_vertices(const S& state) {
  const auto first = (state.*std::get<0>(S::arrays()).member).size();
  bool same = true;
  for_each_array<S>([&](const auto& a) { same = same && (state.*a.member).size() == first; });
  return same ? static_cast<int64_t>(first) : -1;
}

/// Resizes every array to `n` entries; new entries are untouched.
template <class S>
void resize_arrays(S& state, int64_t n) {
  for_each_array<S>(
      [&](const auto& a) { (state.*a.member).resize(static_cast<size_t>(n), a.untouched); });
}

}  // namespace dyng
