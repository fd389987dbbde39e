// dyng._core.BfsDeviceState (CUDA builds): dynamic_bfs levels in device memory, all of it the
// shared result handle's (result_handle.hpp, device_result_methods.hpp).
#include "device_result_methods.hpp"
#include "dyng/dynamic_bfs/dynamic_bfs_cuda.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_dynamic_bfs_device(nb::module_& m) {
  nb::class_<result_handle_t<dynamic_bfs::cuda::device_state_t>> cls(
      m, "BfsDeviceState", "dynamic_bfs levels in device memory.");
  add_result_methods(cls);
  add_device_result_methods<dynamic_bfs::state_t, dynamic_bfs::options_t>(cls, "dynamic_bfs");
}

}  // namespace dyng::bindings
