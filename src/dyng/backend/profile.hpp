// The profiler of libdyng's calls (dyng.profile() in Python): sessions, contexts, and the
// recording behind the stage scopes and counters of core/stage_scope.hpp.
//
// A profile_session_t collects one sample per stage. A call is profiled when the execution_t it
// runs with points at a session (execution_t::profiler) and the call's entry point opens a
// profile_context_t for it: from then on, on that thread, every stage_scope_t the algorithms and
// the graph open records into that session. The GPU entry points take a stream, not an
// execution, so the stages reach the session through the thread's context rather than through
// arguments; the bindings open one context per native call (C++ users open their own).
//
// With a session, a stage takes two clock readings and, on a CUDA execution, optionally waits for
// the stream (sync_stages), records CUDA events (cuda_events: device_ms) and pushes an NVTX range
// (nvtx: the stage shows in Nsight Systems). Stages nest per thread; depth counts the enclosing
// stages of the same session.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/core/stage_scope.hpp"

namespace dyng {

struct profile_options_t {
  /// Wait for the CUDA stream at the end of every stage, so host_ms covers its device work.
  bool sync_stages = false;
  /// Push an NVTX range per stage (CUDA builds that found the NVTX headers).
  bool nvtx = false;
  /// Time every stage of a CUDA call with events on its stream (device_ms).
  bool cuda_events = false;
};

/// One finished stage.
struct stage_sample_t {
  const char* name = "";
  int depth = 0;
  /// Order in which stages began (0, 1, ...): the order records are listed in.
  int64_t begin_index = 0;
  /// Milliseconds from the session's start (or last reset) to the stage's start.
  double start_ms = 0.0;
  double host_ms = 0.0;
  /// CUDA event time between the stage's start and end on its stream; 0 without cuda_events.
  double device_ms = 0.0;
};

class profile_session_t {
 public:
  explicit profile_session_t(profile_options_t options);
  ~profile_session_t();
  profile_session_t(const profile_session_t&) = delete;
  profile_session_t& operator=(const profile_session_t&) = delete;

  const profile_options_t& options() const noexcept { return options_; }

  /// The finished stages in the order they ended, device times resolved (this waits for the
  /// events of stages that ran with cuda_events).
  std::vector<stage_sample_t> samples();
  /// Counter totals, in the order each counter was first added to.
  std::vector<std::pair<std::string, int64_t>> counters() const;
  /// Drops samples and counters and restarts the clock; stages open now still end as samples.
  void reset();

  void add_to_counter(std::string_view name, int64_t amount);
  /// A copy of `name` that lives as long as the session (for names made at run time).
  const char* intern(std::string_view name);

  // For stage_scope_t.
  using open_stage_t = profile_detail::open_stage_t;
  /// False when the stage could not be recorded (it then has no end()).
  bool begin(open_stage_t& stage, const char* name) noexcept;
  void end(open_stage_t& stage) noexcept;

 private:
  struct pending_events_t;
  void resolve_device_times();

  const profile_options_t options_;
  mutable std::mutex mutex_;
  int64_t clock_origin_ns_ = 0;
  int64_t next_begin_index_ = 0;
  std::vector<stage_sample_t> samples_;
  // Per sample: the index of its CUDA event pair, or -1.
  std::vector<int64_t> sample_events_;
  std::vector<std::pair<std::string, int64_t>> counters_;
  std::unordered_set<std::string> names_;
  std::unique_ptr<pending_events_t> events_;
};

/// Where the stages of this thread's current call go: the session they record into, and the
/// CUDA stream and device their events and waits go to.
struct profile_target_t {
  profile_session_t* session = nullptr;
  void* stream = nullptr;
  int device = 0;
  bool on_device = false;
};

/// Sends this thread's stages to `exec`'s session (if it has one) until the scope ends; restores
/// the context it replaced, so nested calls nest.
struct profile_fork_t;

class profile_context_t {
 public:
  explicit profile_context_t(const execution_t& exec) noexcept;
  /// On a worker thread of a call that runs whole stages side by side (mosp's objectives): the
  /// calling thread's context, its stages nested below the stage open there at the fork.
  explicit profile_context_t(const profile_fork_t& fork) noexcept;
  ~profile_context_t();
  profile_context_t(const profile_context_t&) = delete;
  profile_context_t& operator=(const profile_context_t&) = delete;

  using state_t = profile_target_t;

 private:
  state_t state_;
  const state_t* previous_ = nullptr;
  bool open_ = false;
  int previous_depth_ = -1;  // a fork's context restores the thread's depth
};

/// The calling thread's context and depth, taken before worker threads start (profile_fork()).
struct profile_fork_t {
  const profile_context_t::state_t* context = nullptr;
  int depth = 0;
};

/// What workers of this thread's call need to record their stages (empty when not profiling).
profile_fork_t profile_fork() noexcept;

/// True when this build can emit NVTX ranges.
bool nvtx_available() noexcept;

}  // namespace dyng
