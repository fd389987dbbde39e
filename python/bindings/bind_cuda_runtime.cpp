// Module functions for dyng.Resources on the CUDA backend (CUDA builds only): device count, the
// current device (for NCCL), stream synchronisation, a device-to-host copy and the workspace
// pool.
#include <cstddef>
#include <cstdint>

#include <nanobind/ndarray.h>

#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "module.hpp"

namespace nb = nanobind;

namespace dyng::bindings {

void bind_cuda_runtime(nb::module_& m) {
  m.def("cuda_device_count", &cuda::visible_device_count,
        "CUDA devices this process can use (0 without a driver or device).");
  m.def("cuda_use_device", &cuda::use_device, nb::arg("device"),
        "Makes `device` this thread's current CUDA device and leaves it so (NCCL binds a "
        "communicator to the current device).");
  m.def(
      "cuda_synchronize",
      [](int device, uintptr_t stream) {
        nb::gil_scoped_release release;
        cuda::device_scope_t scope(device);
        cuda::synchronize(reinterpret_cast<void*>(stream));
      },
      nb::arg("device"), nb::arg("stream") = 0, "Waits for the work queued on the stream.");
  m.def(
      "cuda_copy_to_host",
      [](int device, uintptr_t source, nb::ndarray<nb::numpy, nb::c_contig, nb::device::cpu> out) {
        void* into = out.data();
        const size_t bytes = out.nbytes();
        nb::gil_scoped_release release;
        cuda::device_scope_t scope(device);
        cuda::copy_to_host(into, reinterpret_cast<const void*>(source), bytes, nullptr);
        cuda::synchronize(nullptr);
      },
      nb::arg("device"), nb::arg("source"), nb::arg("out"),
      "Copies out.nbytes bytes of device memory from address `source` into `out` (a writable "
      "C-contiguous host array).");
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
