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
#define DYNG_ALGORITHM(name) dyng::bindings::bind_##name(m);
#include "dyng_algorithms.inc"
#undef DYNG_ALGORITHM
  dyng::bindings::bind_generators(m);
  dyng::bindings::bind_io(m);
  dyng::bindings::bind_io_groups(m);
  dyng::bindings::bind_build_config(m);
  dyng::bindings::bind_sssp_shard(m);
  // What only a CUDA module has comes last, so its stub is the CPU module's with the plugin's
  // extras appended (python/plugin/merge_stub.py).
#if defined(DYNG_HAVE_CUDA)
#define DYNG_ALGORITHM(name) dyng::bindings::bind_##name##_device(m);
#include "dyng_device_algorithms.inc"
#undef DYNG_ALGORITHM
  dyng::bindings::bind_cuda_runtime(m);
  dyng::bindings::bind_device_batch(m);
#endif
}
