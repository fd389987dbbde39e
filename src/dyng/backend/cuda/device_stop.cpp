#include "dyng/backend/cuda/device_stop.hpp"

#include <cuda_runtime.h>

#include <chrono>
#include <thread>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/execution.hpp"

namespace dyng::cuda {

namespace {

/// Writes nonzero into `stop_word` from pinned host memory on a stream of its own, so the copy
/// runs beside the kernel of the caller's stream instead of queueing behind it.
void raise_stop_word(int* stop_word) {
  static int* const one = [] {
    int* pinned = nullptr;
    DYNG_CUDA_CHECK(
        cudaHostAlloc(reinterpret_cast<void**>(&pinned), sizeof(int), cudaHostAllocDefault));
    *pinned = 1;
    return pinned;
  }();
  cudaStream_t side = nullptr;
  DYNG_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  DYNG_CUDA_CHECK(cudaMemcpyAsync(stop_word, one, sizeof(int), cudaMemcpyHostToDevice, side));
  DYNG_CUDA_CHECK(cudaStreamSynchronize(side));
  DYNG_CUDA_CHECK(cudaStreamDestroy(side));
}

}  // namespace

void throw_if_cancelled_on(void* stream, const char* fn) {
  if (!cancel_scope_t::current().requested()) return;
  synchronize(stream);
  throw_if_cancelled(cancel_scope_t::current(), fn);
}

void synchronize_or_stop(void* stream, int* stop_word, const char* fn) {
  const auto s = static_cast<cudaStream_t>(stream);
  bool raised = false;
  while (true) {
    const cudaError_t state = cudaStreamQuery(s);
    if (state == cudaSuccess) break;
    if (state != cudaErrorNotReady) DYNG_CUDA_CHECK(state);
    if (!raised && cancel_scope_t::current().requested()) {
      raise_stop_word(stop_word);
      raised = true;
    }
    // Polling instead of a blocking wait is what lets the stop reach the kernel; the pause keeps
    // the waiting thread off the core it would otherwise spin on.
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  throw_if_cancelled(cancel_scope_t::current(), fn);
}

}  // namespace dyng::cuda
