// The CUDA side of a profile session (backend/profile.hpp): event pairs for device_ms, the
// stream wait of sync_stages and NVTX ranges. Nothing here throws: a profiler must never turn a
// working call into a failing one, so a CUDA error while profiling costs only that stage's
// device time.
#pragma once

#include <cstdint>
#include <vector>

namespace dyng::cuda {

/// Start and end events of the stages that asked for device times.
class profile_events_t {
 public:
  profile_events_t() = default;
  ~profile_events_t();
  profile_events_t(const profile_events_t&) = delete;
  profile_events_t& operator=(const profile_events_t&) = delete;

  /// Records a start event on `stream` (of `device`); returns the pair's index, -1 on failure.
  int64_t record_start(int device, void* stream) noexcept;
  void record_end(int64_t pair, void* stream) noexcept;
  /// Waits for the pair's end event; its elapsed milliseconds, 0 when it could not be timed.
  double elapsed_ms(int64_t pair) noexcept;
  /// Destroys every event.
  void clear() noexcept;

 private:
  struct pair_t {
    void* start = nullptr;
    void* end = nullptr;
    int device = 0;
  };
  std::vector<pair_t> pairs_;
};

void synchronize_for_profile(void* stream) noexcept;
void push_nvtx_range(const char* name) noexcept;
void pop_nvtx_range() noexcept;
/// True when the NVTX headers were found at build time.
bool nvtx_compiled() noexcept;

}  // namespace dyng::cuda
