// The slot by which an execution_t points at the profile session collecting its stages
// (backend/profile.hpp). Separate from profile.hpp so that execution.hpp stays light.
#pragma once

#include <atomic>

namespace dyng {

class profile_session_t;

/// Where an execution_t points at its session. Copies of an execution_t point at the same one;
/// the pointer is atomic because Python attaches a session to an execution that other threads
/// may be running calls with.
class profiler_slot_t {
 public:
  profiler_slot_t() = default;
  profiler_slot_t(const profiler_slot_t& other) noexcept : session_(other.get()) {}
  profiler_slot_t& operator=(const profiler_slot_t& other) noexcept {
    set(other.get());
    return *this;
  }
  profile_session_t* get() const noexcept { return session_.load(std::memory_order_acquire); }
  void set(profile_session_t* session) noexcept {
    session_.store(session, std::memory_order_release);
  }

 private:
  std::atomic<profile_session_t*> session_{nullptr};
};

}  // namespace dyng
