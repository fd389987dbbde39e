#include "dyng/backend/execution.hpp"

#if defined(DYNG_HAVE_OPENMP)
#include <omp.h>
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

}  // namespace dyng
