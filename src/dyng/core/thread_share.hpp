// Where the calling thread stands in the team OpenMP actually granted to the enclosing parallel
// region. Work dealt out by this, not by the team size that was asked for, is done whole even
// when OpenMP grants fewer threads (inside a parallel region that allows no nesting, one).
#pragma once

#include <cstdint>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace dyng {

/// The calling thread's number and the granted team's size (0 of 1 outside a parallel region or
/// without OpenMP), and the thread's contiguous share [lo, hi) of [0, n).
struct thread_share_t {
  int thread = 0;
  int threads = 1;
  int64_t lo = 0;
  int64_t hi = 0;
};

inline thread_share_t thread_share(int64_t n) {
  thread_share_t s;
#if defined(_OPENMP)
  s.thread = omp_get_thread_num();
  s.threads = omp_get_num_threads();
#endif
  s.lo = n * s.thread / s.threads;
  s.hi = n * (s.thread + 1) / s.threads;
  return s;
}

}  // namespace dyng
