// dyng._core.CycleCountDeviceState (CUDA builds): a cycle histogram counted on the GPU. The
// histogram itself is in host memory (cycle_count_cuda.hpp says why), so its `counts` view is a
// host view; compute, update and the copies between spaces are the shared ones
// (result_handle.hpp, device_result_methods.hpp).
#include "device_result_methods.hpp"
#include "dyng/cycle_count/cycle_count_cuda.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_cycle_count_device(nb::module_& m) {
  using device_t = result_handle_t<cycle_count::cuda::device_state_t>;
  nb::class_<device_t> cls(m, "CycleCountDeviceState",
                           "A histogram of simple cycles by length, counted on a CUDA device.");
  add_result_methods(cls);
  add_device_result_methods<cycle_count::state_t, cycle_count::options_t>(cls, "cycle_count");
}

}  // namespace dyng::bindings
