#include "dyng/backend/execution.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "dyng/core/errors.hpp"

#if defined(DYNG_HAVE_OPENMP)
#include <omp.h>
#endif
#if defined(__linux__)
#include <dirent.h>
#include <sched.h>
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

/// The CPUs this process may run on (its affinity mask, which containers and taskset narrow),
/// or the online CPUs where the mask cannot be read.
long usable_cpus() noexcept {
#if defined(__linux__)
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof mask, &mask) == 0) return CPU_COUNT(&mask);
#endif
#if defined(__unix__) || defined(__APPLE__)
  return sysconf(_SC_NPROCESSORS_ONLN);
#else
  return 0;
#endif
}

/// Threads runnable on the whole machine right now, this one included (the fourth field of
/// /proc/loadavg, "running/total"), or -1 where it cannot be read.
long runnable_now() noexcept {
#if defined(__linux__)
  FILE* f = std::fopen("/proc/loadavg", "r");
  if (f == nullptr) return -1;
  double one = 0, five = 0, fifteen = 0;
  long running = -1, total = 0;
  const int got = std::fscanf(f, "%lf %lf %lf %ld/%ld", &one, &five, &fifteen, &running, &total);
  std::fclose(f);
  return got == 5 ? running : -1;
#else
  return -1;
#endif
}

/// This process's threads that are runnable right now, the caller included (state R in
/// /proc/self/task/*/stat), or -1 where that cannot be read. OpenMP's idle workers spin for a
/// while after each parallel region (libgomp's default, milliseconds), and the machine-wide count
/// sees them as runnable: counted as neighbours, they would cut the team of a call that follows
/// another one to a single thread however many cores are idle (bench/README.md, "Figures behind
/// design choices").
long own_runnable_now() noexcept {
#if defined(__linux__)
  long count = 0;
  bool read_any = false;
  // The task ids of this process, from its directory listing.
  if (DIR* dir = opendir("/proc/self/task")) {
    while (const dirent* entry = readdir(dir)) {
      if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
      const std::string path = std::string("/proc/self/task/") + entry->d_name + "/stat";
      std::FILE* f = std::fopen(path.c_str(), "r");
      if (f == nullptr) continue;  // the thread has just exited
      char line[512];
      const size_t got = std::fread(line, 1, sizeof line - 1, f);
      std::fclose(f);
      line[got] = '\0';
      // "pid (comm) S ...": the state follows the last ')', as comm may hold one itself.
      const char* close = std::strrchr(line, ')');
      if (close == nullptr || close[1] != ' ') continue;
      read_any = true;
      count += close[2] == 'R' ? 1 : 0;
    }
    closedir(dir);
  }
  return read_any ? std::max<long>(count, 1) : -1;
#else
  return -1;
#endif
}

/// How many of `threads` the machine can run at once now: the usable CPUs that no other
/// runnable thread holds. A team larger than that waits a scheduler time slice (milliseconds)
/// at every barrier for a descheduled member, and the parallel kernels have a barrier per
/// phase, so an oversubscribed team is slower than the sequential kernel, not merely less fast
/// (bench/README.md, "Figures behind design choices"). The instantaneous runnable count sees a
/// neighbour at once (the 1-minute load average this replaces lagged by a minute); where it is
/// missing, the load average still guards against a machine that stays oversubscribed.
int free_team(int threads) noexcept {
  const long cpus = usable_cpus();
  if (cpus <= 0) return threads;
  const long running = runnable_now();
  if (running >= 1) {
    // Runnable threads on CPUs outside our mask do not compete with us; without per-CPU counts
    // all of them are assumed to, which errs toward the sequential kernel. This process's own
    // runnable threads (the caller, spinning OpenMP workers) are not neighbours; they are read
    // (a file per thread) only when the machine-wide count would cut the team.
    if (cpus - (running - 1) >= threads) return threads;
    const long own = own_runnable_now();
    // The machine-wide count is read again after our own: an OpenMP worker of ours that went to
    // sleep between the two readings was counted as running in the first, which made it look
    // like a neighbour and cut the team on an idle machine.
    const long running_after = std::min(running, runnable_now());
    const long others = std::max<long>(0, running_after - (own >= 1 ? own : 1));
    return static_cast<int>(std::clamp<long>(cpus - others, 1, threads));
  }
#if defined(__unix__) || defined(__APPLE__)
  double load = 0.0;
  if (getloadavg(&load, 1) == 1 && load > static_cast<double>(cpus + threads)) return 1;
#endif
  return threads;
}

}  // namespace

void check_host_backend(const execution_t& exec, const char* fn) {
  if (exec.backend != backend_t::cuda) return;
  throw not_supported_error(std::string(fn) +
                            ": this is the host implementation and cannot run on the CUDA "
                            "backend; use the sequential or OpenMP backend");
}

namespace {

[[noreturn]] void throw_interrupted(const char* fn) {
  throw interrupted_error(std::string(fn) + ": interrupted; nothing was changed");
}

}  // namespace

void throw_if_cancelled(const execution_t& exec, const char* fn) {
  if (exec.cancel.requested()) throw_interrupted(fn);
}

void throw_if_cancelled(const cancel_token_t& cancel, const char* fn) {
  if (cancel.requested()) throw_interrupted(fn);
}

void throw_if_cancelled(const team_stop_t& stop, const char* fn) {
  if (stop.stopped()) throw_interrupted(fn);
}

namespace {
thread_local cancel_token_t t_current_cancel;
}  // namespace

cancel_scope_t::cancel_scope_t(cancel_token_t token) noexcept : outer_(t_current_cancel) {
  t_current_cancel = token;
}

cancel_scope_t::~cancel_scope_t() { t_current_cancel = outer_; }

cancel_token_t cancel_scope_t::current() noexcept { return t_current_cancel; }

int host_team_size(const execution_t& exec, int64_t work, int64_t min_work) noexcept {
  if (exec.backend != backend_t::openmp) return 1;
  const int threads = resolved_thread_count(exec);
  if (threads <= 1) return 1;
  if (min_work == 0) return threads;
  if (work < min_work) return 1;
  const int team = free_team(threads);
  return team >= 2 ? team : 1;
}

}  // namespace dyng
