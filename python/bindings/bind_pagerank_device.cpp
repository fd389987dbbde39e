// dyng._core.PagerankDeviceState (CUDA builds): ranks in device memory, iterations and residual
// on the host; all of it the shared result handle's (result_handle.hpp,
// device_result_methods.hpp), and compute_from (networkx.pagerank's nstart).
#include <vector>

#include "arrays.hpp"
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
  using H = result_handle_t<pagerank::cuda::device_state_t>;
  cls.def_static(
      "compute_from",
      [](const graph_handle_t& h, const in_array_t& start, const pagerank::options_t& options,
         const execution_t& call_exec) {
        constexpr const char* fn = "pagerank.compute";
        device_calls_t::check(call_exec, fn);
        const auto span = as_span<double>(start, fn, "nstart");
        const std::vector<double> x(span.begin(), span.end());
        return compute_call<H, device_calls_t, pagerank::stats_t>(
            h, call_exec, fn, [&](const auto& g, auto& state, const execution_t& exec) {
              const cancel_scope_t stoppable(exec.cancel);
              return pagerank::cuda::compute_from(g, device_graph_for(h, g, exec, fn), x, options,
                                                  exec.stream, state);
            });
      },
      nb::arg("graph"), nb::arg("start"), nb::arg("options"), nb::arg("execution"),
      "compute from `start` (float64, at most one entry per vertex) instead of the uniform "
      "vector; returns (state, stats).");
}

}  // namespace dyng::bindings
