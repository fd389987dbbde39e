// The marks libdyng's calls leave for the profiler (dyng.profile() in Python): stage scopes and
// counters. They are opened by every layer, core's update policy included, so they are declared
// here, below the backend; the profiler that records them (sessions, contexts, CUDA events, NVTX)
// is backend/profile.hpp, which defines the out-of-line parts (backend/profile.cpp). core/ thus
// includes nothing from backend/, while backend/ builds on core/.
//
// With no profile context open anywhere a stage costs one relaxed load of a global and one
// branch, so the stages stay compiled into release builds (bench/cpp/profile_idle.cpp measures
// it). Stages nest per thread and are opened only on the thread that made the call, never inside
// an OpenMP team.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

namespace dyng {

class profile_session_t;
struct profile_target_t;

namespace profile_detail {
/// How many profile contexts are open in the process: the one value an idle stage reads.
inline std::atomic<int> open_contexts{0};

/// A stage being recorded; filled by profile_session_t::begin() only, so an idle scope writes
/// none of it.
struct open_stage_t {
  const char* name;
  int depth;
  int64_t begin_index;
  int64_t start_ns;
  const profile_target_t* context;
  int64_t events;
};
}  // namespace profile_detail

/// Times the enclosing block as stage `name` (a string that outlives the session, such as a
/// literal) when this thread's call is being profiled.
class stage_scope_t {
 public:
  explicit stage_scope_t(const char* name) {
    if (profile_detail::open_contexts.load(std::memory_order_relaxed) != 0) open(name);
  }
  /// The stage `<prefix><suffix>`, the name built only when profiling (for stages named after
  /// a call's algorithm, such as run_update's).
  stage_scope_t(std::string_view prefix, const char* suffix) {
    if (profile_detail::open_contexts.load(std::memory_order_relaxed) != 0) open(prefix, suffix);
  }
  ~stage_scope_t() {
    if (session_ != nullptr) close();
  }
  stage_scope_t(const stage_scope_t&) = delete;
  stage_scope_t& operator=(const stage_scope_t&) = delete;

 private:
  void open(const char* name) noexcept;
  void open(std::string_view prefix, const char* suffix) noexcept;
  void close() noexcept;

  profile_session_t* session_ = nullptr;
  profile_detail::open_stage_t stage_;
};

/// Adds `amount` to counter `name` of the session this thread's call is profiled into, if any.
void count_in_profile_slow(const char* name, int64_t amount) noexcept;
inline void count_in_profile(const char* name, int64_t amount) {
  if (profile_detail::open_contexts.load(std::memory_order_relaxed) != 0) {
    count_in_profile_slow(name, amount);
  }
}

/// "sssp" from "sssp.update()" or "sssp::cuda::update()": the algorithm a call belongs to, for
/// stage names.
std::string_view algorithm_of_call(std::string_view fn) noexcept;

}  // namespace dyng
