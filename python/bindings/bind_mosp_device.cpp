// dyng._core.MospDeviceState (CUDA builds): a mosp result in device memory. The result handle,
// compute, update and the host/device copies are the shared ones (result_handle.hpp,
// device_result_methods.hpp), the per-objective views mosp_views.hpp's; the path costs are
// copied to the host when read, as the spec keeps them there.
#include <cstdint>
#include <vector>

#include "device_result_methods.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/mosp/mosp_cuda.hpp"
#include "module.hpp"
#include "mosp_views.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_mosp_device(nb::module_& m) {
  nb::class_<result_handle_t<mosp::cuda::device_state_t>> cls(
      m, "MospDeviceState", "mosp trees, MOSP tree and path costs in CUDA device memory.");
  add_result_methods(cls);
  add_device_result_methods<mosp::state_t, mosp::options_t>(cls, "mosp");
  add_mosp_views(cls, [](const auto& p) {
    std::vector<int64_t> costs;
    if (p->has_path_costs) {
      nb::gil_scoped_release release;
      ::dyng::cuda::device_scope_t scope(p->device);
      costs.resize(static_cast<size_t>(p->num_vertices * p->num_objectives));
      ::dyng::cuda::copy_to_host(costs.data(), p->path_costs.data(), costs.size() * sizeof(int64_t),
                                 nullptr);
      ::dyng::cuda::synchronize(nullptr);
    }
    return to_numpy(std::move(costs));
  });
}

}  // namespace dyng::bindings
