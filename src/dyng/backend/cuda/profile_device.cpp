#include "dyng/backend/cuda/profile_device.hpp"

#include <cuda_runtime.h>

#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define DYNG_HAVE_NVTX 1
#endif

namespace dyng::cuda {
namespace {

// Makes `device` current while events are made and recorded, then restores the caller's.
class current_device_t {
 public:
  explicit current_device_t(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) previous_ = -1;
    if (previous_ != device) cudaSetDevice(device);
  }
  ~current_device_t() {
    if (previous_ >= 0) cudaSetDevice(previous_);
  }

 private:
  int previous_ = -1;
};

cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }
cudaEvent_t as_event(void* event) { return static_cast<cudaEvent_t>(event); }

}  // namespace

profile_events_t::~profile_events_t() { clear(); }

int64_t profile_events_t::record_start(int device, void* stream) noexcept {
  try {
    current_device_t scope(device);
    cudaEvent_t start = nullptr;
    cudaEvent_t end = nullptr;
    if (cudaEventCreate(&start) != cudaSuccess) return -1;
    if (cudaEventCreate(&end) != cudaSuccess) {
      cudaEventDestroy(start);
      return -1;
    }
    pairs_.push_back({start, end, device});
    cudaEventRecord(start, as_stream(stream));
    return static_cast<int64_t>(pairs_.size()) - 1;
  } catch (...) {
    cudaGetLastError();
    return -1;
  }
}

void profile_events_t::record_end(int64_t pair, void* stream) noexcept {
  if (pair < 0 || pair >= static_cast<int64_t>(pairs_.size())) return;
  const pair_t& p = pairs_[static_cast<size_t>(pair)];
  current_device_t scope(p.device);
  cudaEventRecord(as_event(p.end), as_stream(stream));
}

double profile_events_t::elapsed_ms(int64_t pair) noexcept {
  if (pair < 0 || pair >= static_cast<int64_t>(pairs_.size())) return 0.0;
  const pair_t& p = pairs_[static_cast<size_t>(pair)];
  current_device_t scope(p.device);
  float ms = 0.0f;
  if (cudaEventSynchronize(as_event(p.end)) != cudaSuccess ||
      cudaEventElapsedTime(&ms, as_event(p.start), as_event(p.end)) != cudaSuccess) {
    cudaGetLastError();  // an untimed stage must not leave an error for the next CUDA call
    return 0.0;
  }
  return static_cast<double>(ms);
}

void profile_events_t::clear() noexcept {
  for (const pair_t& p : pairs_) {
    current_device_t scope(p.device);
    cudaEventDestroy(as_event(p.start));
    cudaEventDestroy(as_event(p.end));
  }
  pairs_.clear();
}

void synchronize_for_profile(void* stream) noexcept {
  if (cudaStreamSynchronize(as_stream(stream)) != cudaSuccess) cudaGetLastError();
}

void push_nvtx_range(const char* name) noexcept {
#if defined(DYNG_HAVE_NVTX)
  nvtxRangePushA(name);
#else
  (void)name;
#endif
}

void pop_nvtx_range() noexcept {
#if defined(DYNG_HAVE_NVTX)
  nvtxRangePop();
#endif
}

bool nvtx_compiled() noexcept {
#if defined(DYNG_HAVE_NVTX)
  return true;
#else
  return false;
#endif
}

}  // namespace dyng::cuda
