// Module functions for dyng.Resources on the CUDA backend (CUDA builds only): device count,
// stream synchronisation and the workspace pool.
#include <cstdint>

#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "module.hpp"

namespace nb = nanobind;

namespace dyng::bindings {

void bind_cuda_runtime(nb::module_& m) {
  m.def("cuda_device_count", &cuda::visible_device_count,
        "CUDA devices this process can use (0 without a driver or device).");
  m.def(
      "cuda_synchronize",
      [](int device, uintptr_t stream) {
        nb::gil_scoped_release release;
        cuda::device_scope_t scope(device);
        cuda::synchronize(reinterpret_cast<void*>(stream));
      },
      nb::arg("device"), nb::arg("stream") = 0, "Waits for the work queued on the stream.");
  m.def(
      "cuda_workspace_bytes",
      [](int device) {
        cuda::device_scope_t scope(device);
        return static_cast<int64_t>(cuda::pool_reserved_bytes(device));
      },
      nb::arg("device"), "Device memory held by dyng's pool on the device.");
  m.def(
      "cuda_release_workspaces",
      [](int device) {
        nb::gil_scoped_release release;
        cuda::device_scope_t scope(device);
        cuda::trim_pool(device);
      },
      nb::arg("device"), "Returns the pool's unused memory to the driver.");
}

}  // namespace dyng::bindings
