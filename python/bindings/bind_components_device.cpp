// dyng._core.ComponentsDeviceState (CUDA builds): component labels and sizes in device memory,
// the count on the host; all of it the shared result handle's (result_handle.hpp,
// device_result_methods.hpp).
#include "device_result_methods.hpp"
#include "dyng/components/components_cuda.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_components_device(nb::module_& m) {
  nb::class_<result_handle_t<components::cuda::device_state_t>> cls(
      m, "ComponentsDeviceState",
      "Component labels, sizes and count of a graph, on a CUDA device.");
  add_result_methods(cls);
  add_device_result_methods<components::state_t, components::options_t>(cls, "components");
}

}  // namespace dyng::bindings
