// Where and how an algorithm runs. The Python Resources object is translated into this plain
// value at every call, so the C++ core holds no global state about backends.
#pragma once

#include <cstdint>

#include "dyng/backend/cancel.hpp"
#include "dyng/backend/profiler_slot.hpp"

namespace dyng {

enum class backend_t { sequential, openmp, cuda };

/// The execution request of one call.
struct execution_t {
  backend_t backend = backend_t::sequential;
  /// OpenMP team size; 0 means the OpenMP default (OMP_NUM_THREADS or the core count).
  int num_threads = 1;
  /// CUDA device ordinal; ignored on host backends.
  int device = 0;
  /// CUDA stream (a cudaStream_t) the call's device work is ordered on; nullptr is the legacy
  /// default stream. Ignored on host backends.
  void* stream = nullptr;
  /// The profile session recording this call's stages (dyng.profile()); none by default.
  profiler_slot_t profiler;
  /// The caller's stop flag (backend/cancel.hpp); empty: the call is never cancelled.
  cancel_token_t cancel;
};

/// Throws interrupted_error, naming `fn`, when the caller of `exec` asked the call to stop. Call
/// it outside OpenMP regions only (backend/cancel.hpp says how a region stops).
void throw_if_cancelled(const execution_t& exec, const char* fn);
/// The same for code that holds only the call's token (a kernel below the entry point).
void throw_if_cancelled(const cancel_token_t& cancel, const char* fn);
/// The same after an OpenMP region: throws when a thread of the team stopped.
void throw_if_cancelled(const team_stop_t& stop, const char* fn);

/// True when this build of libdyng was compiled with OpenMP.
bool openmp_enabled() noexcept;

/// The number of threads an OpenMP region would get for `exec` (1 without OpenMP).
int resolved_thread_count(const execution_t& exec) noexcept;

/// Throws not_supported_error when `exec` asks for the CUDA backend: the caller is a host
/// implementation. `fn` names the public call.
void check_host_backend(const execution_t& exec, const char* fn);

/// The team an OpenMP kernel should run with for one call over `work` units (stored edges), or 1
/// when the sequential kernel should run instead: a host backend other than OpenMP, a team of
/// one, less work than `min_work` (waking a team costs more than the whole sequential kernel
/// below it; 0 forces the full team, as the tests do), or fewer than two CPUs free right now
/// (the team is cut to the CPUs that no other runnable thread holds). Every host algorithm asks
/// here, so the load guard exists once. Results never depend on the answer.
int host_team_size(const execution_t& exec, int64_t work, int64_t min_work) noexcept;

}  // namespace dyng
