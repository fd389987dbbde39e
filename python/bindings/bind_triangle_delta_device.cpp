// dyng._core.TriangleDeltaDeviceState (CUDA builds): a triangle count made on the GPU. The count
// itself is in host memory (triangle_delta_cuda.hpp says why); compute, update and the copies
// between spaces are the shared ones (result_handle.hpp, device_result_methods.hpp).
#include "device_result_methods.hpp"
#include "dyng/triangle_delta/triangle_delta_cuda.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_triangle_delta_device(nb::module_& m) {
  using device_t = result_handle_t<triangle_delta::cuda::device_state_t>;
  nb::class_<device_t> cls(m, "TriangleDeltaDeviceState",
                           "The number of triangles of an undirected graph, counted on a CUDA "
                           "device.");
  add_result_methods(cls);
  add_device_result_methods<triangle_delta::state_t, triangle_delta::options_t>(cls,
                                                                                "triangle_delta");
}

}  // namespace dyng::bindings
