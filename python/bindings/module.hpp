// The pieces of dyng._core, each defined in its own file and called from NB_MODULE.
#pragma once

#include <nanobind/nanobind.h>

namespace dyng::bindings {

/// `_register_error_classes` and the C++ -> Python exception translator (bind_errors.cpp).
void bind_errors(nanobind::module_& m);
/// `Execution`, the per-call backend request (bind_execution.cpp).
void bind_execution(nanobind::module_& m);
/// `set_log_level`, `get_log_level`: the core's log (bind_log.cpp).
void bind_log(nanobind::module_& m);
/// `ProfileSession`, `ProfileStage`, `nvtx_available`: dyng.profile()'s native side
/// (bind_profile.cpp).
void bind_profile(nanobind::module_& m);
/// `Properties`, graph storage choices and batch semantics (bind_properties.cpp).
void bind_properties(nanobind::module_& m);
/// `GraphHandle` and `ChangeLog` (bind_graph.cpp).
void bind_graph(nanobind::module_& m);
/// `UpdateStats`, the common base of every algorithm's stats class (bind_stats.cpp).
void bind_update_stats(nanobind::module_& m);
// One pair per algorithm of DYNG_ALGORITHMS, generated into dyng_algorithms.inc by
// python/CMakeLists.txt: bind_<algo> binds the algorithm's options, stats, host result class and
// functions (bind_<algo>.cpp); bind_<algo>_device, in CUDA builds, its device result class
// (bind_<algo>_device.cpp, listed in dyng_device_algorithms.inc where it exists).
#define DYNG_ALGORITHM(name) void bind_##name(nanobind::module_& m);
#include "dyng_algorithms.inc"
#undef DYNG_ALGORITHM
#if defined(DYNG_HAVE_CUDA)
#define DYNG_ALGORITHM(name) void bind_##name##_device(nanobind::module_& m);
#include "dyng_device_algorithms.inc"
#undef DYNG_ALGORITHM
#endif
/// `legacy_mosp_changes`, `legacy_cycle_enum_batch`, the original tools' batch generators
/// (bind_generators.cpp).
void bind_generators(nanobind::module_& m);
#if defined(DYNG_HAVE_CUDA)
/// `cuda_device_count`, `cuda_synchronize` and the workspace pool (bind_cuda_runtime.cpp).
void bind_cuda_runtime(nanobind::module_& m);
/// `StagedBatch` and the functions of batches in device memory (bind_device_batch.cpp).
void bind_device_batch(nanobind::module_& m);
#endif
/// `io_read_*` and `io_write_*`, the file formats of dyng.io (bind_io.cpp).
void bind_io(nanobind::module_& m);
/// `io_write_group_*` and `io_write_bytes`, the command line's all-or-nothing outputs
/// (bind_io_groups.cpp).
void bind_io_groups(nanobind::module_& m);
/// `build_config` (its "algorithms": DYNG_ALGORITHMS) and `openmp_max_threads`
/// (bind_build_config.cpp).
void bind_build_config(nanobind::module_& m);
/// `sssp_shard_*`: the per-rank steps of dyng.distributed's sssp (bind_sssp_shard.cpp).
void bind_sssp_shard(nanobind::module_& m);

}  // namespace dyng::bindings
