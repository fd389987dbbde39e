// dyng._core.PagerankDeviceState (CUDA builds): ranks in device memory, iterations and residual
// on the host; all of it the shared result handle's (result_handle.hpp,
// device_result_methods.hpp).
#include "device_result_methods.hpp"
#include "dyng/pagerank/pagerank_cuda.hpp"
#include "module.hpp"
#include "result_handle.hpp"

namespace dyng::bindings {

void bind_pagerank_device(nb::module_& m) {
  nb::class_<result_handle_t<pagerank::cuda::device_state_t>> cls(
      m, "PagerankDeviceState", "PageRank of a graph's vertices, on a CUDA device.");
  add_result_methods(cls);
  add_device_result_methods<pagerank::state_t, pagerank::options_t>(cls, "pagerank");
}

}  // namespace dyng::bindings
