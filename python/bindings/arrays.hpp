// Moving arrays across the binding boundary without surprises.
//
// Inputs arrive already converted by the Python layer (contiguous, exact dtype), so the native side
// only checks the dtype and wraps the memory in a span. Outputs leave either as fresh arrays that
// the caller owns, or as read-only views whose capsule keeps the native state alive.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include "dyng/core/argument_checks.hpp"
#include "dyng/core/errors.hpp"

namespace dyng::bindings {

namespace nb = nanobind;

/// Any contiguous 1-d host array; read-only inputs are accepted because nothing is written.
using in_array_t = nb::ndarray<nb::ro, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
/// A fresh NumPy array that Python owns and may write.
using out_array_t = nb::ndarray<nb::numpy, nb::ndim<1>>;
/// A read-only NumPy view on memory that a native object owns.
using view_array_t = nb::ndarray<nb::numpy, nb::ro, nb::ndim<1>>;

template <class T>
constexpr const char* dtype_name() {
  if constexpr (std::is_same_v<T, int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, double>) return "float64";
  else return "unknown";
}

inline std::string describe_dtype(const nb::dlpack::dtype& dt) {
  const char* kind = dt.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Int)     ? "int"
                     : dt.code == static_cast<uint8_t>(nb::dlpack::dtype_code::UInt)  ? "uint"
                     : dt.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Float) ? "float"
                     : dt.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Bool)  ? "bool"
                                                                                      : "other";
  return std::string(kind) + std::to_string(dt.bits);
}

template <class T>
bool has_dtype(const in_array_t& a) {
  return a.dtype() == nb::dtype<T>();
}

/// Wraps a 1-d input in a span after checking its dtype; the Python layer converts, so a mismatch
/// here is a caller bug of the private API and is reported as such.
template <class T>
std::span<const T> as_span(const in_array_t& a, const char* function, const char* name) {
  if (!has_dtype<T>(a)) {
    throw invalid_argument_error(std::string(function) + "(): " + name + " has dtype " +
                                 describe_dtype(a.dtype()) + " but " + dtype_name<T>() +
                                 " is required; convert it before the call");
  }
  return {static_cast<const T*>(a.data()), a.shape(0)};
}

/// Hands a vector to Python without copying: the capsule owns it from here on.
template <class T>
out_array_t to_numpy(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return out_array_t(owned->data(), {owned->size()}, owner, {}, nb::dtype<T>());
}

/// A read-only view of `size` elements at `data`, kept valid by a shared reference to `keep`.
/// Copy-on-write relies on this: while any view lives, keep.use_count() > 1.
template <class T, class Owner>
view_array_t make_view(const T* data, size_t size, std::shared_ptr<Owner> keep) {
  auto* holder = new std::shared_ptr<Owner>(std::move(keep));
  nb::capsule owner(holder,
                    [](void* p) noexcept { delete static_cast<std::shared_ptr<Owner>*>(p); });
  return view_array_t(data, {size}, owner, {}, nb::dtype<T>());
}

/// A read-only device array (DLPack-capable nanobind ndarray) and its address, for the CUDA
/// array interface, which needs the raw pointer.
using device_array_t = nb::ndarray<nb::array_api, nb::ro, nb::ndim<1>, nb::device::cuda>;

/// A read-only view of `size` device elements at `data` on `device`, kept valid by a shared
/// reference to `keep` (copy-on-write relies on it as on make_view's).
template <class T, class Owner>
std::tuple<device_array_t, uintptr_t> make_device_view(const T* data, int64_t size, int device,
                                                       std::shared_ptr<Owner> keep) {
  auto* holder = new std::shared_ptr<Owner>(std::move(keep));
  nb::capsule owner(holder,
                    [](void* p) noexcept { delete static_cast<std::shared_ptr<Owner>*>(p); });
  device_array_t array(data, {static_cast<size_t>(size)}, owner, {}, nb::dtype<T>(),
                       nb::device::cuda::value, device);
  return {array, reinterpret_cast<uintptr_t>(data)};
}

/// A vertex argument (a source) checked against the graph's `n` vertices, in the graph's id type.
template <class T>
T checked_vertex(int64_t value, int64_t n, const char* function, const char* name) {
  check_vertex_id(value, n, (std::string(function) + "()").c_str(), name);
  return static_cast<T>(value);
}

/// Narrows a Python integer to an id type, refusing values that do not fit.
template <class T>
T checked_id(int64_t value, const char* function, const char* name) {
  if (value < 0 || value > static_cast<int64_t>(std::numeric_limits<T>::max())) {
    throw invalid_argument_error(
        std::string(function) + "(): " + name + "=" + std::to_string(value) + " is outside [0, " +
        std::to_string(std::numeric_limits<T>::max()) + "]; pass a valid vertex id");
  }
  return static_cast<T>(value);
}

}  // namespace dyng::bindings
