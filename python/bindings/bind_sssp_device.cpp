// dyng._core.SsspDeviceState (CUDA builds): an sssp result in device memory, all of it the shared
// result handle's (result_handle.hpp, device_result_methods.hpp); a CuPy or PyTorch array made
// from a result keeps its values after the result is updated, as host views do.
#include "device_result_methods.hpp"
#include "dyng/sssp/sssp_cuda.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_sssp_device(nb::module_& m) {
  nb::class_<result_handle_t<sssp::cuda::device_state_t>> cls(
      m, "SsspDeviceState", "An sssp result in CUDA device memory.");
  add_result_methods(cls);
  add_device_result_methods<sssp::state_t, sssp::options_t>(cls, "sssp");
}

}  // namespace dyng::bindings
