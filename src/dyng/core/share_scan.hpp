// A running sum over [0, n) shared out on an OpenMP team: each thread counts its contiguous
// share, the shares' totals are summed, and each thread then writes its share knowing where it
// starts. Two streaming passes instead of one sequential one, so that the writes (and the page
// faults of fresh arrays, which dominate such passes on a million vertices) happen on every core.
#pragma once

#include <cstdint>
#include <vector>

#include "dyng/core/thread_share.hpp"

namespace dyng {

/// Calls count(lo, hi) -> int64_t for every share [lo, hi) of [0, n), then emit(lo, hi, start)
/// with `start` the sum of the counts of the shares before it; returns the sum of all counts.
/// With threads <= 1 there is one share. The shares follow the team OpenMP grants, not
/// `threads` itself.
template <class count_fn, class emit_fn>
int64_t scan_shares(int64_t n, int threads, count_fn&& count, emit_fn&& emit) {
  const int team = threads > 1 ? threads : 1;
  std::vector<int64_t> share_end(static_cast<size_t>(team) + 1, 0);
  int64_t total = 0;
#pragma omp parallel num_threads(team) if (team > 1)
  {
    const thread_share_t me = thread_share(n);
    const int t = me.thread, size = me.threads;
    const int64_t lo = me.lo, hi = me.hi;
    share_end[static_cast<size_t>(t) + 1] = count(lo, hi);
#pragma omp barrier
#pragma omp single
    {
      for (int u = 0; u < size; ++u) share_end[u + 1] += share_end[u];
      total = share_end[static_cast<size_t>(size)];
    }
    emit(lo, hi, share_end[static_cast<size_t>(t)]);
  }
  return total;
}

}  // namespace dyng
