// dyng._core: the native layer of dyng. It stays thin on purpose: argument parsing, dtype inference
// and every friendly check live in the Python package; this module wraps libdyng's types, releases
// the GIL around long calls and translates C++ errors. A CUDA plugin builds the same sources as
// dyng_cu<N>._core, which is why the module name is fixed here.
#include "module.hpp"

NB_MODULE(_core, m) {
  m.doc() = "Native layer of dyng (private: use the dyng package, not this module).";
  m.attr("__version__") = DYNG_VERSION_STRING;
  dyng::bindings::bind_errors(m);
  dyng::bindings::bind_execution(m);
  dyng::bindings::bind_log(m);
  dyng::bindings::bind_profile(m);
  dyng::bindings::bind_properties(m);
  dyng::bindings::bind_graph(m);
  dyng::bindings::bind_update_stats(m);
  dyng::bindings::bind_sssp(m);
  dyng::bindings::bind_dynamic_bfs(m);
  dyng::bindings::bind_mosp(m);
  dyng::bindings::bind_cycle_count(m);
  dyng::bindings::bind_triangle_delta(m);
  dyng::bindings::bind_generators(m);
  dyng::bindings::bind_io(m);
  dyng::bindings::bind_io_groups(m);
#if defined(DYNG_HAVE_CUDA)
  dyng::bindings::bind_sssp_device(m);
  dyng::bindings::bind_dynamic_bfs_device(m);
  dyng::bindings::bind_mosp_device(m);
  dyng::bindings::bind_cycle_count_device(m);
  dyng::bindings::bind_triangle_delta_device(m);
  dyng::bindings::bind_cuda_runtime(m);
  dyng::bindings::bind_device_batch(m);
#endif
  dyng::bindings::bind_build_config(m);
}
