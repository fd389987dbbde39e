#include "dyng/backend/execution.hpp"

#include <cstdlib>
#include <string>

#include "dyng/core/errors.hpp"

#if defined(DYNG_HAVE_OPENMP)
#include <omp.h>
#endif
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace dyng {

bool openmp_enabled() noexcept {
#if defined(DYNG_HAVE_OPENMP)
  return true;
#else
  return false;
#endif
}

int resolved_thread_count(const execution_t& exec) noexcept {
#if defined(DYNG_HAVE_OPENMP)
  if (exec.backend != backend_t::openmp) return 1;
  return exec.num_threads > 0 ? exec.num_threads : omp_get_max_threads();
#else
  (void)exec;
  return 1;
#endif
}

namespace {

/// True when the 1-minute load average exceeds the online CPUs plus the threads we would add. A
/// barrier then waits for a descheduled thread (a scheduler time slice, milliseconds), and the
/// parallel kernels have a barrier per phase: on the shared 2-core development machine at load
/// 4-8 the 2-thread sssp kernel ran 3-10x slower than the sequential one.
bool machine_saturated(int threads) noexcept {
#if defined(__unix__) || defined(__APPLE__)
  double load = 0.0;
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  return cpus > 0 && getloadavg(&load, 1) == 1 && load > static_cast<double>(cpus + threads);
#else
  (void)threads;
  return false;
#endif
}

}  // namespace

void check_host_backend(const execution_t& exec, const char* fn) {
  if (exec.backend != backend_t::cuda) return;
  throw not_supported_error(std::string(fn) +
                            ": this is the host implementation and cannot run on the CUDA "
                            "backend; use the sequential or OpenMP backend");
}

int host_team_size(const execution_t& exec, int64_t work, int64_t min_work) noexcept {
  if (exec.backend != backend_t::openmp) return 1;
  const int threads = resolved_thread_count(exec);
  if (threads <= 1) return 1;
  if (min_work == 0) return threads;
  return (work >= min_work && !machine_saturated(threads)) ? threads : 1;
}

}  // namespace dyng
